/**
 * What a commit will change: the staged entries, from the index git is using
 * (a hook's temporary GIT_INDEX_FILE included), with the staged blob of each,
 * relative to the top level whatever the working directory. Added, copied,
 * modified, renamed (as delete + add), type-changed and deleted paths. One git call, and the
 * only one that reads the index: every other staged read goes by blob id.
 * @see https://git-scm.com/docs/git-diff#Documentation/git-diff.txt---diff-filterACDMRTUXB82308203
 */
import { decodeGitText } from "./git-path.js";
import { execGitBuffer } from "./exec-git.js";
import { parseDiffRawZ, type RawDiffEntry } from "./parse-diff-raw.js";

/**
 * What a commit changes, as git is asked for it here and by the installed hook's filter
 * (hook-script.ts), which must see the same entries: renames as a deletion and an addition,
 * type changes (a file replaced by a symbolic link, or back) included.
 */
export const STAGED_DIFF_ARGS: readonly string[] = ["diff", "--cached", "--no-renames", "--diff-filter=ACMRDT"];

export function listStagedEntries(cwd: string): RawDiffEntry[] {
  return parseDiffRawZ(decodeGitText(execGitBuffer([...STAGED_DIFF_ARGS, "--raw", "-z", "--no-abbrev"], { cwd })));
}

/** The staged paths. */
export function listStagedFiles(cwd: string): string[] {
  return listStagedEntries(cwd).map((e) => e.path);
}
