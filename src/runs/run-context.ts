/**
 * What one run carries through its steps (set up by run-setup.ts, driven by
 * run-loop.ts): its identity and criteria, its configuration, what it has
 * done so far, and how it reports. `RunEnd` is how a run ends: a status, the
 * reason in words, the events that record it.
 */
import type { Budgets } from "./agent-protocol.js";
import type { Acknowledgement } from "./agents/builtin-check.js";
import type { EventSpec } from "./commit-step.js";
import type { Role } from "../layout/norma-layout.js";
import type { RunStatus, StepRow, StepStatus, Verdict } from "./norma-schema.js";
import type { RunConfig } from "./run-config.js";
import type { RunCriterion } from "./run-criteria.js";
import type { RecordPaths } from "./worktree-changes.js";

export interface RunProgress {
  runId: string;
  iteration: number;
  role: Role;
  index: number;
  phase: "start" | "end";
  status?: StepStatus;
  summary?: string;
  /** Since the run (or the resumed run) started in this process. */
  elapsedMs: number;
}

export interface RunContext {
  /** The repository root: where `.norma/` (the database, the run records, the locks) lives. */
  root: string;
  runId: string;
  goal: string;
  criteria: RunCriterion[];
  budgets: Budgets;
  specs: string[];
  mark: boolean;
  startHead: string | null;
  config: RunConfig;
  env: NodeJS.ProcessEnv;
  mcp: readonly string[] | null;
  signal: AbortSignal | undefined;
  started: number;
  onProgress: ((p: RunProgress) => void) | undefined;
  onWarning: (m: string) => void;
  steps: StepRow[];
  verdict: Verdict | null;
  iteration: number;
  acks: Acknowledgement[];
  changedFiles: string[];
  /** The workspace tools' ledger and archive (left out of the agents' work-tree changes). */
  records: RecordPaths;
}

export interface RunEnd {
  status: RunStatus;
  reason: string;
  events: EventSpec[];
}

export function reportProgress(ctx: RunContext, p: Omit<RunProgress, "runId" | "elapsedMs">): void {
  ctx.onProgress?.({ ...p, runId: ctx.runId, elapsedMs: Date.now() - ctx.started });
}

export function isAborted(ctx: RunContext): boolean {
  return ctx.signal?.aborted === true;
}
