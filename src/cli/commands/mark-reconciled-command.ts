/**
 * `mark-reconciled PATH… [--spec PATH…] [--dry-run]`: record files (a directory:
 * the governed files under it) as reconciled at their current content, for the
 * specs named or for every spec governing each file.
 * `mark-reconciled --all [--spec PATH…] [--dry-run]`: the baseline — every governed
 * file and the spec files themselves, then the committed snapshot.
 *
 * Exit 0: everything given was marked (or is a deleted file git knows: nothing to
 * record). 1: some path was not marked (no spec governs it, git ignores it, an audit
 * record …; the rest was). 2: a path that does not exist and git never knew, a path
 * outside the repository, an unknown or (for --all) invalid spec: nothing was marked.
 */
import { baselineReconciliation, type BaselineResult } from "../../reconcile/baseline-reconciliation.js";
import { markReconciled, type MarkReconciledResult } from "../../reconcile/mark-reconciled.js";
import { UsageError } from "../../errors/noma-error.js";
import { prepareShortRunWasm } from "../startup/prepare-short-run-wasm.js";
import type { CliIO } from "../cli-io.js";
import { listOption, pathArg } from "../repo-context.js";
import { callTool, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";
import { plural } from "../../report/plural.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

/** A path as a shell word. */
const shellWord = (p: string): string => (/^[A-Za-z0-9._/+@=-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`);

const COMMIT_HINT = 'git add .notarai && git commit -m "Baseline the reconciliation (noma-reconcile)"';

export async function markReconciledCommand(files: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = formatArg(options);
  const all = options["all"] === true;
  const dryRun = options["dryRun"] === true;
  if (all && files.length > 0) throw new UsageError(`--all marks every governed file; give either --all or paths, not both (got ${files.join(" ")})`);
  if (!all && files.length === 0) throw new UsageError("give the files or directories to mark, or --all to baseline the whole repository");
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const specs = listOption(options["spec"]).map((s) => specArg(s, ctx, io.cwd));
  await prepareShortRunWasm({ hashing: true, env: io.env });
  const { warnings, onWarning } = warningSink(io);
  if (all) {
    const r = await callTool(() => baselineReconciliation(ctx.root, { ...(specs.length > 0 ? { specPaths: specs } : {}), dryRun }, { onWarning }));
    if (format === "json") io.stdout(envelope("mark-reconciled-all", true, r, warnings));
    else io.stdout(renderBaseline(r));
    return 0;
  }
  const rels = files.map((f) => pathArg(f, ctx, io.cwd));
  const r = await callTool(() => markReconciled(ctx.root, { files: rels, ...(specs.length > 0 ? { specPaths: specs } : {}), dryRun }, { onWarning }));
  const complete = r.not_marked.length === 0;
  if (format === "json") io.stdout(envelope("mark-reconciled", complete, r, warnings));
  else io.stdout(renderMarked(r));
  return complete ? 0 : 1;
}

function perSpec(r: MarkReconciledResult): string {
  return r.by_spec.map((s) => `${s.files.length} for ${s.spec_path}`).join(", ");
}

function renderMarked(r: MarkReconciledResult): string {
  let out = r.dry_run ? `Dry run: would mark ${plural(r.updated, "file")} as reconciled` : `Marked ${plural(r.updated, "file")} as reconciled`;
  out += r.by_spec.length > 0 ? `: ${perSpec(r)}` : "";
  out += r.dry_run ? "; nothing was written.\n" : ".\n";
  if (r.dry_run) for (const s of r.by_spec) out += `  ${s.spec_path}\n${s.files.map((f) => `    ${f}\n`).join("")}`;
  for (const n of r.not_marked) out += `Not marked: ${n.path} (${n.reason}).\n`;
  if (r.deleted.length > 0) out += `Skipped (deleted; nothing to record): ${r.deleted.join(", ")}.\n`;
  return out;
}

function renderBaseline(r: BaselineResult): string {
  const width = Math.max(...r.specs.map((s) => s.spec_path.length));
  const lines = r.specs
    .map((s) => `  ${s.spec_path.padEnd(width)}  ${plural(s.files.length, "file")}\n${r.dry_run ? s.files.map((f) => `    ${f}\n`).join("") : ""}`)
    .join("");
  const head = `${plural(r.updated, "file")} reconciled for ${plural(r.specs.length, "spec")} (each spec's own file included)`;
  if (r.dry_run) {
    return `Dry run: would mark ${head}, then write ${r.snapshot_path}; nothing was written.\n${lines}`;
  }
  const snap = r.snapshot!;
  let out = `Marked ${head}:\n${lines}`;
  out +=
    `Wrote ${r.snapshot_path}: ${plural(snap.files, "file fingerprint")}, ${plural(snap.specs, "spec fingerprint")}` +
    `${snap.git_hash !== "" ? ` at ${snap.git_hash}` : ""}.\n`;
  const others = r.uncommitted.filter((f) => !f.startsWith(".notarai/"));
  out +=
    `Next: commit the snapshot${r.uncommitted.length > 0 ? ` and the ${plural(r.uncommitted.length, "marked file")} not committed yet` : ""}, so the ` +
    `PR check (\`ci\`) measures drift from this ` +
    `baseline:\n  ${others.length > 0 ? `git add ${others.length <= 5 ? others.map(shellWord).join(" ") : "<those files>"} && ` : ""}${COMMIT_HINT}\n`;
  if (others.length > 5) out += `  (not committed yet: ${others.slice(0, 5).join(", ")} and ${others.length - 5} more; \`--format json\` lists them)\n`;
  return out;
}
