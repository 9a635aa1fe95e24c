/**
 * `runs list` and `runs show` (and the MCP tools run_list / run_status): the
 * committed state of `.norma/norma.db`, read without a lock (a consistent
 * snapshot: the file is only ever replaced whole). Read-only; the CLI runs
 * recovery first when no run is in progress (`recoverIfIdle`).
 */
import { readNormaState } from "./norma-db.js";
import { recoverRuns, type RecoveryReport } from "./recover-runs.js";
import type { EventRow, RunRow, StepRow } from "./norma-schema.js";
import { tryRunLock } from "./run-lock.js";
import { existsSync } from "node:fs";
import { abs, NORMA_DIR } from "./norma-layout.js";

export interface RunListEntry {
  run_id: string;
  created_at: string;
  status: RunRow["status"];
  verdict: RunRow["verdict"];
  iteration: number;
  steps: number;
  goal: string;
  run_dir: string;
}

export interface RunList {
  runs: RunListEntry[];
  /** All runs in the database (the list may be limited). */
  total: number;
}

export async function listRuns(root: string, options: { limit?: number } = {}): Promise<RunList> {
  const state = await readNormaState(root);
  if (state === null) return { runs: [], total: 0 };
  const counts = state.stepCounts();
  const runs = (options.limit !== undefined ? state.runs.slice(0, options.limit) : state.runs).map((r) => ({
    run_id: r.run_id,
    created_at: r.created_at,
    status: r.status,
    verdict: r.verdict,
    iteration: r.iteration,
    steps: counts.get(r.run_id) ?? 0,
    goal: r.goal,
    run_dir: r.run_dir,
  }));
  return { runs, total: state.runs.length };
}

export interface RunEvent extends Omit<EventRow, "data_json" | "run_id"> {
  data: unknown;
}

export interface RunDetail {
  run: RunRow;
  criteria: Array<{ id: string; text: string }>;
  specs: string[];
  budgets: unknown;
  steps: Array<Omit<StepRow, "run_id">>;
  events: RunEvent[];
  /** The last check step's scorecard.md (repo-relative), if there is one. */
  scorecard: string | null;
  /** The last check step's verdict.json (repo-relative), if there is one. */
  verdict_file: string | null;
}

/** One run in full (default: the newest); null when there is no such run. */
export async function showRun(root: string, runId?: string): Promise<RunDetail | null> {
  const state = await readNormaState(root);
  if (state === null) return null;
  const run = runId === undefined ? state.runs[0] : state.runs.find((r) => r.run_id === runId);
  if (run === undefined) return null;
  const kv = state.kv(run.run_id);
  const steps = state.steps(run.run_id).map(({ run_id: _r, ...s }) => s);
  const lastCheck = [...steps].reverse().find((s) => s.role === "check" && s.status === "ok");
  const scorecard = lastCheck !== undefined && existsSync(abs(root, `${lastCheck.step_dir}/scorecard.md`)) ? `${lastCheck.step_dir}/scorecard.md` : null;
  const verdictFile = lastCheck !== undefined && existsSync(abs(root, `${lastCheck.step_dir}/verdict.json`)) ? `${lastCheck.step_dir}/verdict.json` : null;
  return {
    run,
    criteria: ((kv.get("criteria") as Array<{ id: string; text: string }> | undefined) ?? []).map((c) => ({ id: c.id, text: c.text })),
    specs: (kv.get("specs") as string[] | undefined) ?? [],
    budgets: kv.get("budgets") ?? null,
    steps,
    events: state.events(run.run_id).map((e) => ({ seq: e.seq, ts: e.ts, type: e.type, message: e.message, data: e.data_json !== null ? (JSON.parse(e.data_json) as unknown) : null })),
    scorecard,
    verdict_file: verdictFile,
  };
}

/**
 * Recovery (norma §4.2) on the start of a command that only reads: done when
 * no run is in progress (the run lock is free), skipped otherwise — a live
 * run's temp directories are its work in progress, not debris.
 */
export async function recoverIfIdle(root: string): Promise<RecoveryReport | null> {
  if (!existsSync(abs(root, NORMA_DIR))) return null;
  const release = tryRunLock(root);
  if (release === null) return null;
  try {
    return await recoverRuns(root);
  } finally {
    release();
  }
}
