/**
 * Renames between two trees as git detects them (`git diff -M`, content
 * similarity), old path → new path. One git call.
 * @see https://git-scm.com/docs/git-diff#Documentation/git-diff.txt--Mltngt
 */
import { decodeGitText } from "./git-path.js";
import { execGitBuffer } from "./exec-git.js";
import { parseNameStatusZ } from "./parse-name-status.js";

/** `diffArgs`: what to compare, e.g. `[base, head]` or `["--cached"]` (HEAD → index). */
export function renameMap(cwd: string, diffArgs: readonly string[]): Map<string, string> {
  const out = decodeGitText(execGitBuffer(["diff", "-M", "--name-status", "-z", "--no-ext-diff", "--diff-filter=R", ...diffArgs, "--"], { cwd }));
  const map = new Map<string, string>();
  for (const e of parseNameStatusZ(out)) if (e.status === "R" && e.oldPath !== undefined) map.set(e.oldPath, e.path);
  return map;
}
