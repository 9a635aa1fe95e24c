/**
 * Adopt a repository in one step (`mark-reconciled --all`): mark every governed
 * file git knows — the spec files themselves included (each spec governs its own
 * file) — reconciled at its current content, for every spec (or for the specs
 * named), then write the committed snapshot `.notarai/reconciliation_state.json`
 * from those records. What the repository holds today becomes the baseline drift
 * is measured from; committing the snapshot makes it the PR check's baseline too.
 *
 * Refused, with nothing written, while a spec it would baseline is invalid: which
 * files such a spec governs is unknown, so a baseline would vouch for less than it
 * claims. Both writes are atomic and locked (the cache's lock, then the
 * snapshot's); `dryRun` reports the same plan and writes nothing.
 */
import { headCommit } from "../git/read-ref.js";
import { changedFiles } from "../git/changed-files.js";
import { SNAPSHOT_PATH } from "../governance/governance.js";
import { formatSpecProblem } from "../governance/spec-problem.js";
import { loadSpecContext } from "./load-spec-context.js";
import { markInContext, selectedSpecs, type MarkedForSpec } from "./mark-reconciled.js";
import type { ToolOptions } from "./reconcile-context.js";
import { ReconcileError } from "./reconcile-error.js";
import { snapshotState, type SnapshotStateResult } from "./snapshot-state.js";

export interface BaselineInput {
  /** Baseline these specs only (default: every spec of the repository). */
  specPaths?: readonly string[];
  /** Decide and report, write nothing. */
  dryRun?: boolean;
}

export interface BaselineResult {
  dry_run: boolean;
  /** Every spec baselined, in path order, with the files marked for it (its own file included). */
  specs: MarkedForSpec[];
  /** Distinct files marked. */
  updated: number;
  /** Repository-relative path of the snapshot. */
  snapshot_path: string;
  /** The snapshot written (null in a dry run). */
  snapshot: SnapshotStateResult | null;
  /**
   * Files marked whose content is not committed (changed since HEAD, staged or not, or
   * untracked; every file before the first commit): the PR check judges what is
   * committed, so they belong in the commit with the snapshot.
   */
  uncommitted: string[];
}

/** Of `files`, those whose work-tree content is not HEAD's. */
function notCommitted(root: string, files: readonly string[]): string[] {
  const head = headCommit(root);
  if (head === null) return [...files]; // no commit yet
  const changed = new Set(changedFiles(root, head).map((c) => c.path));
  return files.filter((f) => changed.has(f));
}

export async function baselineReconciliation(root: string, input: BaselineInput = {}, options: ToolOptions = {}): Promise<BaselineResult> {
  const ctx = loadSpecContext(root, options);
  const only = selectedSpecs(ctx, input.specPaths !== undefined ? { specPaths: input.specPaths } : {});
  const chosen = only ?? ctx.specs.files.map((f) => f.path);
  if (chosen.length === 0)
    throw new ReconcileError("unknown-spec", "no spec to baseline: specs live in .notarai/**/*.spec.yaml (`noma-reconcile init` writes an example)");
  const invalid = ctx.specs.files.filter((f) => chosen.includes(f.path) && f.data === null);
  if (invalid.length > 0) {
    const valid = ctx.specs.files.filter((f) => chosen.includes(f.path) && f.data !== null).map((f) => `--spec ${f.path}`);
    const first = invalid[0]!.problems[0];
    throw new ReconcileError(
      "invalid-spec",
      `${invalid.map((f) => f.path).join(", ")} ${invalid.length === 1 ? "is" : "are"} invalid, so which ` +
        `files ${invalid.length === 1 ? "it governs" : "they govern"} is unknown${first !== undefined ? ` (${formatSpecProblem(first)})` : ""}; ` +
        `nothing was marked. Fix ${invalid.length === 1 ? "it" : "them"} (\`noma-reconcile specs ` +
        `validate\`)${valid.length > 0 ? `, or baseline the others: mark-reconciled --all ${valid.join(" ")}` : ""}`,
    );
  }
  const marked = await markInContext(ctx, { files: ["."], ...(only !== null ? { specPaths: only } : {}), dryRun: input.dryRun === true }, options);
  const bySpec = new Map(marked.by_spec.map((s) => [s.spec_path, s.files]));
  const snapshot = input.dryRun === true ? null : await snapshotState(root, options);
  return {
    dry_run: input.dryRun === true,
    specs: [...chosen].sort().map((spec_path) => ({ spec_path, files: bySpec.get(spec_path) ?? [] })),
    updated: marked.updated,
    snapshot_path: SNAPSHOT_PATH,
    snapshot,
    uncommitted: notCommitted(root, [...new Set(marked.by_spec.flatMap((s) => s.files))].sort()),
  };
}
