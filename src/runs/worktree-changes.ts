/**
 * What an agent changed in the work tree while its step ran: a fingerprint of
 * every path `git status` lists (tracked changes and untracked files, .norma/
 * left out) with its content hash, taken before and after the agent; the paths
 * whose entry or content differ are the step's changes. A do or act agent
 * changes files through the workspace tools (`mcp --step`); the loop records
 * the paths (`worktree_changed`), counts them against the budgets, and the next
 * check judges them.
 *
 * The workspace tools' own records — the evidence ledger and the archive
 * (`workspace.ledger`, `workspace.archive` of .notarai/config.yaml), written by
 * every request — are left out: they are evidence of the changes, not changes.
 */
import { createHash } from "node:crypto";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { execGit } from "../git/exec-git.js";

/** Repo-relative path → what it is now (status code and content hash). */
export type WorktreeFingerprint = Map<string, string>;

export interface RecordPaths {
  /** The evidence ledger (repo-relative). */
  ledger: string;
  /** The archive directory (repo-relative). */
  archive: string;
}

function contentHash(abs: string): string {
  try {
    const st = lstatSync(abs);
    if (st.isSymbolicLink()) return `link:${readlinkSync(abs)}`;
    if (st.isDirectory()) return "dir";
    return `${(st.mode & 0o777).toString(8)}:${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
  } catch {
    return "absent";
  }
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

function isRecord(path: string, records: RecordPaths): boolean {
  const archive = records.archive.replace(/\/+$/, "");
  return path === records.ledger || path === archive || path.startsWith(`${archive}/`);
}

export function worktreeFingerprint(root: string, records: RecordPaths): WorktreeFingerprint {
  const out = execGit(["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules=none", "--", ".", ":(exclude).norma"], { cwd: root });
  const fp: WorktreeFingerprint = new Map();
  for (const { code, path } of statusPaths(out)) {
    if (isRecord(path, records)) continue;
    fp.set(path, `${code}|${contentHash(join(root, path))}`);
  }
  return fp;
}

/** The paths whose status or content differ between two fingerprints, sorted. */
export function changedPaths(before: WorktreeFingerprint, after: WorktreeFingerprint): string[] {
  const out = new Set<string>();
  for (const [p, v] of after) if (before.get(p) !== v) out.add(p);
  for (const p of before.keys()) if (!after.has(p)) out.add(p);
  return [...out].sort();
}
