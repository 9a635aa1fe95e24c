/**
 * The bytes of a file as a commit holds it (`git show <rev>:<path>`). `rev` must have
 * passed assertSafeRef. Throws GitError when the commit or the path is not there (its
 * stderr says which).
 */
import { execGitBuffer } from "./exec-git.js";

export function blobAt(root: string, rev: string, path: string): Buffer {
  return execGitBuffer(["show", `${rev}:${path}`], { cwd: root });
}
