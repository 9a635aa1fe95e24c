/**
 * `snapshot_state`: write the reconciliation state to the committed snapshot
 * `.notarai/reconciliation_state.json`, under a lock, atomically.
 *
 * A file is fingerprinted when it exists, is governed, and every spec that
 * governs it reconciled it at the same hash (a file reconciled for spec A but
 * not yet for spec B is left out: the snapshot is CI's baseline and must not
 * claim more than is true). Spec files go to `spec_fingerprints`, other files
 * to `file_fingerprints`. The snapshot never lists itself.
 */
import { currentBranch, headCommit } from "../git/read-ref.js";
import { join } from "node:path";
import { readWorktreeStatus } from "../git/read-worktree-status.js";
import { withFileLock } from "../fsx/with-file-lock.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { isSpecPath } from "../governance/glob.js";
import { SNAPSHOT_PATH } from "../governance/governance.js";
import { formatSnapshot, SNAPSHOT_SCHEMA_VERSION, type Snapshot } from "./snapshot-format.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { loadSpecContext } from "./load-spec-context.js";
import { readReconciliation } from "./read-reconciliation.js";
import { reconciledHash, type ToolOptions } from "./reconcile-context.js";
import { ensureCacheDir } from "../cache/write-cache.js";

export const SNAPSHOT_LOCK_PATH = ".notarai/.cache/reconciliation_state.json.lock";

export interface SnapshotStateResult {
  /** Absolute path of the snapshot file. */
  state_path: string;
  /** Non-spec file fingerprints written. */
  files: number;
  /** Spec fingerprints written. */
  specs: number;
  /** HEAD at snapshot time ("" when there is no commit yet). */
  git_hash: string;
}

/** Build the snapshot object (no write). */
export async function buildSnapshot(root: string, options: ToolOptions = {}, now: Date = new Date()): Promise<Snapshot> {
  const ctx = loadSpecContext(root, options);
  const status = readWorktreeStatus(root);
  const rec = await readReconciliation(root, {}, options);
  const files: Record<string, { blake3: string }> = {};
  const specs: Record<string, string> = {};
  for (const [path, entry] of status) {
    if (entry.deleted || path === SNAPSHOT_PATH) continue;
    const governors = ctx.governance.governorsOf(path);
    if (governors.length === 0) continue;
    const hashes = new Set(governors.map((g) => reconciledHash(rec.cache, g.spec_path, path)));
    if (hashes.size !== 1) continue;
    const hash = [...hashes][0];
    if (hash === null || hash === undefined) continue;
    if (isSpecPath(path)) specs[path] = hash;
    else files[path] = { blake3: hash };
  }
  const head = headCommit(root);
  const branch = currentBranch(root);
  return {
    schema_version: SNAPSHOT_SCHEMA_VERSION,
    cli_version: `${TOOL_NAME} ${TOOL_VERSION}`,
    last_reconciliation: { timestamp: now.toISOString().replace(/\.\d{3}Z$/, "Z"), git_hash: head, branch },
    file_fingerprints: files,
    spec_fingerprints: specs,
  };
}

export async function snapshotState(root: string, options: ToolOptions = {}): Promise<SnapshotStateResult> {
  ensureCacheDir(root);
  // Built under the lock too: of two writers, the one that writes last read the cache last.
  const snapshot = await withFileLock(join(root, SNAPSHOT_LOCK_PATH), async () => {
    const s = await buildSnapshot(root, options);
    writeFileAtomic(join(root, SNAPSHOT_PATH), formatSnapshot(s));
    return s;
  });
  return {
    state_path: join(root, SNAPSHOT_PATH),
    files: Object.keys(snapshot.file_fingerprints).length,
    specs: Object.keys(snapshot.spec_fingerprints).length,
    git_hash: snapshot.last_reconciliation.git_hash ?? "",
  };
}
