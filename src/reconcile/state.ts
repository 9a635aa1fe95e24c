/**
 * `state show` and `state reset`: inspect or delete the committed snapshot.
 */
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { ensureCacheDir } from "../cache/write-cache.js";
import { withFileLock } from "../fsx/with-file-lock.js";
import { SNAPSHOT_PATH } from "../governance/governance.js";
import { readSnapshot, snapshotAncestry, type SnapshotAncestry } from "./read-snapshot.js";
import { snapshotTimestampToIso, type Snapshot } from "./snapshot-format.js";
import { SNAPSHOT_LOCK_PATH } from "./snapshot-state.js";

export interface StateShowResult {
  /** Repository-relative path of the snapshot. */
  path: string;
  exists: boolean;
  /** Why it cannot be used, or null. */
  problem: string | null;
  /** The snapshot as read (timestamps as written), or null. */
  snapshot: Snapshot | null;
  /** The timestamp as ISO-8601 UTC (NotarAI's unix-seconds form converted). */
  timestamp: string | null;
  /** Where the snapshot's git_hash stands relative to HEAD. */
  ancestry: SnapshotAncestry | null;
  files: number;
  specs: number;
}

export function showState(root: string): StateShowResult {
  const r = readSnapshot(root);
  const s = r.snapshot;
  return {
    path: r.path,
    exists: r.exists,
    problem: r.problem,
    snapshot: s,
    timestamp: s !== null ? snapshotTimestampToIso(s.last_reconciliation.timestamp) : null,
    ancestry: s !== null ? snapshotAncestry(root, s) : null,
    files: s !== null ? Object.keys(s.file_fingerprints).length : 0,
    specs: s !== null ? Object.keys(s.spec_fingerprints).length : 0,
  };
}

export interface StateResetResult {
  /** true if a snapshot file existed and was deleted. */
  removed: boolean;
}

export async function resetState(root: string): Promise<StateResetResult> {
  ensureCacheDir(root);
  return withFileLock(join(root, SNAPSHOT_LOCK_PATH), () => {
    try {
      unlinkSync(join(root, SNAPSHOT_PATH));
      return { removed: true };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { removed: false };
      throw e;
    }
  });
}
