/**
 * What an agent changed in the work tree while its step ran, from two sources:
 *
 * - the evidence ledger: every `edit_file` / `apply_patch` the step's agent made
 *   through our MCP server (`mcp --step` attributes each ledger line to its run
 *   step) that changed a file — exact, and nearly free (the bytes appended to the
 *   ledger during the step are read back);
 * - for the coding CLIs (codex, claude, gemini, opencode), which have file tools of
 *   their own, a fingerprint of every path `git status` lists (tracked changes and
 *   untracked files, .norma/ left out) with its content hash, taken before and
 *   after the agent: paths whose entry or content differ. (`exec` agents are
 *   programs that keep the contract; two `git status` per step would double the
 *   loop's own cost for them.)
 *
 * The loop records the paths (`worktree_changed`), counts a do or act agent's
 * against the file budgets, and the next check judges them. The workspace tools'
 * own records — the ledger and the archive (`workspace.ledger`, `workspace.archive`
 * of .notarai/config.yaml), written by every request — are evidence of changes, not
 * changes, and are left out.
 */
import { worktreeStatus } from "../git/worktree-status.js";
import { NORMA_DIR } from "../layout/norma-layout.js";
import { createHash } from "node:crypto";
import { closeSync, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, statSync } from "node:fs";
import { join } from "node:path";

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

function isRecord(path: string, records: RecordPaths): boolean {
  const archive = records.archive.replace(/\/+$/, "");
  return path === records.ledger || path === archive || path.startsWith(`${archive}/`);
}

export function worktreeFingerprint(root: string, records: RecordPaths): WorktreeFingerprint {
  const fp: WorktreeFingerprint = new Map();
  for (const { code, path } of worktreeStatus(root, { exclude: [NORMA_DIR] })) {
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

/** The ledger's size now (where this step's lines will start); 0 when it does not exist yet. */
export function ledgerOffset(root: string, records: RecordPaths): number {
  try {
    return statSync(join(root, records.ledger)).size;
  } catch {
    return 0;
  }
}

const EDITS = new Set(["edit_file", "apply_patch"]);

/**
 * The files the agent of run step `step` changed through the workspace tools: the ledger lines
 * appended since `offset` that carry that step, are an edit that succeeded, and changed the file.
 */
export function ledgerEdits(root: string, records: RecordPaths, offset: number, step: { runId: string; index: number }): string[] {
  let text: string;
  try {
    const fd = openSync(join(root, records.ledger), "r");
    try {
      const size = fstatSync(fd).size;
      if (size <= offset) return [];
      const buf = Buffer.alloc(size - offset);
      let got = 0;
      while (got < buf.length) {
        const n = readSync(fd, buf, got, buf.length - got, offset + got);
        if (n === 0) break;
        got += n;
      }
      text = buf.subarray(0, got).toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return [];
  }
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    if (!line.includes(step.runId)) continue;
    let e: { action?: unknown; path?: unknown; details?: { outcome?: unknown; unchanged?: unknown; run?: { run_id?: unknown; step?: unknown } } };
    try {
      e = JSON.parse(line);
    } catch {
      continue; // a torn line: verify-ledger reports it
    }
    const d = e.details;
    if (typeof e.action !== "string" || !EDITS.has(e.action) || typeof e.path !== "string" || e.path === "") continue;
    if (d?.outcome !== "ok" || d.unchanged === true || d.run?.run_id !== step.runId || d.run?.step !== step.index) continue;
    out.add(e.path);
  }
  return [...out].sort();
}
