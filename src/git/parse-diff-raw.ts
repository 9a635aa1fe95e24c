/**
 * Parse `git diff --raw -z --no-abbrev --no-renames` output: per entry
 * `:<src mode> <dst mode> <src oid> <dst oid> <status>\0<path>\0`. With
 * `--cached`, the destination is the index, so its oid is the staged blob
 * (all zeros for a deletion), and the source is HEAD (all zeros for an addition).
 * @see https://git-scm.com/docs/git-diff#_raw_output_format
 */
import { GitOutputError } from "./parse-name-status.js";

export interface RawDiffEntry {
  path: string;
  /** A, C, D, M, R, T, U or X. */
  status: string;
  /** The destination blob (the staged content with --cached), null for deletions. */
  oid: string | null;
  /** The source blob (HEAD's content with --cached), null for additions. */
  headOid: string | null;
  /** The destination mode ("100644", "100755", "120000", "160000", or "000000" when deleted). */
  mode: string;
}

const HEADER = /^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{40,64}) ([0-9a-f]{40,64}) ([ACDMRTUX])\d*$/;

export function parseDiffRawZ(out: string): RawDiffEntry[] {
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  if (parts.length % 2 !== 0) throw new GitOutputError(`diff --raw -z output has an entry without a path (${parts.length} fields)`);
  const entries: RawDiffEntry[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const m = HEADER.exec(parts[i]!);
    if (m === null) throw new GitOutputError(`diff --raw header ${JSON.stringify(parts[i])}`);
    const status = m[5]!;
    entries.push({
      path: parts[i + 1]!,
      status,
      oid: status === "D" || /^0+$/.test(m[4]!) ? null : m[4]!,
      headOid: status === "A" || /^0+$/.test(m[3]!) ? null : m[3]!,
      mode: m[2]!,
    });
  }
  return entries;
}
