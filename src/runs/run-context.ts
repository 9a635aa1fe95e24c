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
import type { RunWorktree } from "./run-worktree-path.js";
import type { ActChange, DriftCount } from "./stuck-agent.js";
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
  /** The run's worktree (absolute): the workspace root every tool of every step is contained in. */
  workspace: string;
  worktree: RunWorktree;
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
  /** The last act step's proposal (stuck-agent.ts). */
  lastChange: ActChange | undefined;
  /** The open drift after each failed check, oldest first (stuck-agent.ts). */
  driftCounts: DriftCount[];
  /** The workspace tools' ledger and archive, relative to the workspace (left out of the agents' work-tree changes). */
  records: RecordPaths;
}

/** A passed run's result on its branch (commit-run-result.ts). */
export interface RunCommit {
  branch: string;
  /** The commit on the branch, or null when the run changed nothing. */
  commit: string | null;
  /** What the commit changed: git's status letter and the path. */
  files: Array<{ status: string; path: string }>;
}

export interface RunEnd {
  status: RunStatus;
  reason: string;
  events: EventSpec[];
  /** A passed run's commit on its branch. */
  commit?: RunCommit;
}

export function reportProgress(ctx: RunContext, p: Omit<RunProgress, "runId" | "elapsedMs">): void {
  ctx.onProgress?.({ ...p, runId: ctx.runId, elapsedMs: Date.now() - ctx.started });
}

export function isAborted(ctx: RunContext): boolean {
  return ctx.signal?.aborted === true;
}
