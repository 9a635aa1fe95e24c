/**
 * Git as the change oracle for the work tree, in one process:
 * `git ls-files -z -t -s -c -o -m -d --exclude-standard` lists every index
 * entry with its blob id, marks the ones whose work-tree file differs
 * (`-m`: git compares content when stat data differ) or is gone (`-d`), and
 * lists untracked files that are not ignored (`-o`).
 */
import { execGitBuffer } from "./exec-git.js";
import { execGitAsync } from "./exec-git-async.js";
import { chunkPaths, literalPathspec } from "./chunk-paths.js";
import { parseLsFilesTagged, type WorktreeEntry } from "./parse-ls-files.js";

export type { WorktreeEntry } from "./parse-ls-files.js";

const ARGS = ["ls-files", "-z", "-t", "-s", "-c", "-o", "-m", "-d", "--exclude-standard"];

/** Status of every file git knows (tracked or untracked-not-ignored), or only of `paths` when given. */
export function readWorktreeStatus(root: string, paths?: readonly string[]): Map<string, WorktreeEntry> {
  if (paths === undefined) return parseLsFilesTagged(execGitBuffer([...ARGS, "--"], { cwd: root }).toString("utf8"));
  const map = new Map<string, WorktreeEntry>();
  for (const chunk of chunkPaths(paths.map(literalPathspec))) {
    for (const [k, v] of parseLsFilesTagged(execGitBuffer([...ARGS, "--", ...chunk], { cwd: root }).toString("utf8"))) map.set(k, v);
  }
  return map;
}

/** The same, without blocking the thread (git runs on another core while the caller loads the cache). */
export async function readWorktreeStatusAsync(root: string, paths?: readonly string[]): Promise<Map<string, WorktreeEntry>> {
  if (paths === undefined) return parseLsFilesTagged((await execGitAsync([...ARGS, "--"], { cwd: root })).toString("utf8"));
  const map = new Map<string, WorktreeEntry>();
  for (const chunk of chunkPaths(paths.map(literalPathspec))) {
    for (const [k, v] of parseLsFilesTagged((await execGitAsync([...ARGS, "--", ...chunk], { cwd: root })).toString("utf8"))) map.set(k, v);
  }
  return map;
}

