/**
 * A throwaway repository the product builds for itself (the demo): created on a branch
 * with a fixed identity, no signing and no hooks, committed at a fixed date, so that
 * what it holds is the same on every machine.
 */
import { execGit } from "./exec-git.js";

export class ScratchRepository {
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    readonly dir: string,
    /** Author and committer date of every commit (ISO 8601). */
    date: string,
  ) {
    this.env = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  }

  private git(args: string[]): string {
    return execGit(args, { cwd: this.dir, env: this.env });
  }

  /** `git init` on `branch`, with `name` and `email` as the identity and hooks switched off. */
  init(branch: string, name: string, email: string): void {
    this.git(["init", "-q", "-b", branch]);
    for (const [k, v] of [
      ["user.name", name],
      ["user.email", email],
      ["commit.gpgsign", "false"],
      ["core.hooksPath", ".git/no-hooks"],
    ] as const)
      this.git(["config", k, v]);
  }

  /** Stage everything and commit it. */
  commitAll(message: string): void {
    this.git(["add", "-A"]);
    this.git(["commit", "-q", "--no-verify", "-m", message]);
  }

  /** Create `branch` at HEAD and switch to it. */
  branch(name: string): void {
    this.git(["checkout", "-q", "-b", name]);
  }
}
