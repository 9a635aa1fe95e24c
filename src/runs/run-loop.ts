/**
 * The run loop (norma §5): plan → do → check → act, until the check says
 * PASS or a budget is spent, every step committed atomically and every
 * decision recorded as an event in `.norma/norma.db`.
 *
 * - A run starts from a goal and acceptance criteria (given, or generated
 *   from `--spec`), or resumes a stopped or failed one (`resume`): it
 *   continues after its last committed step (a failed step is retried; a
 *   patch a budget held back is tried again under the current budgets).
 * - Start-up takes `.norma/locks/run.lock` (a second run is refused, naming
 *   the holder) and runs recovery (recover-runs.ts) first.
 * - A step that fails (agent error, timeout, protocol error, a check without
 *   a valid verdict) ends the run as `failed`; a FAIL verdict with no act
 *   agent too. `max_iterations` spent, or a patch over a budget, ends it as
 *   `stopped`, with a `budget_exceeded` event. An interruption (abort
 *   signal) ends it as `stopped`; `resume` continues it.
 * - The act step's patch is applied by the loop (apply-act-patch.ts); the
 *   files a do or act step acknowledges (`reconciled.json`) are recorded
 *   with their hash (record-acknowledgements.ts).
 * - On PASS, unless `mark: false`: the run's specs' drift files are marked
 *   reconciled in the hash cache, per spec (with the built-in check, exactly
 *   the acknowledged contents), and the snapshot is written — both recorded
 *   as events.
 */
import { NomaError } from "../errors/noma-error.js";
import { headCommit } from "../git/read-ref.js";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../config/load-config.js";
import { loadSpecContext } from "../reconcile/load-spec-context.js";
import { requireSpec } from "../reconcile/reconcile-context.js";
import type { SnapshotStateResult } from "../reconcile/snapshot-state.js";
import { readTextFile } from "../fsx/read-text-file.js";
import { SNAPSHOT_PATH } from "../spec/governance.js";
import type { AcceptanceCriterion, Budgets } from "./agent-protocol.js";
import type { Acknowledgement } from "./agents/builtin-check.js";
import { findExecutable } from "./agents/find-executable.js";
import { cliEntryPath } from "./cli-entry-path.js";
import { applyPatchPlan, budgetBreach, filesBreach, planPatch, type BudgetBreach } from "./apply-act-patch.js";
import { commitStep, type EventSpec } from "./commit-step.js";
import { executeStep, type StepOutcome } from "./execute-step.js";
import { fsyncDir, fsyncTree } from "../fsx/fsync-tree.js";
import { normaTransaction, readNormaState, type NormaTx } from "./norma-db.js";
import { ensureNormaDir } from "./norma-dir.js";
import { abs, patchBackupDir, runDir, RUNS_DIR, type Role, TMP_MARK } from "../layout/norma-layout.js";
import { formatNormaMd } from "./norma-md.js";
import type { RunStatus, StepRow, StepStatus, Verdict } from "./norma-schema.js";
import { pendingDrift } from "./pending-drift.js";
import { mergeAcknowledgements, recordAcknowledgements } from "./record-acknowledgements.js";
import { recoverRuns, type PendingPatch, type RecoveryReport } from "./recover-runs.js";
import { loadRunConfig, type AgentConfig, type RunConfig } from "./run-config.js";
import { generateCriteria, type RunCriterion } from "./run-criteria.js";
import { acquireRunLock } from "./run-lock.js";
import { removeBackup } from "./worktree-backup.js";
import type { RecordPaths } from "./worktree-changes.js";

export class RunSetupError extends NomaError {
  static override readonly errorName: string = "RunSetupError";
  constructor(message: string) {
    super("run-setup", message);
  }
}

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
  recovery: RecoveryReport;
}

/** `node <our dist/cli.cjs> mcp`, found from this module (src/ in tests, dist/chunks/ when bundled); null if not found. */
export function defaultMcpCommand(from?: string): string[] | null {
  const cli = cliEntryPath(from);
  return cli !== null ? [process.execPath, cli, "mcp"] : null;
}

function newRunId(now: Date): string {
  const iso = now.toISOString();
  return `${iso.slice(0, 10).replace(/-/g, "")}-${iso.slice(11, 19).replace(/:/g, "")}-${randomBytes(3).toString("hex")}`;
}

function headOrNull(root: string): string | null {
  try {
    return headCommit(root);
  } catch {
    return null;
  }
}

/** Fail before anything starts when a configured agent's program is missing. */
export function checkAgentBinaries(root: string, config: RunConfig, env: NodeJS.ProcessEnv): void {
  const problems: string[] = [];
  for (const [role, agent] of Object.entries(config.agents) as Array<[Role, AgentConfig]>) {
    if (agent.type === "builtin") continue;
    const bin = agent.type === "exec" || agent.type === "acp" ? agent.cmd[0]! : agent.type;
    if (findExecutable(bin, env, root) === null) {
      problems.push(
        agent.type === "exec" || agent.type === "acp"
          ? `agents.${role}: ${bin}: not found (${bin.includes("/") ? "relative to the repository root" : "on PATH"}); fix cmd in .norma/config.json`
          : `agents.${role}: the ${bin} binary was not found on PATH; install ${({ codex: "the Codex CLI", claude: "Claude Code", gemini: "the Gemini CLI", opencode: "OpenCode" } as const)[agent.type]} or choose another agent type in .norma/config.json`,
      );
    }
  }
  if (problems.length > 0) throw new RunSetupError(`cannot start the run:\n${problems.map((p) => `  ${p}`).join("\n")}`);
}

interface Ctx {
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

type End = { status: RunStatus; reason: string; events: EventSpec[] };

async function createRun(
  root: string,
  o: { goal: string; criteria: RunCriterion[]; budgets: Budgets; specs: string[]; mark: boolean; startHead: string | null; config: RunConfig },
): Promise<string> {
  const now = new Date();
  const runId = newRunId(now);
  const final = abs(root, runDir(runId));
  const tmp = `${final}${TMP_MARK}${randomBytes(4).toString("hex")}`;
  mkdirSync(join(tmp, "steps"), { recursive: true });
  writeFileSync(
    join(tmp, "norma.md"),
    formatNormaMd({ runId, createdAt: now.toISOString(), goal: o.goal, criteria: o.criteria, budgets: o.budgets, specs: o.specs }),
  );
  fsyncTree(tmp);
  renameSync(tmp, final);
  fsyncDir(abs(root, RUNS_DIR));
  await normaTransaction(root, (tx) => {
    tx.insertRun({
      run_id: runId,
      created_at: now.toISOString(),
      goal: o.goal,
      status: "running",
      iteration: 1,
      current_step_index: 0,
      verdict: null,
      run_dir: runDir(runId),
    });
    tx.setKv(runId, "criteria", o.criteria);
    tx.setKv(runId, "budgets", o.budgets);
    tx.setKv(runId, "specs", o.specs);
    tx.setKv(runId, "mark", o.mark);
    tx.setKv(runId, "start_head", o.startHead);
    tx.setKv(runId, "agents", o.config.agents);
    tx.setKv(runId, "risky", o.config.risky);
    tx.event(runId, "run_started", `run started: ${o.goal}`, {
      criteria: o.criteria.map((c) => c.id),
      budgets: o.budgets,
      specs: o.specs,
      head: o.startHead,
      config: o.config.source,
    });
  });
  return runId;
}

/** What comes after the committed steps: a role and iteration, or nothing (the last check passed). */
export function nextStep(steps: readonly StepRow[], verdict: Verdict | null): { role: Role; iteration: number } | null {
  const last = steps[steps.length - 1];
  if (last === undefined) return { role: "plan", iteration: 1 };
  const it = Math.max(1, last.iteration);
  if (last.status === "fail") return { role: last.role, iteration: it };
  switch (last.role) {
    case "plan":
      return { role: "do", iteration: it };
    case "do":
      return { role: "check", iteration: it };
    case "check":
      return verdict === "PASS" ? null : { role: "act", iteration: it };
    case "act":
      return { role: "plan", iteration: it + 1 };
  }
}

function progress(ctx: Ctx, p: Omit<RunProgress, "runId" | "elapsedMs">): void {
  ctx.onProgress?.({ ...p, runId: ctx.runId, elapsedMs: Date.now() - ctx.started });
}

function stepRow(ctx: Ctx, index: number, role: Role, iteration: number, o: StepOutcome): StepRow {
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

async function ackEvents(ctx: Ctx, step: number, acks: NonNullable<StepOutcome["acks"]>): Promise<{ events: EventSpec[]; merged: Acknowledgement[] }> {
  const r = await recordAcknowledgements(ctx.root, step, acks);
  const events: EventSpec[] = [];
  if (r.recorded.length > 0)
    events.push({
      type: "drift_acknowledged",
      message: `step ${step} acknowledged ${r.recorded.length} file${r.recorded.length === 1 ? "" : "s"}: ${r.recorded.map((a) => a.path).join(", ")}`,
      data: { step_index: step, acks: r.recorded },
    });
  if (r.ignored.length > 0)
    events.push({
      type: "acknowledgement_ignored",
      message: `ignored: ${r.ignored.map((i) => `${i.path} (${i.reason})`).join("; ")}`,
      data: { step_index: step, ignored: r.ignored },
    });
  return { events, merged: mergeAcknowledgements(ctx.acks, r.recorded) };
}

/** Who the transcript says patched: the act agent (`act agent: exec node tools/x.mjs`, `act agent: claude` + its model). */
function actActor(agent: AgentConfig | undefined): { kind: "agent"; name: string; model?: string } {
  if (agent === undefined || agent.type === "builtin") return { kind: "agent", name: "act agent" };
  if (agent.type === "exec" || agent.type === "acp") {
    const label = `act agent: ${agent.type} ${agent.cmd.join(" ")}`;
    return { kind: "agent", name: label.length > 100 ? `${label.slice(0, 99)}…` : label };
  }
  return { kind: "agent", name: `act agent: ${agent.type}`, ...(agent.model !== undefined ? { model: agent.model } : {}) };
}

/** Apply a committed act step's patch (pending in kv): outcome as run decisions. */
async function applyPending(ctx: Ctx, pending: PendingPatch): Promise<End | null> {
  const stepRowOf = ctx.steps.find((s) => s.step_index === pending.step);
  if (stepRowOf === undefined) return { status: "failed", reason: `internal: pending patch of unknown step ${pending.step}`, events: [] };
  const dir = abs(ctx.root, stepRowOf.step_dir);
  const planned = planPatch(ctx.root, dir);
  const clear = (tx: NormaTx) => tx.db.run("DELETE FROM kv_run WHERE run_id = ? AND key = 'pending_patch'", [ctx.runId]);
  if (!planned.ok || planned.plan === null) {
    const problem = planned.ok ? "the patch files are gone" : planned.problem;
    await normaTransaction(ctx.root, (tx) => {
      tx.event(ctx.runId, "patch_invalid", `step ${pending.step}: ${problem}`, { step_index: pending.step });
      tx.updateStep(ctx.runId, pending.step, { status: "fail", summary: `patch rejected: ${problem}` });
      clear(tx);
    });
    stepRowOf.status = "fail";
    return { status: "failed", reason: `the act step's patch was rejected: ${problem}`, events: [] };
  }
  const plan = planned.plan;
  const breach = budgetBreach(plan, ctx.budgets, ctx.config.risky, ctx.changedFiles);
  if (breach !== null) return budgetStop(ctx, breach, pending);
  const agent = ctx.config.agents.act;
  const result = await applyPatchPlan(ctx.root, ctx.runId, pending.step, plan, {
    actor: actActor(agent),
    reason: `noma-reconcile run ${ctx.runId}, step ${pending.step} (act)`,
    started: async (before, backup) => {
      await normaTransaction(ctx.root, (tx) => {
        tx.event(ctx.runId, "patch_started", `applying the patch of step ${pending.step}: ${plan.touched.length} file${plan.touched.length === 1 ? "" : "s"}`, {
          step_index: pending.step,
          files: plan.touched,
          head_before: before.head,
          status_before: before.status,
          backup: backup.slice(ctx.root.length + 1),
        });
        tx.setKv(ctx.runId, "pending_patch", { ...pending, started: true });
      });
    },
  });
  const backupDir = abs(ctx.root, patchBackupDir(ctx.runId, pending.step));
  if (!result.ok) {
    await normaTransaction(ctx.root, (tx) => {
      tx.event(
        ctx.runId,
        "patch_failed",
        `the patch of step ${pending.step} failed (${result.stage}): ${result.problem}; the work tree was ${result.restored ? "restored" : "restored from the backup, but git status differs — check it"}`,
        {
          step_index: pending.step,
          stage: result.stage,
          problem: result.problem,
          restored: result.restored,
          head_before: result.before.head,
          status_before: result.before.status,
          head_after: result.after.head,
          status_after: result.after.status,
        },
      );
      tx.updateStep(ctx.runId, pending.step, { status: "fail", summary: `patch failed (${result.stage}): ${result.problem}` });
      clear(tx);
    });
    removeBackup(backupDir);
    stepRowOf.status = "fail";
    return { status: "failed", reason: `the act step's patch failed (${result.stage}): ${result.problem}`, events: [] };
  }
  const ack =
    pending.acks !== undefined ? await ackEvents(ctx, pending.step, pending.acks as NonNullable<StepOutcome["acks"]>) : { events: [], merged: ctx.acks };
  const changed = [...new Set([...ctx.changedFiles, ...plan.touched])].sort();
  ctx.iteration += 1;
  await normaTransaction(ctx.root, (tx) => {
    tx.event(
      ctx.runId,
      "patch_applied",
      `the patch of step ${pending.step} was applied: ${plan.touched.join(", ")}${result.transcripts > 0 ? ` (${result.transcripts} transcript record${result.transcripts === 1 ? "" : "s"})` : ""}`,
      {
        step_index: pending.step,
        files: plan.touched,
        noma_documents: plan.noma.map((e) => e.file),
        transcript_records: result.transcripts,
        head_before: result.before.head,
        status_before: result.before.status,
        head_after: result.after.head,
        status_after: result.after.status,
      },
    );
    for (const e of ack.events) tx.event(ctx.runId, e.type, e.message, e.data);
    tx.setKv(ctx.runId, "acks", ack.merged);
    tx.setKv(ctx.runId, "changed_files", changed);
    tx.updateRun(ctx.runId, { iteration: ctx.iteration });
    clear(tx);
  });
  removeBackup(backupDir);
  ctx.acks = ack.merged;
  ctx.changedFiles = changed;
  return null;
}

async function budgetStop(ctx: Ctx, breach: BudgetBreach, pending: PendingPatch): Promise<End> {
  const msg = `${breach.budget} exceeded: the patch of step ${pending.step} would make it ${breach.value} (limit ${breach.limit}); nothing was applied`;
  await normaTransaction(ctx.root, (tx) => tx.setKv(ctx.runId, "pending_patch", { ...pending, reason: breach.budget }));
  return { status: "stopped", reason: msg, events: [{ type: "budget_exceeded", message: msg, data: breach }] };
}

async function onPass(ctx: Ctx): Promise<EventSpec[]> {
  const events: EventSpec[] = [];
  if (!ctx.mark) return [{ type: "marking_skipped", message: "PASS: the governed files were not marked reconciled (--no-mark)" }];
  if (ctx.specs.length === 0) return [];
  const { markReconciled } = await import("../reconcile/mark-reconciled.js");
  const { snapshotState } = await import("../reconcile/snapshot-state.js");
  const builtin = ctx.config.agents.check?.type === "builtin";
  const acks = new Map(ctx.acks.map((a) => [`${a.spec}\0${a.path}`, a]));
  for (const spec of ctx.specs) {
    const pending = await pendingDrift(ctx.root, spec, { onWarning: ctx.onWarning });
    const files = pending.filter((p) => p.hash !== null && (!builtin || acks.get(`${spec}\0${p.path}`)?.hash === p.hash)).map((p) => p.path);
    const skipped = pending.filter((p) => !files.includes(p.path)).map((p) => p.path);
    if (files.length > 0) {
      const r = await markReconciled(ctx.root, { files, specPath: spec }, { onWarning: ctx.onWarning });
      events.push({
        type: "marked_reconciled",
        message: `${spec}: marked ${r.updated} file${r.updated === 1 ? "" : "s"} reconciled: ${files.join(", ")}`,
        data: { spec, files, updated: r.updated },
      });
    }
    if (skipped.length > 0)
      events.push({
        type: "mark_skipped",
        message: `${spec}: not marked (changed after the check, or deleted): ${skipped.join(", ")}`,
        data: { spec, files: skipped },
      });
  }
  // Nothing newly reconciled: the committed snapshot already says all there is; rewriting it would only churn its HEAD and time.
  if (!events.some((e) => e.type === "marked_reconciled") && existsSync(abs(ctx.root, SNAPSHOT_PATH))) {
    events.push({ type: "snapshot_unchanged", message: `nothing was newly reconciled; ${SNAPSHOT_PATH} left as it is` });
    return events;
  }
  const snap = await snapshotState(ctx.root, { onWarning: ctx.onWarning });
  events.push({
    type: "snapshot_written",
    message: `wrote .notarai/reconciliation_state.json: ${snap.files} file and ${snap.specs} spec fingerprints`,
    data: { ...snap, state_path: ".notarai/reconciliation_state.json" },
  });
  return events;
}

async function finish(ctx: Ctx, end: End): Promise<void> {
  await normaTransaction(ctx.root, (tx) => {
    for (const e of end.events) tx.event(ctx.runId, e.type, e.message, e.data);
    tx.updateRun(ctx.runId, { status: end.status, ...(ctx.verdict !== null ? { verdict: ctx.verdict } : {}) });
    tx.event(ctx.runId, `run_${end.status}`, end.reason, { iteration: ctx.iteration, verdict: ctx.verdict });
  });
}

function isAborted(ctx: Ctx): boolean {
  return ctx.signal?.aborted === true;
}

async function drive(ctx: Ctx): Promise<End> {
  const pendingRaw = (await readNormaState(ctx.root))?.kv(ctx.runId).get("pending_patch") as PendingPatch | undefined;
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
      const events = await onPass(ctx);
      return { status: "passed", reason: "the check passed: every acceptance criterion holds", events };
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
    progress(ctx, { iteration, role, index, phase: "start" });
    const outcome = await executeStep({
      root: ctx.root,
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
    let end: End | null = null;
    let pending: PendingPatch | null = null;
    let runUpdate: Parameters<NormaTx["updateRun"]>[1] = {};

    // Files a do or act agent changed itself (the workspace tools of `mcp --step`): they count
    // against the run's file budgets like a patch's; the next check judges them.
    if ((role === "do" || role === "act") && outcome.worktreeChanges !== null && outcome.worktreeChanges.length > 0) {
      ctx.changedFiles = [...new Set([...ctx.changedFiles, ...outcome.worktreeChanges])].sort();
      kv["changed_files"] = ctx.changedFiles;
      const breach = filesBreach(ctx.changedFiles, ctx.budgets, ctx.config.risky);
      if (breach !== null && outcome.status !== "fail") {
        const msg = `${breach.budget} exceeded: the ${role} agent of step ${index} changed ${outcome.worktreeChanges.join(", ")}, which makes it ${breach.value} (limit ${breach.limit}); the changes are in the work tree (overwritten versions in the workspace archive)`;
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
      events.push({
        type: "verdict",
        message: `${ctx.verdict}${failed.length > 0 ? `: ${failed.join(", ")} failed` : ""}`,
        data: { step_index: index, verdict: ctx.verdict, failed, scorecard: `${outcome.stepDirRel}/scorecard.md` },
      });
      if (ctx.verdict === "FAIL" && ctx.config.agents.act !== undefined && iteration >= ctx.budgets.max_iterations) {
        const msg = `max_iterations exceeded: iteration ${iteration} of ${ctx.budgets.max_iterations} ended with FAIL`;
        end = {
          status: "stopped",
          reason: msg,
          events: [{ type: "budget_exceeded", message: msg, data: { budget: "max_iterations", limit: ctx.budgets.max_iterations, value: iteration } }],
        };
      }
    } else if (role === "do" && outcome.acks !== null) {
      const a = await ackEvents(ctx, index, outcome.acks);
      events.push(...a.events);
      kv["acks"] = a.merged;
      ctx.acks = a.merged;
    } else if (role === "act") {
      const planned = planPatch(ctx.root, outcome.tmpDir);
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
        kv["pending_patch"] = pending;
      }
    }
    await commitStep(ctx.root, { tmpDir: outcome.tmpDir, step: row, events, run: runUpdate, kv });
    ctx.steps.push(row);
    progress(ctx, { iteration, role, index, phase: "end", status: row.status, summary: row.summary ?? "" });
    if (end !== null) return end;
    if (pending !== null) {
      const e = await applyPending(ctx, pending);
      if (e !== null) return e;
    }
  }
}

function summaries(ctx: Ctx): RunStepSummary[] {
  return ctx.steps.map((s) => ({ index: s.step_index, role: s.role, iteration: s.iteration, status: s.status, summary: s.summary, step_dir: s.step_dir }));
}

/** Start (or resume) a run and drive it to its end. */
export async function runLoop(o: RunLoopOptions): Promise<RunResult> {
  const root = o.root;
  const env = o.env ?? process.env;
  const onWarning = o.onWarning ?? (() => {});
  const config = loadRunConfig(root);
  const wsConfig = loadConfig({ cwd: root, read: (p) => (existsSync(join(root, p)) ? readTextFile(join(root, p)) : null), onWarning });
  if (o.resume === undefined) {
    const specs = [...new Set(o.specs ?? [])];
    const ac = o.ac ?? [];
    if (specs.length === 0 && ac.length === 0)
      throw new RunSetupError("a run needs acceptance criteria: give --spec PATH (criteria are generated from it) or --ac ID=TEXT");
    if (ac.length > 0 && config.agents.check?.type === "builtin")
      throw new RunSetupError(
        "--ac criteria are free text, which the built-in check cannot judge; configure a check agent in .norma/config.json (agents.check), or use --spec alone",
      );
    if (specs.length > 0) {
      const sctx = loadSpecContext(root, { onWarning });
      for (const s of specs) requireSpec(sctx, s, { requireData: true });
    }
  }
  checkAgentBinaries(root, config, env);
  ensureNormaDir(root);
  const release = acquireRunLock(root, o.lockWaitMs);
  try {
    const recovery = await recoverRuns(root);
    let ctx: Ctx;
    const records: RecordPaths = { ledger: wsConfig.workspace.ledger, archive: wsConfig.workspace.archive };
    const base = {
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
    if (o.resume === undefined) {
      const specs = [...new Set(o.specs ?? [])];
      const criteria: RunCriterion[] = [
        ...(specs.length > 0 ? generateCriteria(specs, wsConfig.workspace.test) : []),
        ...(o.ac ?? []).map((c) => ({ ...c, kind: "custom" as const })),
      ];
      const ids = new Set<string>();
      for (const c of criteria) {
        if (ids.has(c.id)) throw new RunSetupError(`two acceptance criteria have the id ${c.id}; give each --ac a different id`);
        ids.add(c.id);
      }
      const goal =
        o.goal ??
        `Reconcile ${specs.join(", ")}: no unreconciled drift, valid documents and transcripts${wsConfig.workspace.test !== null ? ", the tests pass" : ""}`;
      const budgets: Budgets = { ...config.budgets, ...(o.maxIterations !== undefined ? { max_iterations: o.maxIterations } : {}) };
      const startHead = headOrNull(root);
      const mark = o.mark !== false;
      const runId = await createRun(root, { goal, criteria, budgets, specs, mark, startHead, config });
      ctx = { ...base, runId, goal, criteria, budgets, specs, mark, startHead, steps: [], verdict: null, iteration: 1, acks: [], changedFiles: [] };
    } else {
      const state = await readNormaState(root);
      const run = state?.runs.find((r) => r.run_id === o.resume);
      if (state === null || run === undefined) throw new RunSetupError(`no run ${o.resume} in .norma/norma.db (\`noma-reconcile runs list\` lists them)`);
      if (run.status === "passed") throw new RunSetupError(`run ${run.run_id} already passed; start a new run instead`);
      const kv = state.kv(run.run_id);
      if (!kv.has("criteria"))
        throw new RunSetupError(
          `run ${run.run_id} has no recorded acceptance criteria (its database record was recovered after a crash at its start); start a new run instead`,
        );
      const budgets: Budgets = {
        ...((kv.get("budgets") as Budgets | undefined) ?? config.budgets),
        ...(o.maxIterations !== undefined ? { max_iterations: o.maxIterations } : {}),
      };
      const mark = o.mark === false ? false : ((kv.get("mark") as boolean | undefined) ?? true);
      ctx = {
        ...base,
        runId: run.run_id,
        goal: run.goal,
        criteria: (kv.get("criteria") as RunCriterion[] | undefined) ?? [],
        budgets,
        specs: (kv.get("specs") as string[] | undefined) ?? [],
        mark,
        startHead: (kv.get("start_head") as string | null | undefined) ?? null,
        steps: state.steps(run.run_id),
        verdict: run.verdict,
        iteration: Math.max(1, run.iteration),
        acks: (kv.get("acks") as Acknowledgement[] | undefined) ?? [],
        changedFiles: (kv.get("changed_files") as string[] | undefined) ?? [],
      };
      if (ctx.criteria.some((c) => c.kind === "custom") && config.agents.check?.type === "builtin")
        throw new RunSetupError(
          `run ${run.run_id} has free-text criteria, which the built-in check cannot judge; configure a check agent in .norma/config.json`,
        );
      await normaTransaction(root, (tx) => {
        tx.updateRun(run.run_id, { status: "running" });
        tx.setKv(run.run_id, "budgets", budgets);
        tx.event(run.run_id, "run_resumed", `run resumed after step ${ctx.steps[ctx.steps.length - 1]?.step_index ?? 0} (was ${run.status})`, {
          previous_status: run.status,
          budgets,
        });
      });
    }
    let end: End;
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
