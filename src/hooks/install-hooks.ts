/**
 * Install our git hooks into the repository's real hooks directory
 * (`git rev-parse --git-path hooks`: honours `core.hooksPath`, linked
 * worktrees and `$GIT_DIR`). Idempotent, and decides by content what is ours:
 * our standalone hook (a shebang, then HOOK_MARKER: any version) is left alone
 * when current and upgraded when older; our block inside a shared hook file
 * (husky's `.husky/pre-commit`) is upgraded in place, the file's other lines
 * kept; the one line earlier versions put into `.husky/pre-commit` becomes the
 * block. A foreign hook is never changed without `force`; with `force` a
 * standalone foreign hook is renamed to `<hook>.before-noma-reconcile` beside
 * ours, which runs it first (its checks keep running; one kept by an earlier
 * `force` is never overwritten), and a husky hook gets our block appended
 * after its own steps. Under husky
 * (`core.hooksPath` = `.husky/_`) the hook goes into `.husky/<hook>`, husky's
 * place for user hooks.
 */
import { gitHooksDir } from "../git/read-ref.js";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import {
  CHAINED_SUFFIX,
  findHookBlock,
  HOOK_BLOCK_END,
  HOOK_COMMAND,
  hookManagerOf,
  isOwnHook,
  LEGACY_HUSKY_LINE,
  PRE_COMMIT_BLOCK,
  PRE_COMMIT_SCRIPT,
} from "./hook-script.js";

export interface InstallHooksOptions {
  /** Replace a foreign hook (renamed to `<hook>.before-noma-reconcile`, which ours runs first; a husky hook keeps its steps and gets ours appended). */
  force?: boolean;
  /** Report what would happen; write nothing. */
  dryRun?: boolean;
  /** The repository uses husky (it has `.husky/`): the hook goes into `.husky/<hook>` even where husky has not set `core.hooksPath` in this clone yet. */
  husky?: boolean;
}

export interface InstallHooksResult {
  /** Absolute path of the directory the hooks went (or would go) into. */
  hooksDir: string;
  /** Hooks written (or, with dryRun, that would be written). */
  installed: string[];
  /** Hooks already current. */
  unchanged: string[];
  /** Hooks left alone, with why and what to do instead. */
  refused: Array<{ hook: string; reason: string }>;
}

const HOOKS: ReadonlyArray<{ name: string; script: string; block: string }> = [{ name: "pre-commit", script: PRE_COMMIT_SCRIPT, block: PRE_COMMIT_BLOCK }];

/** husky 9's `core.hooksPath` (`.husky/_`), or husky 8's (`.husky`). */
function isHuskyDir(dir: string): boolean {
  return (basename(dir) === "_" && basename(dirname(dir)) === ".husky") || basename(dir) === ".husky";
}

function foreignReason(hook: string, text: string, path: string, husky: boolean): string {
  if (husky) return `${path} is a husky hook with other steps: rerun with --force to append the noma-reconcile block after them (your steps are kept)`;
  const manager = hookManagerOf(text);
  if (manager === "pre-commit")
    return (
      `${path} is managed by the pre-commit framework: add the noma-reconcile hook to .pre-commit-config.yaml instead (init prints the entry when ` +
      `that file exists), or rerun with --force to put ours in its place (yours is kept as ${basename(path)}${CHAINED_SUFFIX} and still runs, first)`
    );
  if (manager !== null)
    return (
      `${path} is managed by a hook manager: make its ${hook} step run \`${HOOK_COMMAND}\` instead (init prints the entry when its configuration file ` +
      `exists), or rerun with --force to put ours in its place (yours is kept as ${basename(path)}${CHAINED_SUFFIX} and still runs, first)`
    );
  return (
    `${path} already exists and is not ours: add \`${HOOK_COMMAND}\` to it, or rerun with --force to put ours in its place (yours is kept ` +
    `as ${basename(path)}${CHAINED_SUFFIX} and still runs, first)`
  );
}

/** `text` with lines first..last replaced by `block` (which ends with a newline). */
function replaceLines(text: string, first: number, last: number, block: string): string {
  const lines = text.split("\n");
  return [...lines.slice(0, first), block.replace(/\n$/, ""), ...lines.slice(last + 1)].join("\n");
}

function isExecutable(path: string): boolean {
  return process.platform === "win32" || (statSync(path).mode & 0o111) !== 0;
}

type Plan = { kind: "unchanged" } | { kind: "refused"; reason: string } | { kind: "write"; text: string; backup: boolean };

/** What to do with one hook file, from its current text (null: none). */
function planHook(path: string, current: string | null, script: string, block: string, husky: boolean, force: boolean): Plan {
  const own = husky ? block : script;
  if (current === null) return { kind: "write", text: own, backup: false };
  if (isOwnHook(current)) return current === own && isExecutable(path) ? { kind: "unchanged" } : { kind: "write", text: own, backup: false };
  const found = findHookBlock(current);
  if (found === "open")
    return {
      kind: "refused",
      reason: `${path} has the first line of a noma-reconcile block but not its last (\`${HOOK_BLOCK_END}\`): complete or remove the block, then rerun`,
    };
  if (found !== null) {
    const text = replaceLines(current, found.first, found.last, block);
    return text === current ? { kind: "unchanged" } : { kind: "write", text, backup: false };
  }
  if (husky) {
    const lines = current.split("\n");
    const legacy = lines.findIndex((l) => l.trim() === LEGACY_HUSKY_LINE);
    if (legacy !== -1) return { kind: "write", text: replaceLines(current, legacy, legacy, block), backup: false };
    // The user's own call of the check (e.g. through pnpm or yarn): theirs to keep.
    if (current.includes("noma-reconcile check --staged")) return { kind: "unchanged" };
    if (force) return { kind: "write", text: current.trim().length === 0 ? block : `${current.replace(/\n*$/, "\n")}${block}`, backup: false };
  } else if (force) {
    return { kind: "write", text: script, backup: true };
  }
  return { kind: "refused", reason: "" };
}

export function installHooks(root: string, options: InstallHooksOptions = {}): InstallHooksResult {
  const gitDir = gitHooksDir(root);
  const husky = options.husky === true || isHuskyDir(gitDir);
  const hooksDir = !husky ? gitDir : options.husky === true && !isHuskyDir(gitDir) ? join(root, ".husky") : basename(gitDir) === "_" ? dirname(gitDir) : gitDir;
  const result: InstallHooksResult = { hooksDir, installed: [], unchanged: [], refused: [] };
  for (const { name, script, block } of HOOKS) {
    const path = join(hooksDir, name);
    let current: string | null = null;
    if (existsSync(path)) {
      if (!statSync(path).isFile()) {
        result.refused.push({ hook: name, reason: `${path} exists and is not a file` });
        continue;
      }
      current = readFileSync(path, "utf8");
    }
    const plan = planHook(path, current, script, block, husky, options.force === true);
    if (plan.kind === "unchanged") {
      result.unchanged.push(name);
      continue;
    }
    if (plan.kind === "refused") {
      result.refused.push({ hook: name, reason: plan.reason !== "" ? plan.reason : foreignReason(name, current ?? "", path, husky) });
      continue;
    }
    const chained = `${path}${CHAINED_SUFFIX}`;
    // A hook kept by an earlier --force is never overwritten; the same bytes there are this hook, left by an interrupted install.
    const keptAlready = plan.backup && existsSync(chained);
    if (keptAlready && !readFileSync(chained).equals(readFileSync(path))) {
      result.refused.push({
        hook: name,
        reason: `${chained} exists already (a hook kept by an earlier --force) and ${path} is another foreign hook: merge the two or move one away, then rerun`,
      });
      continue;
    }
    result.installed.push(name);
    if (options.dryRun === true) continue;
    mkdirSync(hooksDir, { recursive: true });
    if (plan.backup && !keptAlready) renameSync(path, chained);
    writeFileAtomic(path, plan.text, { mode: 0o755 });
    chmodSync(path, 0o755);
  }
  return result;
}
