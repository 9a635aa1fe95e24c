/**
 * `changed --spec PATH [--type CAT]` (get_changed_artifacts): artifact files
 * of a spec whose content is not reconciled, one per line.
 */
import { UsageError } from "../../errors/noma-error.js";
import { startWorktreeListing } from "../../git/read-worktree-status.js";
import type { CliIO } from "../cli-io.js";
import { callTool, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { shortRunSqlite } from "../startup/short-run-sqlite.js";

export async function changedCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  if (typeof options["spec"] !== "string" || options["spec"] === "") throw new UsageError("--spec <path> is required (a .notarai/**/*.spec.yaml file)");
  const type = options["type"] !== undefined ? String(options["type"]) : undefined;
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const specPath = specArg(options["spec"], ctx, io.cwd);
  // Git first: its processes run while this one loads the rest, reads the cache and parses the specs.
  const listing = startWorktreeListing(ctx.root);
  const { readRecords } = await import("../../cache/read-cache.js");
  // Short-run tiering once SQLite is needed (a warm run whose memos answer everything loads neither sql.js nor BLAKE3).
  // A cold run too: its memo goes in as a few packed chunks, not a statement per file, so optimised SQLite code would
  // not pay for V8 optimising the module in the background (docs/perf/hashing.md, issue 38); BLAKE3 is compiled first.
  shortRunSqlite(io.env);
  const records = readRecords(ctx.root, [specPath]);
  records.catch(() => undefined); // awaited by the tool
  const { getChangedArtifacts } = await import("../../reconcile/get-changed-artifacts.js");
  const { warnings, onWarning } = warningSink(io);
  const input = type !== undefined ? { specPath, artifactType: type } : { specPath };
  const r = await callTool(() => getChangedArtifacts(ctx.root, input, { onWarning, listing, records }));
  if (format === "json") io.stdout(envelope("changed", true, r, warnings, { spec: specPath, changed_artifacts: r.changed_artifacts.length }));
  else {
    io.stdout(r.changed_artifacts.map((p) => `${p}\n`).join(""));
    io.stderr(`${plural(r.changed_artifacts.length, "changed artifact")} for ${specPath}${type !== undefined ? ` (${type})` : ""}.\n`);
  }
  return 0;
}
