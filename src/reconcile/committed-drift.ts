/**
 * Drift as the PR check sees it, from one commit and nothing else: for each
 * spec (as committed at HEAD) that governs a file changed merge-base…HEAD, the
 * changed files the snapshot committed at HEAD does not vouch for, comparing
 * each file's content at HEAD with the snapshot's fingerprint. The work tree,
 * the index, the uncommitted snapshot file and the local cache are never read.
 *
 * A deleted file is reconciled when the snapshot was taken at a commit that is
 * an ancestor of HEAD and no longer has the file (the deletion came first).
 */
import type { TreeChange } from "../git/tree-changes.js";
import { pathsInTree } from "../git/paths-in-tree.js";
import { isAncestor } from "../git/resolve-commit.js";
import { SNAPSHOT_PATH, type Governance } from "../governance/governance.js";
import type { ReconciliationDrift } from "./reconciliation-drift.js";
import { ancestryWarning, type SnapshotAncestry } from "./read-snapshot.js";
import { parseSnapshot, snapshotFingerprints, type Snapshot } from "./snapshot-format.js";
import { classifyDrift, type DriftSpec } from "./classify-drift.js";
import { commitHashes } from "./commit-hashes.js";

export interface CommittedDriftInput {
  root: string;
  /** The judged commit (HEAD). */
  head: string;
  /** Changes merge-base…head (`treeChanges`). */
  changes: readonly TreeChange[];
  /** Governance by the specs as committed at `head`. */
  governance: Governance;
  /** A path's text at `head` (the snapshot is read through it). */
  read: (path: string) => string | null;
  onWarning?: (message: string) => void;
}

export interface CommittedDrift {
  snapshot: ReconciliationDrift["snapshot"];
  specs: DriftSpec[];
  unreconciled: number;
}

/** Where the snapshot's `git_hash` stands relative to the judged commit. */
function ancestryAt(root: string, snapshot: Snapshot, head: string): SnapshotAncestry {
  const h = snapshot.last_reconciliation.git_hash;
  if (h === null || !/^[0-9a-fA-F]{4,64}$/.test(h)) return "no-git-hash";
  const r = isAncestor(root, h, head);
  return r === null ? "unknown-commit" : r ? "ancestor" : "not-ancestor";
}

export async function committedDrift(input: CommittedDriftInput): Promise<CommittedDrift> {
  const { root, head, governance } = input;
  const text = input.read(SNAPSHOT_PATH);
  let snapshot: Snapshot | null = null;
  let problem: string | null = null;
  if (text !== null) {
    const parsed = parseSnapshot(text);
    snapshot = parsed.snapshot;
    if (parsed.problem !== null) {
      problem = `${SNAPSHOT_PATH}: ${parsed.problem}`;
      input.onWarning?.(`${problem} (as committed at HEAD): every governed change counts as unreconciled`);
    }
  }
  const ancestry = snapshot !== null ? ancestryAt(root, snapshot, head) : null;
  if (snapshot !== null && ancestry !== null) {
    const w = ancestryWarning(snapshot, ancestry);
    if (w !== null) input.onWarning?.(w);
  }
  const governed = input.changes.filter((c) => governance.governorsOf(c.path).length > 0);
  const hashes = await commitHashes(root, head, governed);
  const gitHash = snapshot?.last_reconciliation.git_hash ?? null;
  const goneAtSnapshot = new Set<string>();
  // Only paths HEAD does not hold: a dangling symlink or a gitlink has no content but was not deleted.
  const absent = governed.filter((c) => c.oid === null).map((c) => c.path);
  if (absent.length > 0 && gitHash !== null && ancestry === "ancestor") {
    const there = pathsInTree(root, gitHash, absent);
    for (const p of absent) if (!there.has(p)) goneAtSnapshot.add(p);
  }
  const { specs, unreconciled } = classifyDrift({
    changes: governed,
    governorsOf: (p) => governance.governorsOf(p),
    fingerprints: snapshot !== null ? snapshotFingerprints(snapshot) : new Map(),
    hashes,
    goneAtSnapshot,
  });
  return { snapshot: { present: text !== null, git_hash: gitHash, ancestry, problem }, specs, unreconciled };
}
