/**
 * The run loop (norma §5): plan → do → check → act, until the check says
 * PASS or a budget is spent, every step committed atomically and every
 * decision recorded as an event in `.norma/norma.db`.
 *
 * - A run starts from a goal and acceptance criteria (given, or generated
 *   from `--spec`), or resumes a stopped or failed one (`resume`): it
 *   continues after its last committed step (a failed step is retried; a
 *   patch a budget held back is tried again under the current budgets).
 *   Setting either up: run-setup.ts.
 * - Start-up takes `.norma/locks/run.lock` (a second run is refused, naming
 *   the holder) and runs recovery (recover-runs.ts) first.
 * - A step that fails (agent error, timeout, protocol error, a check without
 *   a valid verdict) ends the run as `failed`; a FAIL verdict with no act
 *   agent too. `max_iterations` spent, or a patch over a budget, ends it as
 *   `stopped`, with a `budget_exceeded` event. An interruption (abort
 *   signal) ends it as `stopped`; `resume` continues it.
 * - The act step's patch is applied by the loop (apply-pending-patch.ts); the
 *   files a do or act step acknowledges (`reconciled.json`) are recorded
 *   with their hash (record-acknowledgements.ts).
 * - On PASS, unless `mark: false`: the drift is marked reconciled and the
 *   snapshot written (mark-on-pass.ts).
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/load-config.js";
import type { SnapshotStateResult } from "../reconcile/snapshot-state.js";
import { readTextFile } from "../fsx/read-text-file.js";
import type { AcceptanceCriterion } from "./agent-protocol.js";
import { cliEntryPath } from "./cli-entry-path.js";
import { ackEvents } from "./ack-events.js";
import { applyPending } from "./apply-pending-patch.js";
import { filesBreach, planPatch, type PatchPlan } from "./apply-act-patch.js";
import { openDriftCount } from "./open-drift.js";
import { actChange, driftStalled, repeatedChange } from "./stuck-agent.js";
import { checkAgentBinaries } from "./check-agent-binaries.js";
import { commitRunResult } from "./commit-run-result.js";
import { commitStep } from "./commit-step.js";
import { executeStep, type StepOutcome } from "./execute-step.js";
import { markOnPass } from "./mark-on-pass.js";
import { normaTransaction, readNormaState, type NormaTx } from "./norma-db.js";
import { ensureNormaDir } from "./norma-dir.js";
import { abs, runDir, type Role } from "../layout/norma-layout.js";
import type { RunStatus, StepRow, StepStatus, Verdict } from "./norma-schema.js";
import { nextStep } from "./next-step.js";
import { recoverRuns, type PendingPatch, type RecoveryReport } from "./recover-runs.js";
import { DEFAULT_MAX_STALLED_ITERATIONS, loadRunConfig } from "./run-config.js";
import { isAborted, reportProgress, type RunCommit, type RunContext, type RunEnd, type RunProgress } from "./run-context.js";
import { acquireRunLock } from "./run-lock.js";
import { setUpNewRun, setUpResumedRun, vetNewRun, type ContextBase } from "./run-setup.js";
import { readStored } from "./stored-run-state.js";
import type { RecordPaths } from "./worktree-changes.js";

export type { RunProgress } from "./run-context.js";

export interface RunLoopOptions {
  root: string;
  goal?: string;
  /** Free-text criteria (`--ac`); they need a check agent. */
  ac?: readonly AcceptanceCriterion[];
  /** Spec paths, repository-relative. */
  specs?: readonly string[];
  maxIterations?: number;
  /** Continue this run instead of starting one. */
  resume?: string;
  /** Mark reconciled and write the snapshot on PASS (default true). */
  mark?: boolean;
  /** The commit a new run's worktree starts from (default HEAD). */
  base?: string;
  /** argv of our MCP server given to the coding CLIs; default `node <dist/cli.cjs> mcp`; null: none. */
  mcpCommand?: readonly string[] | null;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (p: RunProgress) => void;
  onWarning?: (message: string) => void;
  /** How long to wait for the run lock (ms). */
  lockWaitMs?: number;
}

export interface RunStepSummary {
  index: number;
  role: Role;
  iteration: number;
  status: StepStatus;
  summary: string | null;
  step_dir: string;
}

export interface RunResult {
  run_id: string;
  status: RunStatus;
  verdict: Verdict | null;
  iteration: number;
  run_dir: string;
  goal: string;
  /** Why the run ended as it did. */
  reason: string;
  steps: RunStepSummary[];
  /** The last check's scorecard (repo-relative), if any. */
  scorecard: string | null;
  marked: Array<{ spec: string; files: string[] }>;
  snapshot: SnapshotStateResult | null;
  /** Where the run worked: its worktree (repository-relative, or absolute outside it), its branch and the commit it started from. */
  worktree: { dir: string; branch: string; base: string };
  /** On PASS: the commit of the run's result on its branch (commit null: the run changed nothing). */
  commit: RunCommit | null;
  recovery: RecoveryReport;
}

/** `node <our dist/cli.cjs> mcp`, found from this module (src/ in tests, dist/chunks/ when bundled); null if not found. */
export function defaultMcpCommand(from?: string): string[] | null {
  const cli = cliEntryPath(from);
  return cli !== null ? [process.execPath, cli, "mcp"] : null;
}

function stepRow(ctx: RunContext, index: number, role: Role, iteration: number, o: StepOutcome): StepRow {
  return {
    run_id: ctx.runId,
    step_index: index,
    role,
    iteration,
    status: o.status,
    step_dir: o.stepDirRel,
    started_at: o.startedAt,
    ended_at: o.endedAt,
    summary: o.summary,
  };
}

async function finish(ctx: RunContext, end: RunEnd): Promise<void> {
  await normaTransaction(ctx.root, (tx) => {
    for (const e of end.events) tx.event(ctx.runId, e.type, e.message, e.data);
    if (end.commit !== undefined) tx.setKv(ctx.runId, "result", end.commit);
    tx.updateRun(ctx.runId, { status: end.status, ...(ctx.verdict !== null ? { verdict: ctx.verdict } : {}) });
    tx.event(ctx.runId, `run_${end.status}`, end.reason, { iteration: ctx.iteration, verdict: ctx.verdict });
  });
}

async function drive(ctx: RunContext): Promise<RunEnd> {
  const stored = (await readNormaState(ctx.root))?.kv(ctx.runId);
  const pendingRaw: PendingPatch | undefined = stored !== undefined ? readStored(stored, ctx.runId, "pending_patch") : undefined;
  if (pendingRaw !== undefined) {
    const end = await applyPending(ctx, pendingRaw);
    if (end !== null) return end;
  }
  for (;;) {
    if (ctx.signal?.aborted === true)
      return {
        status: "stopped",
        reason: "interrupted; continue with `noma-reconcile run --resume`",
        events: [{ type: "run_interrupted", message: "the run was interrupted (signal)" }],
      };
    const next = nextStep(ctx.steps, ctx.verdict);
    if (next === null) {
      const events = await markOnPass(ctx);
      const result = commitRunResult(ctx);
      return { status: "passed", reason: "the check passed: every acceptance criterion holds", events: [...events, ...result.events], commit: result.commit };
    }
    const { role, iteration } = next;
    if (role === "act" && ctx.config.agents.act === undefined) {
      return {
        status: "failed",
        reason: "the check failed and no act agent is configured to fix it (.norma/config.json agents.act)",
        events: [{ type: "act_missing", message: "FAIL with no act agent configured" }],
      };
    }
    const index = (ctx.steps[ctx.steps.length - 1]?.step_index ?? 0) + 1;
    reportProgress(ctx, { iteration, role, index, phase: "start" });
    const outcome = await executeStep({
      root: ctx.root,
      workspaceRoot: ctx.workspace,
      runId: ctx.runId,
      index,
      role,
      iteration,
      agent: ctx.config.agents[role],
      goal: ctx.goal,
      criteria: ctx.criteria,
      budgets: ctx.budgets,
      previousStepDirs: ctx.steps.map((s) => abs(ctx.root, s.step_dir)),
      env: ctx.env,
      mcpCommand: ctx.mcp,
      signal: ctx.signal,
      acks: ctx.acks,
      startHead: ctx.startHead,
      specs: ctx.specs,
      records: ctx.records,
    });
    const row = stepRow(ctx, index, role, iteration, outcome);
    const events = [...outcome.events];
    const kv: Record<string, unknown> = {};
    let end: RunEnd | null = null;
    let pending: PendingPatch | null = null;
    let pendingPlan: { tmpDir: string; plan: PatchPlan } | undefined;
    let runUpdate: Parameters<NormaTx["updateRun"]>[1] = {};

    // Files a do or act agent changed itself (the workspace tools of `mcp --step`): they count
    // against the run's file budgets like a patch's; the next check judges them.
    if ((role === "do" || role === "act") && outcome.worktreeChanges !== null && outcome.worktreeChanges.length > 0) {
      ctx.changedFiles = [...new Set([...ctx.changedFiles, ...outcome.worktreeChanges])].sort();
      kv["changed_files"] = ctx.changedFiles;
      const breach = filesBreach(ctx.changedFiles, ctx.budgets, ctx.config.risky);
      if (breach !== null && outcome.status !== "fail") {
        const msg =
          `${breach.budget} exceeded: the ${role} agent of step ${index} changed ${outcome.worktreeChanges.join(", ")}, which makes ` +
          `it ${breach.value} (limit ${breach.limit}); the changes stay in the run's worktree ${ctx.worktree.dir} (overwritten versions in its ` +
          `workspace archive)`;
        end = {
          status: "stopped",
          reason: msg,
          events: [{ type: "budget_exceeded", message: msg, data: { ...breach, step_index: index, files: outcome.worktreeChanges } }],
        };
      }
    }

    if (end !== null) {
      /* stopped by a budget: nothing of this step is acted on */
    } else if (outcome.status === "fail") {
      end = isAborted(ctx)
        ? {
            status: "stopped",
            reason: "interrupted; continue with `noma-reconcile run --resume`",
            events: [{ type: "run_interrupted", message: `the run was interrupted during step ${index} (${role})` }],
          }
        : { status: "failed", reason: `step ${index} (${role}) failed: ${outcome.summary}`, events: [] };
    } else if (role === "check" && outcome.verdict !== null) {
      ctx.verdict = outcome.verdict.verdict;
      runUpdate = { verdict: ctx.verdict };
      const failed = outcome.verdict.criteria.filter((c) => !c.pass).map((c) => c.id);
      // The open drift after a failed check: what the stalled-drift budget watches.
      let open: number | null = null;
      if (ctx.verdict === "FAIL" && ctx.specs.length > 0) {
        open = await openDriftCount(ctx, outcome.drift);
        ctx.driftCounts = [...ctx.driftCounts.filter((c) => c.iteration !== iteration), { iteration, step: index, open }];
        kv["drift_counts"] = ctx.driftCounts;
      }
      events.push({
        type: "verdict",
        message: `${ctx.verdict}${failed.length > 0 ? `: ${failed.join(", ")} failed` : ""}`,
        data: {
          step_index: index,
          verdict: ctx.verdict,
          failed,
          scorecard: `${outcome.stepDirRel}/scorecard.md`,
          ...(open !== null ? { open_drift: open } : {}),
        },
      });
      const limit = ctx.budgets.max_stalled_iterations ?? DEFAULT_MAX_STALLED_ITERATIONS;
      const stalled = ctx.verdict === "FAIL" && ctx.config.agents.act !== undefined ? driftStalled(ctx.driftCounts, limit) : null;
      if (ctx.verdict === "FAIL" && ctx.config.agents.act !== undefined && iteration >= ctx.budgets.max_iterations) {
        const msg = `max_iterations exceeded: iteration ${iteration} of ${ctx.budgets.max_iterations} ended with FAIL`;
        end = {
          status: "stopped",
          reason: msg,
          events: [{ type: "budget_exceeded", message: msg, data: { budget: "max_iterations", limit: ctx.budgets.max_iterations, value: iteration } }],
        };
      } else if (stalled !== null) {
        events.push({ type: "agent_stuck", message: stalled.message, data: { ...stalled.data, step_index: index } });
        end = {
          status: "stopped",
          reason:
            `${stalled.message}; change the agents' instructions or the criteria, then continue with \`noma-reconcile run --resume ${ctx.runId} ` +
            `--max-iterations N\``,
          events: [],
        };
      }
    } else if (role === "do" && outcome.acks !== null) {
      const a = await ackEvents(ctx, index, outcome.acks);
      events.push(...a.events);
      kv["acks"] = a.merged;
      ctx.acks = a.merged;
    } else if (role === "act") {
      const change = actChange(index, outcome.tmpDir, outcome.worktreeChanges ?? [], ctx.workspace);
      const repeated = repeatedChange(ctx.lastChange, change);
      ctx.lastChange = change;
      kv["last_change"] = change;
      if (repeated !== null) {
        row.status = "fail";
        row.summary = `stuck: the same change as step ${repeated.previous}`;
        events.push({ type: "agent_stuck", message: repeated.message, data: { ...repeated.data, step_index: index } });
        end = {
          status: "stopped",
          reason:
            `${repeated.message}; change the act agent's instructions or the criteria, then continue with \`noma-reconcile run ` +
            `--resume ${ctx.runId}\` (the act step is tried again)`,
          events: [],
        };
      } else {
        const planned = planPatch(ctx.workspace, outcome.tmpDir);
        if (!planned.ok) {
          row.status = "fail";
          row.summary = `patch rejected: ${planned.problem}`;
          events.push({ type: "patch_invalid", message: planned.problem, data: { step_index: index } });
          end = { status: "failed", reason: `the act step's patch was rejected: ${planned.problem}`, events: [] };
        } else if (planned.plan === null) {
          if (outcome.acks !== null) {
            const a = await ackEvents(ctx, index, outcome.acks);
            events.push(...a.events);
            kv["acks"] = a.merged;
            ctx.acks = a.merged;
          }
          events.push({ type: "no_patch", message: `step ${index} (act) proposed no patch` });
          ctx.iteration = iteration + 1;
          runUpdate = { iteration: ctx.iteration };
        } else {
          pending = { step: index, ...(outcome.acks !== null ? { acks: outcome.acks } : {}) };
          pendingPlan = { tmpDir: outcome.tmpDir, plan: planned.plan };
          kv["pending_patch"] = pending;
        }
      }
    }
    await commitStep(ctx.root, { tmpDir: outcome.tmpDir, step: row, events, run: runUpdate, kv });
    ctx.steps.push(row);
    reportProgress(ctx, { iteration, role, index, phase: "end", status: row.status, summary: row.summary ?? "" });
    if (end !== null) return end;
    if (pending !== null) {
      const e = await applyPending(ctx, pending, pendingPlan);
      if (e !== null) return e;
    }
  }
}

function summaries(ctx: RunContext): RunStepSummary[] {
  return ctx.steps.map((s) => ({ index: s.step_index, role: s.role, iteration: s.iteration, status: s.status, summary: s.summary, step_dir: s.step_dir }));
}

/** Start (or resume) a run and drive it to its end. */
export async function runLoop(o: RunLoopOptions): Promise<RunResult> {
  const root = o.root;
  const env = o.env ?? process.env;
  const onWarning = o.onWarning ?? (() => {});
  const config = loadRunConfig(root);
  const wsConfig = loadConfig({ cwd: root, read: (p) => (existsSync(join(root, p)) ? readTextFile(join(root, p)) : null), onWarning });
  if (o.resume === undefined) vetNewRun(root, o, config, onWarning);
  checkAgentBinaries(root, config, env);
  ensureNormaDir(root);
  const release = acquireRunLock(root, o.lockWaitMs);
  try {
    const recovery = await recoverRuns(root);
    const records: RecordPaths = { ledger: wsConfig.workspace.ledger, archive: wsConfig.workspace.archive };
    const base: ContextBase = {
      root,
      config,
      env,
      mcp: o.mcpCommand === undefined ? defaultMcpCommand() : o.mcpCommand,
      signal: o.signal,
      started: Date.now(),
      onProgress: o.onProgress,
      onWarning,
      records,
    };
    const ctx =
      o.resume === undefined
        ? await setUpNewRun(base, o, wsConfig.workspace)
        : await setUpResumedRun(
            base,
            o.resume,
            {
              ...(o.maxIterations !== undefined ? { maxIterations: o.maxIterations } : {}),
              ...(o.mark !== undefined ? { mark: o.mark } : {}),
            },
            wsConfig.workspace,
          );
    if (o.resume !== undefined && o.base !== undefined) onWarning("--base is ignored by --resume: the run goes on in its worktree");
    let end: RunEnd;
    try {
      end = await drive(ctx);
    } catch (e) {
      // A runtime failure of the loop itself (DB, file system): record it if we can, then report it.
      try {
        await finish(ctx, { status: "failed", reason: `internal failure: ${(e as Error).message}`, events: [] });
      } catch {
        /* the database is what failed: recovery marks the run on the next start */
      }
      throw e;
    }
    await finish(ctx, end);
    const lastCheck = [...ctx.steps].reverse().find((s) => s.role === "check" && s.status !== "fail");
    const markedEvents = end.events.filter((e) => e.type === "marked_reconciled").map((e) => e.data as { spec: string; files: string[] });
    const snapEvent = end.events.find((e) => e.type === "snapshot_written");
    return {
      run_id: ctx.runId,
      status: end.status,
      verdict: ctx.verdict,
      iteration: ctx.iteration,
      run_dir: runDir(ctx.runId),
      goal: ctx.goal,
      reason: end.reason,
      steps: summaries(ctx),
      scorecard: lastCheck !== undefined ? `${lastCheck.step_dir}/scorecard.md` : null,
      marked: markedEvents.map((m) => ({ spec: m.spec, files: m.files })),
      snapshot: snapEvent !== undefined ? (snapEvent.data as SnapshotStateResult) : null,
      worktree: { dir: ctx.worktree.dir, branch: ctx.worktree.branch, base: ctx.worktree.base },
      commit: end.commit ?? null,
      recovery,
    };
  } finally {
    release();
  }
}

/** Read a step's AgentResponse summary file (for tools that show a run). */
export function readStepFile(root: string, stepDirRel: string, file: string): string | null {
  try {
    return readFileSync(abs(root, `${stepDirRel}/${file}`), "utf8");
  } catch {
    return null;
  }
}
