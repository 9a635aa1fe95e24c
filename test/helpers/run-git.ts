/**
 * git run synchronously in a test's repository, with the fixed commit dates every test repository
 * uses (so a commit made twice is the same commit). Re-exported by temp-repo.ts.
 */
import { execFileSync } from "node:child_process";

/** The author and committer date of every commit the tests' git makes. */
export const TEST_COMMIT_DATE = "2026-01-01T00:00:00Z";

export function git(cwd: string, args: string[], input?: string): string {
  return execFileSync("git", args, {
    cwd,
    input,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, GIT_AUTHOR_DATE: TEST_COMMIT_DATE, GIT_COMMITTER_DATE: TEST_COMMIT_DATE },
  });
}
