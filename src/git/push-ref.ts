/** `git push REMOTE COMMIT:refs/heads/BRANCH` (forced when asked): the run loop's CI mode publishing a run's commit. Hooks off. */
import { execGit } from "./exec-git.js";
import { NO_HOOKS } from "./worktree-commands.js";

export function pushCommit(root: string, remote: string, commit: string, branch: string, options: { force: boolean }): void {
  execGit([...NO_HOOKS, "push", "--quiet", "--no-verify", ...(options.force ? ["--force"] : []), "--", remote, `${commit}:refs/heads/${branch}`], {
    cwd: root,
  });
}
