/**
 * `git status --porcelain=v1` of the whole work tree — untracked files listed one by one,
 * submodules included — optionally leaving out some top-level paths (the run loop leaves
 * out its own .norma/). The argv is built here; the -z form is parsed here.
 */
import { execGit } from "./exec-git.js";

export interface WorktreeStatusQuery {
  /** Paths (from the top level) left out, as `:(exclude)` pathspecs. */
  exclude?: readonly string[];
  /** Untracked files: each listed (`all`, the default) or none (`no`). */
  untracked?: "all" | "no";
}

/** The argv (pure). `z`: NUL-terminated entries, for parsing. */
export function worktreeStatusArgv(query: WorktreeStatusQuery = {}, z = true): string[] {
  const exclude = (query.exclude ?? []).map((p) => `:(exclude)${p}`);
  return ["status", "--porcelain=v1", ...(z ? ["-z"] : []), `--untracked-files=${query.untracked ?? "all"}`, "--ignore-submodules=none", "--", ".", ...exclude];
}

/** Paths of `git status --porcelain=v1 -z` output: "XY path\0", renames and copies "XY new\0old\0". */
export function statusPaths(out: string): Array<{ code: string; path: string }> {
  const parts = out.split("\0");
  const entries: Array<{ code: string; path: string }> = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    const code = p.slice(0, 2);
    entries.push({ code, path: p.slice(3) });
    if (code.includes("R") || code.includes("C")) {
      const old = parts[i + 1];
      if (old !== undefined && old.length > 0) entries.push({ code, path: old });
      i += 1;
    }
  }
  return entries;
}

/** The status entries of the work tree (renames give both names). */
export function worktreeStatus(root: string, query: WorktreeStatusQuery = {}): Array<{ code: string; path: string }> {
  return statusPaths(execGit(worktreeStatusArgv(query), { cwd: root }));
}

/** The status as git prints it for people (one line per entry): a fingerprint of the work tree's state. */
export function worktreeStatusText(root: string, query: WorktreeStatusQuery = {}): string {
  return execGit(worktreeStatusArgv(query, false), { cwd: root });
}
