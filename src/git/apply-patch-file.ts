/**
 * `git apply` of a patch file to the work tree (the run loop's act step): the paths it
 * touches, whether it applies, and applying it. Git failures throw GitError (its stderr
 * says why).
 */
import { execGit } from "./exec-git.js";

/** Paths of `git apply --numstat -z` output: "added\tdeleted\tpath\0", or for a rename or copy "added\tdeleted\t\0old\0new\0" (pure). */
export function parseApplyNumstatZ(out: string): string[] {
  const parts = out.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length === 0) continue;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(p);
    if (m === null) continue;
    if (m[3]!.length > 0) paths.push(m[3]!);
    else {
      if (parts[i + 1] !== undefined) paths.push(parts[i + 1]!);
      if (parts[i + 2] !== undefined) paths.push(parts[i + 2]!);
      i += 2;
    }
  }
  return paths;
}

/** Every path the patch at `patchPath` touches (both names of a rename). */
export function patchFilePaths(root: string, patchPath: string): string[] {
  return parseApplyNumstatZ(execGit(["apply", "--numstat", "-z", patchPath], { cwd: root }));
}

/** Throws GitError unless the patch applies to the work tree as it is. */
export function checkPatchFile(root: string, patchPath: string): void {
  execGit(["apply", "--check", patchPath], { cwd: root });
}

export function applyPatchFile(root: string, patchPath: string): void {
  execGit(["apply", patchPath], { cwd: root });
}
