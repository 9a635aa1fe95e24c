/**
 * Where the run loop keeps its state: norma's layout under the repository root
 * (`../shared/specs/norma-run-loop.md` §1), so a repository that already uses
 * norma works unchanged.
 *
 *   .norma/config.json            agents per role, budgets, risky globs (committed)
 *   .norma/norma.db               run/step/event state (SQLite through sql.js)
 *   .norma/locks/run.lock         one `run` at a time
 *   .norma/locks/norma.db.lock    one writer of norma.db at a time
 *   .norma/locks/agent.json       the agent process group a run waits for (recovery ends orphans)
 *   .norma/runs/<run_id>/norma.md goal, acceptance criteria, budgets (human readable)
 *   .norma/runs/<run_id>/steps/NNN-role/   one directory per committed step
 *   .norma/runs/<run_id>/patches/NNN.backup/  the before-state of a patch being applied
 *
 * Everything printed and stored is repo-relative POSIX; `abs` joins it to the root.
 */
import { join } from "node:path";

export const NORMA_DIR = ".norma";
export const NORMA_DB = ".norma/norma.db";
export const NORMA_CONFIG = ".norma/config.json";
export const RUN_LOCK = ".norma/locks/run.lock";
export const DB_LOCK = ".norma/locks/norma.db.lock";
export const RUNS_DIR = ".norma/runs";

export const ROLES = ["plan", "do", "check", "act"] as const;
export type Role = (typeof ROLES)[number];

/** Marker of a directory that is not complete yet (`003-check.tmp-1a2b3c4d`). */
export const TMP_MARK = ".tmp-";

export function runDir(runId: string): string {
  return `${RUNS_DIR}/${runId}`;
}

/** `003-check` (three digits at least, as norma numbers them). */
export function stepDirName(index: number, role: Role): string {
  return `${String(index).padStart(3, "0")}-${role}`;
}

export function stepDir(runId: string, index: number, role: Role): string {
  return `${runDir(runId)}/steps/${stepDirName(index, role)}`;
}

/** `NNN-role` → its index and role, or null for anything else (temp dirs included). */
export function parseStepDirName(name: string): { index: number; role: Role } | null {
  const m = /^(\d{3,})-(plan|do|check|act)$/.exec(name);
  if (m === null) return null;
  const index = Number(m[1]);
  return Number.isSafeInteger(index) && index > 0 ? { index, role: m[2] as Role } : null;
}

export function patchBackupDir(runId: string, index: number): string {
  return `${runDir(runId)}/patches/${String(index).padStart(3, "0")}.backup`;
}

export function abs(root: string, rel: string): string {
  return join(root, ...rel.split("/"));
}

/** Run ids: `20260123-145501-ab12cd` (UTC time, then random hex), sortable by creation. */
export const RUN_ID_PATTERN = /^\d{8}-\d{6}-[0-9a-f]{6}$/;
