/**
 * Everything `diff --spec` needs from git about a branch, from one pass over the work tree:
 *
 *   git diff --raw --numstat -p -z --no-abbrev --find-renames … <merge-base> --
 *
 * The raw records give what changed (statuses, both sides of renames, as `--name-status`
 * does) and, per changed path, the object id of its work-tree content when git knows it
 * (the index blob for a file whose stat data matches the index, or one git computed from
 * the file; all zeros when it did not): the facts `diff-files` would give, without a
 * second scan. The
 * numstat records flag binary files (git's own detection); the patch holds every changed
 * file's diff, split here into sections and matched to the raw records in order.
 *
 * One pass instead of one per question: with a pathspec naming each file, git matches every
 * index entry against every path (on a large index, more than scanning everything:
 * docs/perf/reconcile.md), and each call stats the work tree again.
 */
import { execGitAsync } from "./exec-git-async.js";
import { GitOutputError, type ChangeStatus, type NameStatusEntry } from "./parse-name-status.js";
import type { NumstatEntry } from "./parse-numstat.js";

export interface RawEntry extends NameStatusEntry {
  oldMode: string;
  newMode: string;
  oldBlob: string;
  /** Object id of the new side's content, or all zeros when git did not compute it (the work-tree file differs from the index, or is gone). */
  newBlob: string;
}

export interface BranchDiff {
  raw: RawEntry[];
  numstat: NumstatEntry[];
  /**
   * The patch of each raw record, by index (a change between a file and a symlink is two
   * sections, deletion then creation, as git prints it). Null when the sections could not
   * be matched to the records with certainty: callers then ask git per path.
   */
  patches: string[] | null;
  /** git skipped (part of) rename detection for lack of its rename limit: renames then depend on the paths compared. */
  renameLimited: boolean;
}

/** Options of every diff whose output users read (independent of their diff configuration). */
export const DIFF_COMMON = ["--no-ext-diff", "--no-textconv", "--no-color", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", "--ignore-submodules=none"];

const STATUSES = new Set(["A", "C", "D", "M", "R", "T", "U", "X"]);
const ZERO = /^0+$/;

/** Start the diff of the work tree against `commit` (one git process). */
export function startBranchDiff(root: string, commit: string, signal?: AbortSignal): Promise<BranchDiff> {
  let stderr = "";
  const out = execGitAsync(["diff", "--raw", "--numstat", "-p", "-z", "--no-abbrev", ...DIFF_COMMON, commit, "--"], {
    cwd: root,
    ...(signal !== undefined ? { signal } : {}),
    onStderr: (t) => (stderr += t),
  });
  return out.then((buf) => parseBranchDiff(buf.toString("utf8"), /rename detection was skipped|renameLimit/.test(stderr)));
}

/** Pure: parse the output of `git diff --raw --numstat -p -z --no-abbrev`. */
export function parseBranchDiff(out: string, renameLimited = false): BranchDiff {
  const raw: RawEntry[] = [];
  let i = 0;
  const field = (): string => {
    const end = out.indexOf("\0", i);
    if (end < 0) throw new GitOutputError("truncated diff --raw -z record");
    const s = out.slice(i, end);
    i = end + 1;
    return s;
  };
  // ":<old mode> <new mode> <old id> <new id> <status>\0<path>\0[<new path>\0]"
  while (i < out.length && out.charCodeAt(i) === 58) {
    const head = field();
    const m = /^:(\d{6}) (\d{6}) ([0-9a-f]+) ([0-9a-f]+) ([A-Z])(\d*)$/.exec(head);
    if (m === null || !STATUSES.has(m[5]!)) throw new GitOutputError(`bad diff --raw record ${JSON.stringify(head)}`);
    const status = m[5] as ChangeStatus;
    const e: RawEntry = { status, path: "", oldMode: m[1]!, newMode: m[2]!, oldBlob: m[3]!, newBlob: m[4]! };
    if (status === "R" || status === "C") {
      e.oldPath = field();
      e.path = field();
    } else {
      e.path = field();
    }
    raw.push(e);
  }
  // "<added>\t<deleted>\t<path>\0", or "<added>\t<deleted>\t\0<old>\0<new>\0" for a rename.
  const numstat: NumstatEntry[] = [];
  while (i < out.length && isNumstatStart(out.charCodeAt(i))) {
    const head = field();
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(head);
    if (m === null) throw new GitOutputError(`bad numstat entry ${JSON.stringify(head)}`);
    const binary = m[1] === "-" && m[2] === "-";
    const entry: NumstatEntry = { path: m[3]!, binary, added: binary ? 0 : Number(m[1]), deleted: binary ? 0 : Number(m[2]) };
    if (m[3] === "") {
      entry.oldPath = field();
      entry.path = field();
    }
    numstat.push(entry);
  }
  if (out.charCodeAt(i) === 0) i++;
  const patches = matchSections(raw, splitSections(out.slice(i)));
  return { raw, numstat, patches, renameLimited };
}

function isNumstatStart(c: number): boolean {
  return c === 45 || (c >= 48 && c <= 57);
}

/** The patch cut before every line that starts a file's section. */
export function splitSections(patch: string): string[] {
  const starts: number[] = [];
  let at = 0;
  while (at < patch.length) {
    if (patch.startsWith("diff --git ", at) || patch.startsWith("diff --cc ", at) || patch.startsWith("* Unmerged path ", at)) starts.push(at);
    const nl = patch.indexOf("\n", at);
    if (nl < 0) break;
    at = nl + 1;
  }
  const out: string[] = [];
  for (let k = 0; k < starts.length; k++) out.push(patch.slice(starts[k], starts[k + 1] ?? patch.length));
  if (starts.length > 0 ? starts[0] !== 0 : patch.length > 0) return [""]; // text before the first section: unexpected (no match below)
  return out;
}

/** git prints a change between kinds of entry (file, symlink, submodule) as a deletion and a creation. */
function sectionCount(e: RawEntry): number {
  const kind = (mode: string): number => parseInt(mode, 8) & 0o170000;
  return e.oldMode !== "000000" && e.newMode !== "000000" && kind(e.oldMode) !== kind(e.newMode) ? 2 : 1;
}

/** A path git writes in a diff header as it is (no C quoting). */
function plain(path: string): boolean {
  for (let k = 0; k < path.length; k++) {
    const c = path.charCodeAt(k);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

function matchSections(raw: readonly RawEntry[], sections: readonly string[]): string[] | null {
  const out: string[] = [];
  let s = 0;
  for (const e of raw) {
    const n = sectionCount(e);
    if (s + n > sections.length) return null;
    const from = e.oldPath ?? e.path;
    const header = `diff --git a/${from} b/${e.path}\n`;
    let text = "";
    for (let k = 0; k < n; k++) {
      const section = sections[s++]!;
      // A path written as it is must head its section; a quoted one is matched by position alone.
      if (plain(from) && plain(e.path) && !section.startsWith(header)) return null;
      text += section;
    }
    out.push(text);
  }
  return s === sections.length ? out : null;
}

/** Whether an object id is git's "not computed" (all zeros). */
export function isNullObject(id: string): boolean {
  return ZERO.test(id);
}
