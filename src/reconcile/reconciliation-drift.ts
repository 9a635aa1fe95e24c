/**
 * The drift report a pull-request check needs (read-only: never writes the
 * cache or the snapshot). For each spec affected by the changes between
 * merge-base(base, HEAD) and the work tree, the governed changed files that the
 * committed snapshot does not vouch for, each with the glob that made the spec
 * govern it.
 *
 * A file is reconciled when its current BLAKE3 equals its snapshot fingerprint.
 * A deleted file is reconciled when the snapshot was taken at a commit that is
 * an ancestor of HEAD and no longer has the file (the deletion came first).
 */
import { pathsInTree } from "../git/paths-in-tree.js";
import { classifyDrift, type DriftSpec } from "./classify-drift.js";
import { currentHashes } from "../cache/current-hashes.js";
import { changedFiles } from "../git/changed-files.js";
import { findMergeBase } from "../git/merge-base.js";
import { readWorktreeStatus } from "../git/read-worktree-status.js";
import { readSnapshot, snapshotAncestry, ancestryWarning, type SnapshotAncestry } from "./read-snapshot.js";
import { snapshotFingerprints, type Snapshot } from "./snapshot-format.js";
import type { GitToolOptions } from "./list-affected-specs.js";
import { loadSpecContext } from "./load-spec-context.js";

export interface ReconciliationDriftInput {
  baseBranch: string;
  /** The baseline; default: the snapshot committed in the work tree. `null`: no baseline (everything is drift). */
  snapshot?: Snapshot | null;
}

export interface ReconciliationDrift {
  base: { ref: string; commit: string; merge_base: string };
  head: string;
  snapshot: { present: boolean; git_hash: string | null; ancestry: SnapshotAncestry | null; problem: string | null };
  changed_files: string[];
  /** Affected specs, in path order. */
  specs: DriftSpec[];
  /** Total unreconciled (spec, file) pairs. */
  unreconciled: number;
}

export async function reconciliationDrift(root: string, input: ReconciliationDriftInput, options: GitToolOptions = {}): Promise<ReconciliationDrift> {
  const mb = findMergeBase(root, input.baseBranch, options.mergeBase);
  const changes = changedFiles(root, mb.mergeBase);
  const ctx = loadSpecContext(root, options);
  let snapshot: Snapshot | null;
  let problem: string | null = null;
  let present: boolean;
  if (input.snapshot !== undefined) {
    snapshot = input.snapshot;
    present = snapshot !== null;
  } else {
    const r = readSnapshot(root);
    snapshot = r.snapshot;
    problem = r.problem;
    present = r.exists;
  }
  const ancestry = snapshot !== null ? snapshotAncestry(root, snapshot) : null;
  if (snapshot !== null && ancestry !== null) {
    const w = ancestryWarning(snapshot, ancestry);
    if (w !== null) options.onWarning?.(w);
  }
  const fingerprints = snapshot !== null ? snapshotFingerprints(snapshot) : new Map<string, string>();

  const governed = changes.filter((c) => ctx.governance.governorsOf(c.path).length > 0);
  const paths = governed.map((c) => c.path);
  const status = readWorktreeStatus(root, paths);
  const current = await currentHashes(root, paths, status, { blobHashes: new Map(), statHashes: new Map() });
  const deleted = paths.filter((p) => current.hashes.get(p) === null);
  const gitHash = snapshot?.last_reconciliation.git_hash ?? null;
  const goneAtSnapshot = new Set<string>();
  if (deleted.length > 0 && gitHash !== null && ancestry === "ancestor") {
    const there = pathsInTree(root, gitHash, deleted);
    for (const p of deleted) if (!there.has(p)) goneAtSnapshot.add(p);
  }

  const { specs, unreconciled } = classifyDrift({
    changes: governed,
    governorsOf: (p) => ctx.governance.governorsOf(p),
    fingerprints,
    hashes: current.hashes,
    goneAtSnapshot,
  });
  return {
    base: { ref: mb.baseRef, commit: mb.baseCommit, merge_base: mb.mergeBase },
    head: mb.headCommit,
    snapshot: { present, git_hash: gitHash, ancestry, problem },
    changed_files: changes.map((c) => c.path),
    specs,
    unreconciled,
  };
}
