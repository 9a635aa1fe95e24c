/**
 * Git's view of the work tree as flat arrays in index order, for callers that
 * walk every file (the warm path over a whole repository): one decode of
 * `ls-files -z -t -s -c`, one path string per entry, object ids left in place
 * (offsets into the decoded text), work-tree differences and conflicts as flag
 * bits. `listingStatus` turns it into the per-path records of
 * `readWorktreeStatus`.
 *
 * Lines are `<tag> <mode> <object> <stage>\t<path>\0`: git prints the mode as
 * six octal digits and the object id in full, so every field but the path
 * sits at a fixed offset.
 */
import { isAscii } from "node:buffer";
import { compareUtf8 } from "./compare-utf8.js";
import type { WorktreeEntry } from "./parse-ls-files.js";
import { GitOutputError, parseNameStatusZ } from "./parse-name-status.js";

/** Stage-0 entry of a regular file (mode 100644 or 100755). */
export const REGULAR = 1;
/** Conflict stages (1–3) present. */
export const UNMERGED = 2;
/** Marked skip-worktree (sparse checkout). */
export const SKIP_WORKTREE = 4;
/** The work-tree file differs from the index (stat data, as `git status` compares). */
export const MODIFIED = 8;
/** Tracked but missing from the work tree. */
export const DELETED = 16;

export interface WorktreeListing {
  /** The decoded `ls-files` output that `blobAt` points into. */
  text: string;
  /** Tracked paths in index order, each once (conflict stages folded). */
  paths: string[];
  /** Offset in `text` of each path's stage-0 object id, or -1. */
  blobAt: Int32Array;
  /** Hex characters of an object id: 40, or 64 in SHA-256 repositories. */
  blobLength: number;
  /** Index mode of stage 0 (e.g. 0o100644), or 0. */
  modes: Int32Array;
  /** Bits: REGULAR, UNMERGED, SKIP_WORKTREE, MODIFIED, DELETED. */
  flags: Uint8Array;
  /** Untracked files git does not ignore. */
  untracked: string[];
  /** Every tracked path is ASCII (then JavaScript's `<` is git's order). */
  ascii: boolean;
}

const SPACE = 32;
const TAB = 9;

function decode(out: Buffer | string): { text: string; ascii: boolean } {
  if (typeof out === "string") return { text: out, ascii: !/[^\x00-\x7f]/.test(out) };
  const ascii = isAscii(out);
  return { text: out.toString(ascii ? "latin1" : "utf8"), ascii };
}

/** Flag bits of an ls-files tag, or -1 for a tag git does not print. */
function tagBits(tag: number): number {
  switch (tag) {
    case 72: // H
    case 104:
    case 85: // U
    case 117:
    case 75: // K
    case 107:
      return 0;
    case 83: // S
    case 115:
      return SKIP_WORKTREE;
    case 77: // M
    case 109:
      return UNMERGED;
    case 67: // C
    case 99:
      return MODIFIED;
    case 82: // R
    case 114:
      return DELETED;
    default:
      return -1;
  }
}

function tagFlags(tag: number, text: string, start: number, end: number): number {
  const bits = tagBits(tag);
  if (bits < 0) throw new GitOutputError(`unknown ls-files tag in ${JSON.stringify(text.slice(start, end))}`);
  return bits;
}

/** Parse `ls-files -z -t -s -c` into index-order arrays (no work-tree differences or untracked files yet: `addWorktreeState`). */
export function parseIndexListing(out: Buffer | string): WorktreeListing {
  const { text, ascii } = decode(out);
  const len = text.length;
  const paths: string[] = [];
  let cap = 1024;
  let blobAt = new Int32Array(cap);
  let modes = new Int32Array(cap);
  let flags = new Uint8Array(cap);
  let blobLength = 0;
  let prev = "";
  let start = 0;
  while (start < len) {
    let end = text.indexOf("\0", start);
    if (end < 0) end = len;
    if (blobLength === 0) {
      const sp = text.indexOf(" ", start + 9);
      blobLength = sp - (start + 9);
      if (blobLength !== 40 && blobLength !== 64) throw new GitOutputError(`bad ls-files line ${JSON.stringify(text.slice(start, end))}`);
    }
    const objectAt = start + 9;
    const stageAt = objectAt + blobLength + 1;
    const pathAt = stageAt + 2;
    if (
      pathAt > end ||
      text.charCodeAt(start + 1) !== SPACE ||
      text.charCodeAt(start + 8) !== SPACE ||
      text.charCodeAt(stageAt - 1) !== SPACE ||
      text.charCodeAt(stageAt + 1) !== TAB
    ) {
      throw new GitOutputError(`bad ls-files line ${JSON.stringify(text.slice(start, end))}`);
    }
    let mode = 0;
    for (let i = start + 2; i < start + 8; i++) {
      const d = text.charCodeAt(i) - 48;
      if (d < 0 || d > 7) throw new GitOutputError(`bad ls-files mode in ${JSON.stringify(text.slice(start, end))}`);
      mode = mode * 8 + d;
    }
    let k: number;
    if (end - pathAt === prev.length && text.startsWith(prev, pathAt) && paths.length > 0) {
      k = paths.length - 1; // another stage of the same path
    } else {
      k = paths.length;
      if (k === cap) {
        cap *= 2;
        const b = new Int32Array(cap);
        b.set(blobAt);
        blobAt = b;
        const m = new Int32Array(cap);
        m.set(modes);
        modes = m;
        const f = new Uint8Array(cap);
        f.set(flags);
        flags = f;
      }
      prev = text.slice(pathAt, end);
      paths.push(prev);
      blobAt[k] = -1;
    }
    let f = flags[k]! | tagFlags(text.charCodeAt(start), text, start, end);
    if (text.charCodeAt(stageAt) === 48) {
      blobAt[k] = objectAt;
      modes[k] = mode;
      if (mode === 0o100644 || mode === 0o100755) f |= REGULAR;
    } else {
      f |= UNMERGED;
    }
    flags[k] = f;
    start = end + 1;
  }
  const n = paths.length;
  return {
    text,
    paths,
    blobAt: blobAt.subarray(0, n),
    blobLength: blobLength || 40,
    modes: modes.subarray(0, n),
    flags: flags.subarray(0, n),
    untracked: [],
    ascii,
  };
}

/** Hex characters of the object ids in an `ls-files -s` output (40, or 64 in SHA-256 repositories; 40 when empty). */
export function indexOidLength(out: Buffer): number {
  if (out.length === 0) return 40;
  const n = out.indexOf(SPACE, 9) - 9;
  if (n !== 40 && n !== 64) throw new GitOutputError(`bad ls-files line ${JSON.stringify(out.toString("utf8", 0, Math.min(out.length, 120)))}`);
  return n;
}

/** One line of `ls-files -z -t -s -c` output, read in place. */
export interface IndexLine {
  path: string;
  /** REGULAR, UNMERGED, SKIP_WORKTREE, MODIFIED, DELETED as the line tells. */
  flags: number;
  /** Index mode (e.g. 0o100644). */
  mode: number;
  /** Byte offset of the object id. */
  oidAt: number;
  /** Offset of the next line. */
  next: number;
}

/** Read the line at byte `start` (`utf8`: decode the path as UTF-8, else latin1, which equals it for ASCII). */
export function readIndexLine(out: Buffer, start: number, oidLength: number, utf8: boolean): IndexLine {
  let end = out.indexOf(0, start);
  if (end < 0) end = out.length;
  const oidAt = start + 9;
  const stageAt = oidAt + oidLength + 1;
  const pathAt = stageAt + 2;
  if (pathAt > end || out[start + 1] !== SPACE || out[start + 8] !== SPACE || out[stageAt - 1] !== SPACE || out[stageAt + 1] !== TAB) {
    throw new GitOutputError(`bad ls-files line ${JSON.stringify(out.toString("utf8", start, end))}`);
  }
  let mode = 0;
  for (let i = start + 2; i < start + 8; i++) {
    const d = out[i]! - 48;
    if (d < 0 || d > 7) throw new GitOutputError(`bad ls-files mode in ${JSON.stringify(out.toString("utf8", start, end))}`);
    mode = mode * 8 + d;
  }
  let flags = tagBits(out[start]!);
  if (flags < 0) throw new GitOutputError(`unknown ls-files tag in ${JSON.stringify(out.toString("utf8", start, end))}`);
  if (out[stageAt] === 48) {
    if (mode === 0o100644 || mode === 0o100755) flags |= REGULAR;
  } else {
    flags |= UNMERGED;
  }
  return { path: out.toString(utf8 ? "utf8" : "latin1", pathAt, end), flags, mode, oidAt, next: end + 1 };
}

/** The record of the tracked file a line describes. */
export function indexLineEntry(out: Buffer, line: IndexLine, oidLength: number): WorktreeEntry {
  const blob = (line.flags & UNMERGED) === 0 ? out.toString("latin1", line.oidAt, line.oidAt + oidLength) : null;
  return {
    path: line.path,
    tracked: true,
    blob,
    mode: blob !== null ? line.mode.toString(8).padStart(6, "0") : null,
    modified: (line.flags & MODIFIED) !== 0,
    deleted: (line.flags & DELETED) !== 0,
    unmerged: (line.flags & UNMERGED) !== 0,
    skipWorktree: (line.flags & SKIP_WORKTREE) !== 0,
  };
}

/** Position of `path` among the listing's paths, or -1 (binary search in git's order, then a scan if that order does not hold). */
export function listingIndexOf(l: Pick<WorktreeListing, "paths" | "ascii">, path: string, compare: (a: string, b: string) => number): number {
  let lo = 0;
  let hi = l.paths.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compare(l.paths[mid]!, path);
    if (c === 0) return mid;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return l.paths.indexOf(path);
}

/** Add `diff-files -z --name-status` differences and `ls-files -z -o` untracked files to an index listing. */
export function addWorktreeState(l: WorktreeListing, dirtyOut: string, othersOut: string): WorktreeListing {
  for (const d of parseNameStatusZ(dirtyOut)) {
    const k = listingIndexOf(l, d.path, compareUtf8);
    if (k < 0) continue;
    let f = l.flags[k]! | MODIFIED;
    if (d.status === "D") f |= DELETED;
    else if (d.status === "U") f |= UNMERGED;
    l.flags[k] = f;
  }
  const untracked = othersOut.length > 0 ? othersOut.split("\0") : [];
  if (untracked[untracked.length - 1] === "") untracked.pop();
  l.untracked = untracked;
  return l;
}

/** Fold git's three outputs into a listing: index entries, `diff-files` differences, untracked files. */
export function parseWorktreeListing(indexOut: Buffer | string, dirtyOut: string, othersOut: string): WorktreeListing {
  return addWorktreeState(parseIndexListing(indexOut), dirtyOut, othersOut);
}

/** The object id of entry `k`, or null. */
export function listingBlob(l: WorktreeListing, k: number): string | null {
  const at = l.blobAt[k]!;
  return at < 0 ? null : l.text.slice(at, at + l.blobLength);
}

/** The record of tracked entry `k`. */
export function listingEntry(l: WorktreeListing, k: number): WorktreeEntry {
  const f = l.flags[k]!;
  const mode = l.modes[k]!;
  const blob = listingBlob(l, k);
  return {
    path: l.paths[k]!,
    tracked: true,
    blob,
    mode: blob !== null ? mode.toString(8).padStart(6, "0") : null,
    modified: (f & MODIFIED) !== 0,
    deleted: (f & DELETED) !== 0,
    unmerged: (f & UNMERGED) !== 0,
    skipWorktree: (f & SKIP_WORKTREE) !== 0,
  };
}

/** The record of an untracked file. */
export function untrackedEntry(path: string): WorktreeEntry {
  return { path, tracked: false, blob: null, mode: null, modified: false, deleted: false, unmerged: false, skipWorktree: false };
}

/** Every file of the listing as a per-path record (tracked first, in index order, then untracked). */
export function listingStatus(l: WorktreeListing): Map<string, WorktreeEntry> {
  const map = new Map<string, WorktreeEntry>();
  for (let k = 0; k < l.paths.length; k++) map.set(l.paths[k]!, listingEntry(l, k));
  for (const p of l.untracked) if (!map.has(p)) map.set(p, untrackedEntry(p));
  return map;
}
