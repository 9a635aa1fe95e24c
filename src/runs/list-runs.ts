/**
 * `runs list` and `runs show` (and the MCP tools run_list / run_status): the
 * committed state of `.norma/norma.db`, read without a lock (a consistent
 * snapshot: the file is only ever replaced whole). Read-only; the CLI runs
 * recovery first when no run is in progress (`recoverIfIdle`).
 */
import { readNormaState } from "./norma-db.js";
import { recoverRuns, type RecoveryReport } from "./recover-runs.js";
import type { EventRow, RunRow, StepRow } from "./norma-schema.js";
import { readLockHolder, tryRunLock } from "./run-lock.js";
import { existsSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { isAbsolute } from "node:path";
import type { VerdictFile } from "./agent-protocol.js";
import { abs, NORMA_DIR } from "../layout/norma-layout.js";
import { DEFAULT_RUN_STATUS_EVENTS } from "./run-status-defaults.js";

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
  /** The run's process is alive and holds the run lock (status `running` and not a leftover of a crash). */
  live: boolean;
  criteria: Array<{ id: string; text: string }>;
  specs: string[];
  budgets: Record<string, number> | null;
  steps: Array<Omit<StepRow, "run_id">>;
  /** The events, oldest first (only the last `eventsLimit` when one is given). */
  events: RunEvent[];
  events_total: number;
  /** The last check step's scorecard.md (repo-relative), if there is one. */
  scorecard: string | null;
  /** The last check step's verdict.json (repo-relative), if there is one. */
  verdict_file: string | null;
  /** Its content (null when there is none or it does not parse). */
  verdict: VerdictFile | null;
  /** Where the run works: its worktree (repository-relative, or absolute), branch, start commit, and whether the directory is still there. */
  worktree: { dir: string; branch: string; base: string; exists: boolean } | null;
  /** A passed run's commit on its branch (commit null: it changed nothing). */
  result: { branch: string; commit: string | null; files: number } | null;
  /** Where `runs apply` brought the commit. */
  applied: { onto: string; commit: string } | null;
  /** Why a stuck agent stopped the run (the last agent_stuck event): its words and the evidence, one line each. */
  stuck: { kind: string; message: string; evidence: string[] } | null;
}

function stuckOf(events: readonly EventRow[]): RunDetail["stuck"] {
  const e = [...events].reverse().find((x) => x.type === "agent_stuck");
  if (e === undefined) return null;
  const d = (e.data_json !== null ? JSON.parse(e.data_json) : {}) as {
    kind?: string;
    steps?: number[];
    fingerprint?: string;
    proposal?: string[];
    changed?: string[];
    limit?: number;
    counts?: Array<{ iteration: number; step: number; open: number }>;
  };
  const evidence =
    d.kind === "repeated_change"
      ? [
          `act steps ${(d.steps ?? []).join(" and ")} proposed the same change (sha256 ${d.fingerprint ?? "?"})`,
          `proposal files: ${(d.proposal ?? []).join(", ") || "none"}; files changed directly: ${(d.changed ?? []).join(", ") || "none"}`,
        ]
      : d.kind === "drift_stalled"
        ? [
            `open drift after each failed check: ${(d.counts ?? []).map((c) => `iteration ${c.iteration} (step ${c.step}): ${c.open}`).join(", ")}`,
            `max_stalled_iterations: ${d.limit ?? "?"}`,
          ]
        : [];
  return { kind: d.kind ?? "unknown", message: e.message, evidence };
}

function readVerdict(root: string, rel: string | null): VerdictFile | null {
  if (rel === null) return null;
  try {
    // The loop validated it (zod) before committing the step; this only guards against a file edited since (zod stays off this read path).
    const v = JSON.parse(readFileSync(abs(root, rel), "utf8")) as Partial<VerdictFile> | null;
    const criteriaOk =
      Array.isArray(v?.criteria) && v.criteria.every((c) => c !== null && typeof c === "object" && typeof c.id === "string" && typeof c.pass === "boolean");
    return v !== null && typeof v === "object" && v.version === 1 && (v.verdict === "PASS" || v.verdict === "FAIL") && criteriaOk ? (v as VerdictFile) : null;
  } catch {
    return null;
  }
}

/** The run lock's holder is a live process on this host. */
function lockIsLive(root: string): boolean {
  const h = readLockHolder(root);
  if (h.pid === null || (h.host !== null && h.host !== hostname())) return h.pid !== null;
  try {
    process.kill(h.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** One run in full (default: the newest); null when there is no such run. */
export async function showRun(root: string, runId?: string, options: { eventsLimit?: number } = {}): Promise<RunDetail | null> {
  const state = await readNormaState(root);
  if (state === null) return null;
  const run = runId === undefined ? state.runs[0] : state.runs.find((r) => r.run_id === runId);
  if (run === undefined) return null;
  const kv = state.kv(run.run_id);
  const steps = state.steps(run.run_id).map(({ run_id: _r, ...s }) => s);
  const lastCheck = [...steps].reverse().find((s) => s.role === "check" && s.status === "ok");
  const scorecard = lastCheck !== undefined && existsSync(abs(root, `${lastCheck.step_dir}/scorecard.md`)) ? `${lastCheck.step_dir}/scorecard.md` : null;
  const verdictFile = lastCheck !== undefined && existsSync(abs(root, `${lastCheck.step_dir}/verdict.json`)) ? `${lastCheck.step_dir}/verdict.json` : null;
  const events = state.events(run.run_id);
  const wt = kv.get("worktree") as { dir?: unknown; branch?: unknown; base?: unknown } | undefined;
  const worktree =
    typeof wt?.dir === "string" && typeof wt.branch === "string" && typeof wt.base === "string"
      ? { dir: wt.dir, branch: wt.branch, base: wt.base, exists: existsSync(isAbsolute(wt.dir) ? wt.dir : abs(root, wt.dir)) }
      : null;
  const res = kv.get("result") as { branch?: unknown; commit?: unknown; files?: unknown } | undefined;
  const result =
    typeof res?.branch === "string"
      ? { branch: res.branch, commit: typeof res.commit === "string" ? res.commit : null, files: Array.isArray(res.files) ? res.files.length : 0 }
      : null;
  const app = kv.get("applied") as { onto?: unknown; commit?: unknown } | undefined;
  const applied = typeof app?.onto === "string" && typeof app.commit === "string" ? { onto: app.onto, commit: app.commit } : null;
  const shown = options.eventsLimit !== undefined ? events.slice(Math.max(0, events.length - options.eventsLimit)) : events;
  return {
    run,
    live: run.status === "running" && lockIsLive(root),
    criteria: ((kv.get("criteria") as Array<{ id: string; text: string }> | undefined) ?? []).map((c) => ({ id: c.id, text: c.text })),
    specs: (kv.get("specs") as string[] | undefined) ?? [],
    budgets: (kv.get("budgets") as Record<string, number> | undefined) ?? null,
    steps,
    events: shown.map((e) => ({
      seq: e.seq,
      ts: e.ts,
      type: e.type,
      message: e.message,
      data: e.data_json !== null ? (JSON.parse(e.data_json) as unknown) : null,
    })),
    events_total: events.length,
    scorecard,
    verdict_file: verdictFile,
    verdict: readVerdict(root, verdictFile),
    worktree,
    result,
    applied,
    stuck: stuckOf(events),
  };
}

export type RunStatusResult = RunDetail;

/** `run_status` (MCP): showRun with at most the last DEFAULT_RUN_STATUS_EVENTS events unless told otherwise. */
export function runStatus(root: string, runId?: string, options: { eventsLimit?: number } = {}): Promise<RunDetail | null> {
  return showRun(root, runId, { eventsLimit: options.eventsLimit ?? DEFAULT_RUN_STATUS_EVENTS });
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
