/**
 * What a commit will change: the staged paths, from the index git is using
 * (a hook's temporary GIT_INDEX_FILE included), relative to the top level
 * whatever the working directory. Added, copied, modified, renamed (new side)
 * and deleted paths.
 * @see https://git-scm.com/docs/git-diff#Documentation/git-diff.txt---diff-filterACDMRTUXB82308203
 */
import { execGit, splitNul } from "../git/exec-git.js";

export function listStagedFiles(cwd: string): string[] {
  return splitNul(execGit(["diff", "--cached", "--name-only", "-z", "--diff-filter=ACMRD", "--no-renames"], { cwd }));
}
