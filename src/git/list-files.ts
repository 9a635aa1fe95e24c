/**
 * `git ls-files` as the product asks it: NUL-separated, repository-relative paths of the
 * index, of the untracked files git does not ignore, or of both. The argv is built here
 * and nowhere else.
 */
import { decodeGitText } from "./git-path.js";
import { execGitAsync } from "./exec-git-async.js";
import { execGitBuffer, splitNul } from "./exec-git.js";

export interface ListFilesQuery {
  /** `no` (default): the index only; `also`: the index and untracked, not ignored files; `only`: untracked only. */
  untracked?: "no" | "also" | "only";
  /** Pathspecs (after `--`), as git reads them. */
  pathspecs?: readonly string[];
  /** Print paths from the top level (`--full-name`), wherever git runs. */
  fullName?: boolean;
}

/** The argv (pure). */
export function listFilesArgv(query: ListFilesQuery = {}): string[] {
  const untracked = query.untracked ?? "no";
  const sets = untracked === "only" ? ["--others", "--exclude-standard"] : untracked === "also" ? ["--cached", "--others", "--exclude-standard"] : ["--cached"];
  return ["ls-files", "-z", ...(query.fullName === true ? ["--full-name"] : []), ...sets, ...(query.pathspecs !== undefined ? ["--", ...query.pathspecs] : [])];
}

export function listFiles(root: string, query: ListFilesQuery = {}): string[] {
  return splitNul(decodeGitText(execGitBuffer(listFilesArgv(query), { cwd: root }))); // names that are not UTF-8 kept (git-path.ts)
}

export async function listFilesAsync(root: string, query: ListFilesQuery = {}): Promise<string[]> {
  return splitNul(decodeGitText(await execGitAsync(listFilesArgv(query), { cwd: root })));
}
