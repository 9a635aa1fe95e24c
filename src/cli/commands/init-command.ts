/**
 * `noma-reconcile init [--dry-run] [--hooks] [--force] [--format text|json]`:
 * set a repository up (`.notarai/`, `.gitignore`, `.mcp.json`; with `--hooks`
 * the git pre-commit hook). Idempotent. Exit 0 done (or nothing to do), 2 when
 * something could not be done (an unparseable `.mcp.json`, which is never
 * touched; a foreign hook in the way without `--force`; not a repository).
 * Warns (stderr; `warnings` in JSON) when the program is not installed where
 * the hook and the MCP server look for it — not an error.
 */
import { relative, sep } from "node:path";
import { initProject, type InitFile, type InitResult } from "../../init/init-project.js";
import { McpJsonError } from "../../init/merge-mcp-json.js";
import { TOOL_NAME } from "../../version.js";
import { RuntimeError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { envelope, formatArg, requireRepo } from "./reconcile-command.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

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
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  let result: InitResult;
  try {
    result = await initProject(ctx.root, { dryRun, force, env: io.env });
  } catch (e) {
    if (e instanceof McpJsonError) throw new RuntimeError(e.message, { cause: e });
    throw e;
  }
  let hooks: HooksOutcome | null = null;
  if (options["hooks"] === true) {
    const { installHooks } = await import("../../hooks/install-hooks.js");
    hooks = installHooks(ctx.root, { force, dryRun });
  }
  const refused = hooks?.refused ?? [];
  const code = refused.length > 0 ? 2 : 0;

  const warn = (): void => {
    for (const w of result.warnings) io.stderr(`${TOOL_NAME}: warning: ${w}\n`);
  };
  if (format === "json") {
    warn();
    io.stdout(
      envelope(
        "init",
        code === 0,
        { root: ctx.root, dry_run: dryRun, files: result.files, ...(hooks !== null ? { hooks } : {}), program: result.program },
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
  io.stdout(`${lines.join("\n")}\n`);
  const written = result.files.filter((f) => f.action === "create" || f.action === "update").length;
  const installed = hooks?.installed.length ?? 0;
  const kept = result.files.filter((f) => f.action === "keep").length;
  const summary: string[] = [];
  if (written + installed === 0) summary.push(dryRun ? "nothing to change" : "already initialized, nothing to do");
  if (written > 0) summary.push(`${written} file${written === 1 ? "" : "s"} ${dryRun ? "to write" : "written"}`);
  if (installed > 0) summary.push(`${installed} hook${installed === 1 ? "" : "s"} ${dryRun ? "to install" : "installed"}`);
  if (kept > 0) summary.push(`${kept} kept (--force replaces)`);
  if (refused.length > 0) summary.push(`${refused.length} hook${refused.length === 1 ? "" : "s"} refused (each line above says what --force does)`);
  io.stderr(`${TOOL_NAME}: ${dryRun ? "dry run, nothing written: " : ""}${summary.join("; ")}\n`);
  warn();
  return code;
}
