/**
 * Read the committed snapshot from the work tree, and check where it was taken:
 * a `git_hash` that is not an ancestor of HEAD (a squash merge, a rebase) is
 * reported rather than trusted as history (its content hashes still verify
 * themselves, file by file).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { isAncestor } from "../git/resolve-commit.js";
import { SNAPSHOT_PATH } from "../governance/governance.js";
import { parseSnapshot, type Snapshot } from "./snapshot-format.js";

export interface SnapshotRead {
  /** Repository-relative path of the snapshot file. */
  path: string;
  /** Whether the file exists. */
  exists: boolean;
  snapshot: Snapshot | null;
  /** Why the snapshot could not be used (unreadable, bad JSON, bad shape). */
  problem: string | null;
}

/** Read `.notarai/reconciliation_state.json` (never throws). */
export function readSnapshot(root: string): SnapshotRead {
  let text: string;
  try {
    text = readFileSync(join(root, SNAPSHOT_PATH), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { path: SNAPSHOT_PATH, exists: false, snapshot: null, problem: null };
    return { path: SNAPSHOT_PATH, exists: true, snapshot: null, problem: `cannot read ${SNAPSHOT_PATH} (${code ?? (e as Error).message})` };
  }
  const parsed = parseSnapshot(text);
  return { path: SNAPSHOT_PATH, exists: true, snapshot: parsed.snapshot, problem: parsed.problem === null ? null : `${SNAPSHOT_PATH}: ${parsed.problem}` };
}

export type SnapshotAncestry = "ancestor" | "not-ancestor" | "unknown-commit" | "no-git-hash";

/** Where the snapshot's `git_hash` stands relative to HEAD. */
export function snapshotAncestry(root: string, snapshot: Snapshot): SnapshotAncestry {
  const h = snapshot.last_reconciliation.git_hash;
  if (h === null || !/^[0-9a-fA-F]{4,64}$/.test(h)) return "no-git-hash";
  const r = isAncestor(root, h, "HEAD");
  return r === null ? "unknown-commit" : r ? "ancestor" : "not-ancestor";
}

/** A warning to show for a snapshot whose git_hash is not an ancestor of HEAD, or null. */
export function ancestryWarning(snapshot: Snapshot, ancestry: SnapshotAncestry): string | null {
  const h = snapshot.last_reconciliation.git_hash;
  if (ancestry === "not-ancestor")
    return (
      `${SNAPSHOT_PATH} was taken at ${h}, which is not an ancestor of HEAD (squash merge or rebase?): its fingerprints are used only where the file ` +
      `content still matches`
    );
  if (ancestry === "unknown-commit")
    return (
      `${SNAPSHOT_PATH} was taken at ${h}, a commit this clone does not have (shallow clone or rewritten history): its fingerprints are used only ` +
      `where the file content still matches`
    );
  return null;
}
