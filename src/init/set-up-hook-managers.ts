/**
 * `init` and the hook managers a repository already uses: the pre-commit
 * framework (`.pre-commit-config.yaml`), lefthook (`lefthook.yml` and its
 * other names; `lefthook-local.yml` is the user's and never read) and husky
 * (`.husky/`). A manager owns the git hook, so a raw hook of ours would be
 * overwritten (or would hide the manager's): instead `init` says which entry
 * to add where, and with `--hooks` adds it to the manager's file as a minimal
 * text edit (add-manager-entry.ts), atomically, under init's lock. husky's
 * entry is our block in `.husky/pre-commit`, which install-hooks.ts writes.
 */
import { existsSync, lstatSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { withFileLock } from "../fsx/with-file-lock.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { gitHooksDir } from "../git/read-ref.js";
import { findHookBlock, hookManagerOf, PRE_COMMIT_BLOCK } from "../hooks/hook-script.js";
import { addLefthookEntry, addPreCommitEntry, type ManagerEdit } from "./add-manager-entry.js";
import { lefthookSnippet, preCommitSnippet } from "./hook-manager-entries.js";

export type HookManager = "pre-commit" | "lefthook" | "husky";

export interface DetectedHookManager {
  manager: HookManager;
  /** Repository-relative: the file our entry goes into. */
  file: string;
}

export interface HookManagerOutcome extends DetectedHookManager {
  /**
   * advise: the entry printed for the user to add; add: added (or, dry run, would be); present: already there; unsafe: the file was left alone, the
   * entry printed.
   */
  action: "advise" | "add" | "present" | "unsafe";
  detail: string;
  /** The text to add to `file` (advise, unsafe). */
  entry?: string;
  /** The command that makes the manager this repository's git hook, when it is not yet (the entry runs only then). */
  activate?: string;
}

export const LEFTHOOK_FILES = ["lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"] as const;
export const PRE_COMMIT_CONFIG = ".pre-commit-config.yaml";

const NAMES: Record<HookManager, string> = { "pre-commit": "the pre-commit framework", lefthook: "lefthook", husky: "husky" };

export function managerName(m: HookManager): string {
  return NAMES[m];
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

/** The hook managers set up in the repository at `root`, in that order. */
export function detectHookManagers(root: string): DetectedHookManager[] {
  const out: DetectedHookManager[] = [];
  if (isFile(join(root, PRE_COMMIT_CONFIG))) out.push({ manager: "pre-commit", file: PRE_COMMIT_CONFIG });
  const lefthook = LEFTHOOK_FILES.find((f) => isFile(join(root, f)));
  if (lefthook !== undefined) out.push({ manager: "lefthook", file: lefthook });
  if (existsSync(join(root, ".husky")) && statSync(join(root, ".husky")).isDirectory()) out.push({ manager: "husky", file: ".husky/pre-commit" });
  return out;
}

/** Whether `.husky/pre-commit` already runs the check (our block, or the user's own call). */
export function huskyHasCheck(root: string): boolean {
  const path = join(root, ".husky/pre-commit");
  if (!isFile(path)) return false;
  const text = readFileSync(path, "utf8");
  const block = findHookBlock(text);
  return (block !== null && block !== "open") || text.includes("noma-reconcile check --staged");
}

/** The command that makes a manager the repository's git hook (husky sets itself up on npm install). */
const INSTALL_COMMANDS: Partial<Record<HookManager, string>> = { "pre-commit": "pre-commit install", lefthook: "lefthook install" };

/** The command that makes `m` run on `git commit` here, or undefined when its hook is installed already. */
export function activationCommand(root: string, m: HookManager): string | undefined {
  const install = INSTALL_COMMANDS[m];
  if (install === undefined) return undefined;
  const hook = join(gitHooksDir(root), "pre-commit");
  try {
    if (isFile(hook) && hookManagerOf(readFileSync(hook, "utf8")) === m) return undefined;
  } catch {
    /* unreadable: say how to install it */
  }
  return install;
}

function snippet(m: HookManager): string {
  return m === "pre-commit" ? preCommitSnippet() : m === "lefthook" ? lefthookSnippet() : PRE_COMMIT_BLOCK.replace(/\n$/, "");
}

function where(m: HookManager, file: string): string {
  return m === "pre-commit" ? `to ${file} (an item of its repos: list)` : m === "lefthook" ? `to ${file} (under pre-commit: commands:)` : `to ${file}`;
}

function edit(m: HookManager, text: string): ManagerEdit {
  return m === "pre-commit" ? addPreCommitEntry(text) : addLefthookEntry(text);
}

/** Without `apply`: what to add where. With `apply`: add it to the pre-commit framework's and lefthook's files (husky: see install-hooks.ts). */
export async function setUpHookManagers(
  root: string,
  managers: readonly DetectedHookManager[],
  options: { apply: boolean; dryRun: boolean; lockPath: string },
): Promise<HookManagerOutcome[]> {
  const plan = (d: DetectedHookManager): HookManagerOutcome & { text?: string } => {
    const name = managerName(d.manager);
    if (d.manager === "husky") {
      if (huskyHasCheck(root)) return { ...d, action: "present", detail: `${name}: ${d.file} already runs noma-reconcile check --staged` };
      return { ...d, action: "advise", detail: `${name}: add this block ${where(d.manager, d.file)}, or rerun with --hooks`, entry: snippet(d.manager) };
    }
    const path = join(root, d.file);
    if (lstatSync(path).isSymbolicLink())
      return {
        ...d,
        action: "unsafe",
        detail: `${name}: ${d.file} is a symbolic link, left alone; add this entry ${where(d.manager, d.file)} yourself`,
        entry: snippet(d.manager),
      };
    const e = edit(d.manager, readFileSync(path, "utf8"));
    if (e.action === "present") return { ...d, action: "present", detail: `${name}: the noma-reconcile hook is already in ${d.file}` };
    if (e.action === "unsafe")
      return {
        ...d,
        action: options.apply ? "unsafe" : "advise",
        detail: options.apply
          ? `${name}: ${d.file} left untouched: ${e.reason}; add this entry ${where(d.manager, d.file)} yourself`
          : `${name}: add this entry ${where(d.manager, d.file)} (init --hooks cannot add it: ${e.reason})`,
        entry: snippet(d.manager),
      };
    if (!options.apply)
      return {
        ...d,
        action: "advise",
        detail: `${name}: add this entry ${where(d.manager, d.file)}, or rerun with --hooks to add it`,
        entry: snippet(d.manager),
      };
    return { ...d, action: "add", detail: `${name}: + the noma-reconcile hook; the rest of ${d.file} kept byte for byte`, text: e.text };
  };
  const strip = ({ text: _t, ...o }: HookManagerOutcome & { text?: string }): HookManagerOutcome => {
    const activate = activationCommand(root, o.manager);
    return activate === undefined ? o : { ...o, activate };
  };
  const targets = managers.filter((d) => !(options.apply && d.manager === "husky"));
  if (!options.apply || options.dryRun) return targets.map((d) => strip(plan(d)));
  return withFileLock(options.lockPath, () =>
    targets.map((d) => {
      const p = plan(d);
      if (p.action === "add" && p.text !== undefined) writeFileAtomic(join(root, d.file), p.text);
      return strip(p);
    }),
  );
}
