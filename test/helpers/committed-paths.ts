/**
 * Which committed files, in any commit of a repository, hold `text` (`<commit>:<path>`): the
 * check that nothing we commit names a local path (docs/noma-decisions.md, `doc_uri`).
 */
import { spawnSync } from "node:child_process";

export function committedFilesHolding(repo: string, text: string): string[] {
  const revs = spawnSync("git", ["rev-list", "--all"], { cwd: repo, encoding: "utf8" });
  if (revs.status !== 0) throw new Error(`git rev-list failed: ${revs.stderr}`);
  const commits = revs.stdout.split("\n").filter((l) => l !== "");
  if (commits.length === 0) throw new Error(`${repo} has no commits`);
  // -I would skip binary files: a path in a binary file counts too. -l: file names; exit 1: no match.
  const r = spawnSync("git", ["grep", "-l", "-F", "-a", "-e", text, ...commits], { cwd: repo, encoding: "utf8" });
  if (r.status !== 0 && r.status !== 1) throw new Error(`git grep failed: ${r.stderr}`);
  return r.stdout.split("\n").filter((l) => l !== "");
}
