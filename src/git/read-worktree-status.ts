/**
 * Git as the change oracle for the work tree: every index entry (mode, blob id,
 * stage, skip-worktree), the entries whose work-tree file differs, the untracked
 * files git does not ignore.
 *
 *   git ls-files -z -t -s -c            every index entry
 *   git diff-files -z --name-status     index entries whose work-tree file differs (M, T),
 *                                       is gone (D) or is unmerged (U)
 *   git ls-files -z -o --exclude-standard   untracked files git does not ignore
 *
 * The synchronous reader runs git one process after another, so it asks the
 * first and the third in one process (`ls-files -z -t -s -c -o --exclude-standard`,
 * split back byte for byte: split-combined-listing.ts): two processes, and so
 * does `startCombinedWorktreeListing` (the run loop's drift questions, where CPU
 * counts, not latency). `startWorktreeListing` and `readWorktreeStatusAsync` keep
 * three, run concurrently: the index listing arrives before git has walked the
 * work tree for untracked files, and the caller's work on it (`changed`'s warm
 * path) runs beside that walk (docs/perf/run.md).
 *
 * `diff-files` compares stat data with the index (in parallel threads, as
 * `git status` does) without refreshing it, so a file whose timestamps changed
 * but whose content did not can be reported as modified: callers then hash it
 * (a stat signature makes that cheap the next time). A file reported clean has
 * exactly its index blob's content (git checks racily-clean entries by content).
 * Nothing here writes the index.
 */
import { execGitBuffer } from "./exec-git.js";
import { execGitAsync } from "./exec-git-async.js";
import { readIndexListing } from "./read-index-listing.js";
import { chunkPaths, literalPathspec } from "./chunk-paths.js";
import type { WorktreeEntry } from "./parse-ls-files.js";
import { listingStatus, parseWorktreeListing } from "./worktree-listing.js";
import { COMBINED_LISTING, splitCombinedListing } from "./split-combined-listing.js";

export type { WorktreeEntry } from "./parse-ls-files.js";

const INDEX = ["ls-files", "-z", "-t", "-s", "-c"];
const DIRTY = ["diff-files", "-z", "--name-status", "--no-renames", "--ignore-submodules=none"];
const OTHERS = ["ls-files", "-z", "-o", "--exclude-standard"];

/** Above this many chunks, one full listing (filtered) beats one git call per chunk (each scans the whole index). */
const MAX_CHUNKS = 4;

/** Pure: fold the three outputs into one record per path. */
export function foldWorktreeStatus(indexOut: string | Buffer, dirtyOut: string, othersOut: string): Map<string, WorktreeEntry> {
  return listingStatus(parseWorktreeListing(indexOut, dirtyOut, othersOut));
}

function only(map: Map<string, WorktreeEntry>, paths: readonly string[]): Map<string, WorktreeEntry> {
  const out = new Map<string, WorktreeEntry>();
  for (const p of paths) {
    const e = map.get(p);
    if (e !== undefined) out.set(p, e);
  }
  return out;
}

/** Status of every file git knows (tracked or untracked-not-ignored), or only of `paths` when given. */
export function readWorktreeStatus(root: string, paths?: readonly string[]): Map<string, WorktreeEntry> {
  const run = (args: string[], spec: readonly string[]): Buffer => execGitBuffer([...args, "--", ...spec], { cwd: root });
  const fold = (spec: readonly string[]) => {
    const { indexOut, othersOut } = splitCombinedListing(run(COMBINED_LISTING, spec));
    return foldWorktreeStatus(indexOut, run(DIRTY, spec).toString("utf8"), othersOut);
  };
  if (paths === undefined) return fold([]);
  const chunks = chunkPaths(paths.map(literalPathspec));
  if (chunks.length > MAX_CHUNKS) return only(readWorktreeStatus(root), paths);
  const map = new Map<string, WorktreeEntry>();
  for (const chunk of chunks) for (const [k, v] of fold(chunk)) map.set(k, v);
  return map;
}

/** Git's three outputs, each as soon as its process is done. */
export interface WorktreeListingJob {
  /** `ls-files -z -t -s -c`: every index entry (the big output, and the quickest). */
  indexOut: Promise<Buffer>;
  /** `diff-files -z --name-status`: entries whose work-tree file differs. */
  dirtyOut: Promise<string>;
  /** `ls-files -z -o --exclude-standard`: untracked files. */
  othersOut: Promise<string>;
}

/**
 * Start the three listings at once, without blocking: git's processes run beside the caller's work.
 * The index listing is read from the index file in process where that gives git's bytes exactly
 * (read-index-listing.ts: one process and 100,000 printed lines fewer in a large repository).
 */
export function startWorktreeListing(root: string): WorktreeListingJob {
  const run = (args: string[]): Promise<Buffer> => execGitAsync([...args, "--"], { cwd: root });
  const dirtyOut = run(DIRTY).then((b) => b.toString("utf8"));
  const othersOut = run(OTHERS).then((b) => b.toString("utf8"));
  const inProcess = readIndexListing(root);
  const indexOut = inProcess !== null ? Promise.resolve(inProcess) : run(INDEX);
  for (const p of [indexOut, dirtyOut, othersOut]) p.catch(() => undefined); // awaited by the caller
  return { indexOut, dirtyOut, othersOut };
}

/**
 * The same three outputs from two git processes (index and untracked files in one), started at
 * once: one process fewer, but the index listing waits for git's walk for untracked files.
 */
export function startCombinedWorktreeListing(root: string): WorktreeListingJob {
  const run = (args: string[]): Promise<Buffer> => execGitAsync([...args, "--"], { cwd: root });
  const split = run(COMBINED_LISTING).then(splitCombinedListing);
  const indexOut = split.then((s) => s.indexOut);
  const dirtyOut = run(DIRTY).then((b) => b.toString("utf8"));
  const othersOut = split.then((s) => s.othersOut);
  for (const p of [indexOut, dirtyOut, othersOut]) p.catch(() => undefined); // awaited by the caller
  return { indexOut, dirtyOut, othersOut };
}

/** The same as `readWorktreeStatus`, without blocking the thread: the three git processes run concurrently (and beside the caller's work). */
export async function readWorktreeStatusAsync(root: string, paths?: readonly string[]): Promise<Map<string, WorktreeEntry>> {
  const run = async (args: string[], spec: readonly string[]): Promise<Buffer> => execGitAsync([...args, "--", ...spec], { cwd: root });
  const fold = async (spec: readonly string[]) => {
    const [a, b, c] = await Promise.all([run(INDEX, spec), run(DIRTY, spec), run(OTHERS, spec)]);
    return foldWorktreeStatus(a, b.toString("utf8"), c.toString("utf8"));
  };
  if (paths === undefined) return fold([]);
  const chunks = chunkPaths(paths.map(literalPathspec));
  if (chunks.length > MAX_CHUNKS) return only(await fold([]), paths);
  const map = new Map<string, WorktreeEntry>();
  for (const chunk of chunks) for (const [k, v] of await fold(chunk)) map.set(k, v);
  return map;
}
