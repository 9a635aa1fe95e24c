/**
 * Unified diffs and numstat between a commit and the work tree, restricted to
 * an explicit file set. Paths go to git as literal pathspecs in argv-sized
 * chunks; optional exclude globs become `:(exclude,glob)` pathspecs. The
 * output is independent of the user's diff configuration (prefixes, colour,
 * external drivers, textconv).
 */
import { execGit } from "./exec-git.js";
import { chunkPaths, excludePathspec, literalPathspec, DEFAULT_CHUNK_CHARS } from "./chunk-paths.js";
import { parseNumstatZ, type NumstatEntry } from "./parse-numstat.js";

export interface DiffOptions {
  /** Globs to exclude (git pathspec glob semantics). */
  exclude?: readonly string[];
  /** Argv budget per git call (characters of paths). */
  chunkChars?: number;
}

const COMMON = ["--no-ext-diff", "--no-textconv", "--no-color", "--find-renames", "--src-prefix=a/", "--dst-prefix=b/", "--ignore-submodules=none"];

function pathspecChunks(paths: readonly string[], options: DiffOptions): string[][] {
  const excludes = (options.exclude ?? []).map(excludePathspec);
  const excludeChars = excludes.reduce((n, e) => n + e.length + 1, 0);
  const budget = Math.max(1_000, (options.chunkChars ?? DEFAULT_CHUNK_CHARS) - excludeChars);
  return chunkPaths(paths.map(literalPathspec), budget).map((c) => [...c, ...excludes]);
}

/** `git diff <commit> -- <paths>`: the unified diff of those paths (work tree vs commit). */
export function diffPatch(root: string, commit: string, paths: readonly string[], options: DiffOptions = {}): string {
  if (paths.length === 0) return "";
  let out = "";
  for (const chunk of pathspecChunks(paths, options)) {
    out += execGit(["diff", ...COMMON, commit, "--", ...chunk], { cwd: root });
  }
  return out;
}

/** `git diff --numstat -z <commit> -- <paths>`: per-file counts; binary files (git's own detection) flagged. */
export function diffNumstat(root: string, commit: string, paths: readonly string[], options: DiffOptions = {}): NumstatEntry[] {
  if (paths.length === 0) return [];
  const entries: NumstatEntry[] = [];
  for (const chunk of pathspecChunks(paths, options)) {
    entries.push(...parseNumstatZ(execGit(["diff", "--numstat", "-z", ...COMMON, commit, "--", ...chunk], { cwd: root })));
  }
  return entries;
}
