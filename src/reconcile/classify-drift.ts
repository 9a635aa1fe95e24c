/**
 * Pure: which governed changed files a snapshot vouches for, per affected spec.
 * Everything is given as data (the changes, who governs what, the snapshot's
 * fingerprints, each file's content hash in the judged source), so the PR
 * check can feed it one commit and nothing else.
 *
 * A file is reconciled when its hash equals its snapshot fingerprint. A file
 * the judged source deleted is reconciled when the snapshot was taken at a
 * commit that no longer had it (`goneAtSnapshot`): the deletion was reconciled
 * before the snapshot. A file with no content there that is not such a
 * deletion (a dangling symlink, a gitlink) is unreconciled.
 */
import type { ChangeKind } from "../git/changed-files.js";
import type { Governor } from "../governance/governance.js";

export type DriftReason = "not-in-snapshot" | "hash-differs" | "deleted";

export interface DriftFile {
  path: string;
  /** The glob (as written in the spec) that made the spec govern the file, or the spec's own path. */
  glob: string;
  category: string;
  change: ChangeKind;
  reason: DriftReason;
  current_blake3: string | null;
  snapshot_blake3: string | null;
}

export interface DriftSpec {
  spec_path: string;
  /** Governed changed files the snapshot does not vouch for. */
  unreconciled: DriftFile[];
  /** Governed changed files the snapshot vouches for. */
  reconciled: string[];
}

export interface DriftClassificationInput {
  /** Changed paths (both sides of renames), in the order to report them. */
  changes: ReadonlyArray<{ path: string; kind: ChangeKind }>;
  governorsOf: (path: string) => Governor[];
  /** The snapshot's fingerprints (files and specs): path → BLAKE3. */
  fingerprints: ReadonlyMap<string, string>;
  /** path → BLAKE3 of its content in the judged source, null when it holds none. */
  hashes: ReadonlyMap<string, string | null>;
  /** Deleted paths that the commit the snapshot was taken at no longer held. */
  goneAtSnapshot: ReadonlySet<string>;
}

export interface DriftClassification {
  /** Affected specs, in path order. */
  specs: DriftSpec[];
  /** Unreconciled (spec, file) pairs. */
  unreconciled: number;
}

export function classifyDrift(input: DriftClassificationInput): DriftClassification {
  const bySpec = new Map<string, DriftSpec>();
  let total = 0;
  for (const c of input.changes) {
    const governors = input.governorsOf(c.path);
    if (governors.length === 0) continue;
    const hash = input.hashes.get(c.path) ?? null;
    const fp = input.fingerprints.get(c.path) ?? null;
    const ok = hash !== null ? fp === hash : input.goneAtSnapshot.has(c.path);
    for (const g of governors) {
      let s = bySpec.get(g.spec_path);
      if (s === undefined) bySpec.set(g.spec_path, (s = { spec_path: g.spec_path, unreconciled: [], reconciled: [] }));
      if (ok) {
        s.reconciled.push(c.path);
        continue;
      }
      total++;
      s.unreconciled.push({
        path: c.path,
        glob: g.glob,
        category: g.category,
        change: c.kind,
        reason: hash === null ? "deleted" : fp === null ? "not-in-snapshot" : "hash-differs",
        current_blake3: hash,
        snapshot_blake3: fp,
      });
    }
  }
  return { specs: [...bySpec.values()].sort((a, b) => (a.spec_path < b.spec_path ? -1 : 1)), unreconciled: total };
}
