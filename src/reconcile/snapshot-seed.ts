/**
 * The committed snapshot's fingerprints as the seed of a cache that has never
 * been seeded.
 */
import { ancestryWarning, readSnapshot, snapshotAncestry } from "./read-snapshot.js";
import { snapshotFingerprints } from "./snapshot-format.js";
import type { ToolOptions } from "./reconcile-context.js";

/** The snapshot's fingerprints (problems and a foreign `git_hash` become warnings), or null. */
export function snapshotSeed(root: string, options: ToolOptions): Map<string, string> | null {
  const snap = readSnapshot(root);
  if (snap.problem !== null) options.onWarning?.(`${snap.problem}; not used`);
  if (snap.snapshot === null) return null;
  const w = ancestryWarning(snap.snapshot, snapshotAncestry(root, snap.snapshot));
  if (w !== null) options.onWarning?.(w);
  return snapshotFingerprints(snap.snapshot);
}
