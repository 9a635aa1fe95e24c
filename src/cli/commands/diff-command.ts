/**
 * `diff --spec PATH [--base REF] [--exclude GLOB]… [--bypass-cache]`
 * (get_spec_diff): the unreconciled diff of one spec's governed files.
 * Text: the unified diff on stdout, the lists on stderr. JSON: all eight keys.
 *
 * git's scans of the work tree start before the library (specs, YAML, schemas, globs,
 * the cache) is loaded: the walk for untracked files is the longest wait, and it then
 * runs while this process loads and reads the specs.
 */
import { startSpecDiffScans } from "../../reconcile/start-spec-diff-scans.js";
import { UsageError } from "../../errors/noma-error.js";
import { shortRunSqlite } from "../startup/short-run-sqlite.js";
import type { CliIO } from "../cli-io.js";
import { listOption } from "../repo-context.js";
import { baseArg, baseSummary, callTool, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

export async function diffCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  if (typeof options["spec"] !== "string" || options["spec"] === "") throw new UsageError("--spec <path> is required (a .notarai/**/*.spec.yaml file)");
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const specPath = specArg(options["spec"], ctx, io.cwd);
  const chosen = baseArg(options, ctx.root, io.env);
  if (chosen.source !== "option") io.stderr(`base: ${chosen.ref} (${chosen.reason}; --base overrides)\n`);
  const scans = startSpecDiffScans(ctx.root, chosen.ref);
  let getSpecDiff: typeof import("../../reconcile/get-spec-diff.js").getSpecDiff;
  try {
    // The short-run WASM tiering once SQLite is needed (with BLAKE3 compiled first): a run that reads the cache without sql.js
    // and writes nothing pays for neither.
    shortRunSqlite(io.env);
    ({ getSpecDiff } = await import("../../reconcile/get-spec-diff.js"));
  } catch (e) {
    scans.abort.abort();
    throw e;
  }
  const { warnings, onWarning } = warningSink(io);
  const r = await callTool(() =>
    getSpecDiff(
      ctx.root,
      { specPath, baseBranch: chosen.ref, excludePatterns: listOption(options["exclude"]), bypassCache: options["bypassCache"] === true },
      { onWarning, scans, mergeBase: { onDeepen: (n) => io.stderr(`shallow clone: fetching ${n} more commits to find the merge-base…\n`) } },
    ),
  );
  if (format === "json")
    io.stdout(
      envelope("diff", true, r, warnings, {
        base: baseSummary(chosen),
        spec: specPath,
        files: r.files.length,
        skipped: r.skipped.length,
        binary_changes: r.binary_changes.length,
        spec_changes: r.spec_changes.length,
      }),
    );
  else {
    io.stdout(r.diff);
    const lines = [
      `${plural(r.files.length, "file")} to reconcile${r.files.length > 0 ? `: ${r.files.join(", ")}` : ""}`,
      `${plural(r.skipped.length, "file")} already reconciled${r.skipped.length > 0 ? `: ${r.skipped.join(", ")}` : ""}`,
    ];
    if (r.binary_changes.length > 0) lines.push(`binary (not in the diff): ${r.binary_changes.join(", ")}`);
    if (r.spec_changes.length > 0) lines.push(`changed specs (full text in --format json): ${r.spec_changes.map((s) => s.path).join(", ")}`);
    if (r.excluded.length > 0) lines.push(`excluded patterns: ${r.excluded.join(", ")}`);
    io.stderr(`${lines.join("\n")}\n`);
  }
  return 0;
}
