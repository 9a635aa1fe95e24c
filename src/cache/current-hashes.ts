/**
 * The current BLAKE3 of governed files, doing as little I/O as possible:
 *
 *  - a tracked file that git reports clean (its work-tree bytes are the index
 *    blob's) takes its hash from the blob memo (blob id → BLAKE3): no stat, no
 *    read. A memo miss reads the file once, and the pair is remembered only if
 *    git's blob id of the bytes read equals the index blob id (so clean/smudge
 *    filters or a concurrent edit can never poison the memo);
 *  - every other file (untracked, modified, unmerged, symlinked, filtered) is
 *    stat'ed; a stat signature (size, mtime, ctime, inode) equal to the memo's
 *    gives the remembered hash, anything else is read and hashed. Signatures of
 *    files changed within the last `RACY_WINDOW_MS` are not remembered, so a
 *    file modified in the same clock tick as its record is always re-hashed.
 */
import { statSync, type BigIntStats } from "node:fs";
import { join, sep } from "node:path";
import type { WorktreeEntry } from "../git/parse-ls-files.js";
import { loadBlake3, type Blake3 } from "./blake3.js";
import type { StatRow } from "./cache-tables.js";
import { hashFile } from "./hash-file.js";

/** A stat signature recorded less than this long after the file's last change is not trusted. */
export const RACY_WINDOW_MS = 2_000;

export interface HashMemo {
  blobHashes: ReadonlyMap<string, string>;
  statHashes: ReadonlyMap<string, StatRow>;
}

export interface CurrentHashes {
  /** path → lowercase hex BLAKE3, or null when the file does not exist (or is not a regular file). */
  hashes: Map<string, string | null>;
  /** path → the index blob id its hash is known for (clean tracked files), for reconciliation records. */
  blobs: Map<string, string>;
  /** Memo rows learnt in this call (to persist). */
  newBlobHashes: Map<string, string>;
  newStatHashes: Map<string, StatRow>;
  /** Files actually read and hashed. */
  filesRead: number;
}

function sigMatches(s: BigIntStats, row: StatRow | undefined): boolean {
  return (
    row !== undefined && Number(s.size) === row.size && String(s.mtimeNs) === row.mtimeNs && String(s.ctimeNs) === row.ctimeNs && String(s.ino) === row.ino
  );
}

function statRow(st: BigIntStats, hash: string): StatRow {
  return { size: Number(st.size), mtimeNs: String(st.mtimeNs), ctimeNs: String(st.ctimeNs), ino: String(st.ino), hash };
}

function trustworthy(s: BigIntStats, nowMs: number, windowMs: number): boolean {
  // biome-ignore lint/complexity/useMathMinMax: bigints (Math.max takes numbers)
  const changedMs = Number((s.ctimeNs > s.mtimeNs ? s.ctimeNs : s.mtimeNs) / 1_000_000n);
  return nowMs - changedMs > windowMs;
}

function cleanBlob(e: WorktreeEntry | undefined): string | null {
  if (e === undefined || !e.tracked || e.blob === null || e.modified || e.deleted || e.unmerged || e.skipWorktree) return null;
  return e.mode === "100644" || e.mode === "100755" ? e.blob : null;
}

/** `root`/`path` for a repository-relative path; `join` (which normalizes) only for paths that need it. */
function absolutePath(root: string, path: string): string {
  const plain =
    path.length > 0 &&
    path.charCodeAt(0) !== 47 &&
    !path.includes("//") &&
    !path.includes("./") &&
    !path.includes("\\") &&
    !root.endsWith("/") &&
    !root.endsWith(sep);
  return plain ? `${root}${sep === "\\" ? "\\" : "/"}${path}` : join(root, path);
}

/** Blob ids git vouches for among `paths` (clean tracked regular files): the memo rows worth loading. */
export function cleanBlobIds(status: ReadonlyMap<string, WorktreeEntry>, paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const b = cleanBlob(status.get(p));
    if (b !== null) out.push(b);
  }
  return out;
}

/** Paths among `paths` that need a stat signature (everything git does not vouch for). */
export function statPaths(status: ReadonlyMap<string, WorktreeEntry>, paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const e = status.get(p);
    if (e?.deleted === true) continue;
    if (cleanBlob(e) === null) out.push(p);
  }
  return out;
}

/**
 * Hashes of `paths` (repository-relative) in `root`. `status` is git's view
 * (`readWorktreeStatus`); paths it does not list are treated as untracked.
 */
export async function currentHashes(
  root: string,
  paths: Iterable<string>,
  status: ReadonlyMap<string, WorktreeEntry>,
  memo: HashMemo,
  options: { racyWindowMs?: number } = {},
): Promise<CurrentHashes> {
  // Loaded on the first file read: a warm run answered by the memos never compiles the WebAssembly.
  let b3: Blake3 | undefined;
  const windowMs = options.racyWindowMs ?? RACY_WINDOW_MS;
  const out: CurrentHashes = { hashes: new Map(), blobs: new Map(), newBlobHashes: new Map(), newStatHashes: new Map(), filesRead: 0 };
  const now = Date.now();
  for (const path of paths) {
    if (out.hashes.has(path)) continue;
    const entry = status.get(path);
    if (entry?.deleted === true) {
      out.hashes.set(path, null);
      continue;
    }
    const abs = absolutePath(root, path);
    const blob = cleanBlob(entry);
    if (blob !== null) {
      const known = memo.blobHashes.get(blob) ?? out.newBlobHashes.get(blob);
      if (known !== undefined) {
        out.hashes.set(path, known);
        out.blobs.set(path, blob);
        continue;
      }
      const h = hashFile(abs, (b3 ??= await loadBlake3()), { blobAlgorithm: blob.length === 64 ? "sha256" : "sha1" });
      out.filesRead++;
      out.hashes.set(path, h?.blake3 ?? null);
      if (h !== null && h.blobId === blob) {
        out.newBlobHashes.set(blob, h.blake3);
        out.blobs.set(path, blob);
      } else if (h !== null) {
        // Filtered (clean/smudge, eol) or changed meanwhile: remember by stat signature instead.
        try {
          const st = statSync(abs, { bigint: true });
          if (trustworthy(st, now, windowMs)) out.newStatHashes.set(path, statRow(st, h.blake3));
        } catch {
          /* gone meanwhile */
        }
      }
      continue;
    }
    const row = memo.statHashes.get(path);
    if (row === undefined) {
      // Nothing remembered: the file is read whatever its signature, so open → fstat → read
      // (one path lookup; the signature is still taken before the bytes are read).
      const h = hashFile(abs, (b3 ??= await loadBlake3()), { stat: true });
      out.hashes.set(path, h?.blake3 ?? null);
      if (h === null) continue;
      out.filesRead++;
      if (trustworthy(h.stat!, now, windowMs)) out.newStatHashes.set(path, statRow(h.stat!, h.blake3));
      continue;
    }
    let st: BigIntStats;
    try {
      st = statSync(abs, { bigint: true });
    } catch {
      out.hashes.set(path, null);
      continue;
    }
    if (!st.isFile()) {
      out.hashes.set(path, null);
      continue;
    }
    if (sigMatches(st, row) && trustworthy(st, now, windowMs)) {
      out.hashes.set(path, row!.hash);
      continue;
    }
    const h = hashFile(abs, (b3 ??= await loadBlake3()));
    out.filesRead++;
    out.hashes.set(path, h?.blake3 ?? null);
    // The signature taken before reading: if the file changes during the read, its next signature differs.
    if (h !== null && trustworthy(st, now, windowMs)) out.newStatHashes.set(path, statRow(st, h.blake3));
  }
  return out;
}
