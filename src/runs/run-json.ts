/**
 * `run.json` beside `norma.md` in a run's directory: the run's set-up as the
 * database stores it (goal, criteria, budgets, specs, worktree, …), written in
 * the same atomic rename as the directory — before the database knows the run.
 * When the process dies between the two, recovery rebuilds the run's row and
 * stored state from it, so `--resume` continues the run. Read without zod (the
 * recovery path of `runs list`); `--resume` checks every value it uses.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const RUN_JSON = "run.json";

export interface RunSetupRecord {
  version: 1;
  run_id: string;
  created_at: string;
  goal: string;
  /** The run's stored state (kv_run), key by key. */
  kv: Record<string, unknown>;
}

export function formatRunJson(r: RunSetupRecord): string {
  return `${JSON.stringify(r, null, 2)}\n`;
}

/** The set-up recorded in a run directory (absolute), or null when there is none or it does not parse. */
export function readRunJson(runDirAbs: string): RunSetupRecord | null {
  try {
    const v = JSON.parse(readFileSync(join(runDirAbs, RUN_JSON), "utf8")) as Partial<RunSetupRecord> | null;
    if (v === null || typeof v !== "object" || v.version !== 1 || typeof v.goal !== "string" || v.kv === null || typeof v.kv !== "object") return null;
    return v as RunSetupRecord;
  } catch {
    return null;
  }
}
