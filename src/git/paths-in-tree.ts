/**
 * Which of some paths a commit's tree holds: `git ls-tree` with literal
 * pathspecs, in argv-sized chunks. Reads the object database only.
 */
import { decodeGitText } from "./git-path.js";
import { chunkPaths, literalPathspec } from "./chunk-paths.js";
import { execGitBuffer, splitNul } from "./exec-git.js";

export function pathsInTree(root: string, commit: string, paths: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const chunk of chunkPaths(paths.map(literalPathspec))) {
    for (const p of splitNul(decodeGitText(execGitBuffer(["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", ...chunk], { cwd: root }))))
      out.add(p);
  }
  return out;
}

/** Every path under `dir` in a commit's tree (`dir` "" for all). */
export function listTree(root: string, commit: string, dir = ""): string[] {
  return splitNul(
    decodeGitText(
      execGitBuffer(["ls-tree", "-r", "-z", "--name-only", "--full-tree", commit, "--", ...(dir === "" ? [] : [literalPathspec(dir)])], { cwd: root }),
    ),
  );
}
