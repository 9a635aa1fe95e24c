/**
 * `noma-reconcile init [--dry-run] [--hooks] [--force] [--format text|json]`:
 * set a repository up (`.notarai/`, `.gitignore`, `.mcp.json`; with `--hooks`
 * the git pre-commit hook). Idempotent. Exit 0 done (or nothing to do), 2 when
 * something could not be done (an unparseable `.mcp.json`, which is never
 * touched; a foreign hook in the way without `--force`; not a repository).
 * Warns (stderr; `warnings` in JSON) when the program is not installed where
 * the hook and the MCP server look for it — not an error. Where a hook manager
 * is set up (the pre-commit framework, lefthook, husky) no raw git hook is
 * installed: init prints the manager's entry, and with `--hooks` adds it to the
 * manager's file (exit 2 when the file cannot be edited safely). With `--agent NAME`
 * (claude, gemini, codex, opencode; repeatable) the coding agent's gate is registered in that agent's
 * settings (exit 2, the entry printed, when its file cannot be edited safely).
 */
import { join, relative, sep } from "node:path";
import { INIT_LOCK_PATH, initProject, type InitFile, type InitResult } from "../../init/init-project.js";
import { plural } from "../../report/plural.js";
import { detectHookManagers, type HookManagerOutcome, managerName, setUpHookManagers } from "../../init/set-up-hook-managers.js";
import { McpJsonError } from "../../init/merge-mcp-json.js";
import { TOOL_NAME } from "../../version.js";
import { RuntimeError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { envelope, formatArg, requireRepo } from "./reconcile-command.js";
import { choice, listOption } from "../repo-context.js";
import { AGENT_NAMES, AGENT_TITLES, type AgentName } from "../../init/agent-setups.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { detectEditors, EDITOR_NAMES } from "../../init/detect-editors.js";

interface HooksOutcome {
  hooksDir: string;
  installed: string[];
  unchanged: string[];
  refused: Array<{ hook: string; reason: string }>;
}

const VERB: Record<InitFile["action"], [string, string]> = {
  create: ["created", "would create"],
  update: ["updated", "would update"],
  unchanged: ["unchanged", "unchanged"],
  keep: ["kept", "would keep"],
};

export async function initCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  const dryRun = options["dryRun"] === true;
  const force = options["force"] === true;
  const agents: AgentName[] = listOption(options["agent"])
    .flatMap((v) => v.split(","))
    .map((v) => choice("agent", v.trim(), AGENT_NAMES));
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  let result: InitResult;
  try {
    result = await initProject(ctx.root, { dryRun, force, env: io.env, agents });
  } catch (e) {
    if (e instanceof McpJsonError) throw new RuntimeError(e.message, { cause: e });
    throw e;
  }
  let hooks: HooksOutcome | null = null;
  const wantHooks = options["hooks"] === true;
  const detected = detectHookManagers(ctx.root);
  const husky = detected.some((d) => d.manager === "husky");
  // The pre-commit framework and lefthook own the git hook: a raw hook of ours would be overwritten.
  const ownsHook = detected.some((d) => d.manager !== "husky");
  if (wantHooks && (!ownsHook || husky)) {
    const { installHooks } = await import("../../hooks/install-hooks.js");
    hooks = installHooks(ctx.root, { force, dryRun, husky });
  }
  const managers: HookManagerOutcome[] = await setUpHookManagers(ctx.root, detected, { apply: wantHooks, dryRun, lockPath: join(ctx.root, INIT_LOCK_PATH) });
  const refused = hooks?.refused ?? [];
  const unsafe = managers.filter((m) => m.action === "unsafe");
  const unsafeAgents = result.agents.filter((a) => a.action === "unsafe");
  const code = refused.length > 0 || unsafe.length > 0 || unsafeAgents.length > 0 ? 2 : 0;
  const editors = detectEditors(ctx.root);

  const warn = (): void => {
    for (const w of result.warnings) io.stderr(`${TOOL_NAME}: warning: ${w}\n`);
  };
  if (format === "json") {
    warn();
    io.stdout(
      envelope(
        "init",
        code === 0,
        {
          root: ctx.root,
          dry_run: dryRun,
          files: result.files,
          ...(hooks !== null ? { hooks } : {}),
          managers,
          editors,
          program: result.program,
          agents: result.agents,
        },
        result.warnings,
      ),
    );
    return code;
  }
  const lines: string[] = [];
  for (const f of result.files) lines.push(`${VERB[f.action][dryRun ? 1 : 0].padEnd(dryRun ? 13 : 9)} ${f.path}  (${f.detail})`);
  if (hooks !== null) {
    const rel = relative(ctx.root, hooks.hooksDir).split(sep).join("/");
    const dir = rel.length > 0 && !rel.startsWith("..") ? rel : hooks.hooksDir;
    for (const h of hooks.installed) lines.push(`${(dryRun ? "would install" : "installed").padEnd(dryRun ? 13 : 9)} ${h} hook  (${dir})`);
    for (const h of hooks.unchanged) lines.push(`${"unchanged".padEnd(dryRun ? 13 : 9)} ${h} hook  (${dir})`);
    for (const r of hooks.refused) lines.push(`${(dryRun ? "would refuse" : "refused").padEnd(dryRun ? 13 : 9)} ${r.hook} hook  (${r.reason})`);
  }
  const W = dryRun ? 13 : 9;
  for (const m of managers) {
    if (m.action === "add") lines.push(`${(dryRun ? "would update" : "updated").padEnd(W)} ${m.file}  (${m.detail})`);
    else if (m.action === "present") lines.push(`${"unchanged".padEnd(W)} ${m.file}  (${m.detail})`);
    else {
      lines.push(`${(m.action === "unsafe" ? (dryRun ? "would refuse" : "refused") : "add").padEnd(W)} ${m.file}  (${m.detail}):`);
      for (const l of (m.entry ?? "").split("\n")) lines.push(l.length > 0 ? `    ${l}` : "");
    }
    if (m.activate !== undefined)
      lines.push(`${"then run".padEnd(W)} ${m.activate}  (${managerName(m.manager)} is not this repository's git hook yet: until then nothing runs on commit)`);
  }
  for (const a of result.agents) {
    const verb = a.action === "unsafe" ? (dryRun ? "would refuse" : "refused") : VERB[a.action][dryRun ? 1 : 0];
    lines.push(`${verb.padEnd(W)} ${a.path}  (${a.detail})${a.snippet !== undefined ? ":" : ""}`);
    for (const l of (a.snippet ?? "").split("\n")) if (l.length > 0) lines.push(`    ${l}`);
  }
  // The editor found, and the line that starts the language server there (init never edits an editor's file).
  for (const e of editors)
    lines.push(
      e.configured
        ? `${"editor".padEnd(W)} ${EDITOR_NAMES[e.editor]} (${e.marker}): the language server is set up in ${e.file}`
        : `${"editor".padEnd(W)} ${EDITOR_NAMES[e.editor]} (${e.marker}): ${e.advice}`,
    );
  io.stdout(`${lines.join("\n")}\n`);
  const agentFiles = result.agents.filter((a) => a.action === "create" || a.action === "update").length;
  const written = result.files.filter((f) => f.action === "create" || f.action === "update").length + agentFiles;
  const installed = hooks?.installed.length ?? 0;
  const added = managers.filter((m) => m.action === "add").length;
  const kept = result.files.filter((f) => f.action === "keep").length;
  const summary: string[] = [];
  if (written + installed + added === 0) summary.push(dryRun ? "nothing to change" : "already initialized, nothing to do");
  if (written > 0) summary.push(`${plural(written, "file")} ${dryRun ? "to write" : "written"}`);
  if (installed > 0) summary.push(`${plural(installed, "hook")} ${dryRun ? "to install" : "installed"}`);
  if (added > 0) summary.push(`${plural(added, "hook manager entry", "hook manager entries")} ${dryRun ? "to add" : "added"}`);
  const inactive = managers.filter((m) => m.activate !== undefined && m.action !== "advise");
  if (inactive.length > 0) summary.push(`then run ${inactive.map((m) => m.activate).join(" and ")} (printed above)`);
  if (kept > 0) summary.push(`${kept} kept (--force replaces)`);
  const advised = managers.filter((m) => m.action === "advise").length;
  if (advised > 0)
    summary.push(`${plural(advised, "hook manager entry", "hook manager entries")} to add (printed above; --hooks adds ${advised === 1 ? "it" : "them"})`);
  if (unsafe.length > 0) summary.push(`${plural(unsafe.length, "hook manager file")} left untouched: add the entry printed above yourself`);
  if (refused.length > 0) summary.push(`${plural(refused.length, "hook")} refused (each line above says what --force does)`);
  if (unsafeAgents.length > 0)
    summary.push(
      `${plural(unsafeAgents.length, "agent settings file")} left untouched ` +
        `(${[...new Set(unsafeAgents.map((a) => AGENT_TITLES[a.agent]))].join(", ")}): add the entry printed above yourself`,
    );
  io.stderr(`${TOOL_NAME}: ${dryRun ? "dry run, nothing written: " : ""}${summary.join("; ")}\n`);
  warn();
  return code;
}
