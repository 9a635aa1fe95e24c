/**
 * Applying a committed act step's patch (pending in kv until it has an
 * outcome), as run decisions: a patch that cannot be read or vetted fails the
 * run (`patch_invalid`); one over a budget stops it with nothing applied
 * (`budget_exceeded`, the patch stays pending for `--resume`); otherwise it is
 * applied (apply-act-patch.ts) with `patch_started` committed before the tree
 * changes, and `patch_applied` or `patch_failed` after.
 */
import { abs, patchBackupDir } from "../layout/norma-layout.js";
import { join, relative } from "node:path";
import { applyPatchPlan, budgetBreach, planPatch, type ApplyResult, type BudgetBreach, type PatchPlan, type PlanResult } from "./apply-act-patch.js";
import { ackEvents } from "./ack-events.js";
import { statusDelta } from "./status-delta.js";
import type { ReconciledAck } from "./agent-protocol.js";
import { normaTransaction, type NormaTx } from "./norma-db.js";
import type { PendingPatch } from "./recover-runs.js";
import type { AgentConfig } from "./run-config.js";
import type { RunContext, RunEnd } from "./run-context.js";
import { removeBackup } from "./worktree-backup.js";

/**
 * What a failed patch did to the worktree, in words that match the recorded states: nothing written
 * (it failed `git apply --check`), written and restored (git status and HEAD as before), or restored
 * but different — then the backup is kept and named.
 */
export function describePatchFailure(
  result: Extract<ApplyResult, { ok: false }>,
  worktreeDir: string,
  backupRel: string,
): { tree: string; unchanged: boolean; keptBackup: boolean } {
  const unchanged = result.after.status === result.before.status && result.after.head === result.before.head;
  const delta = unchanged
    ? ""
    : `${statusDelta(result.before.status, result.after.status)}` +
      `${result.after.head !== result.before.head ? `, HEAD ${result.before.head} → ${result.after.head}` : ""}`;
  if (!result.touched)
    return {
      tree: unchanged
        ? `nothing was applied: the worktree ${worktreeDir} is as it was (git status before and after identical)`
        : `nothing was applied, but the worktree ${worktreeDir} changed meanwhile (git status: ${delta}) — check it`,
      unchanged,
      keptBackup: false,
    };
  return unchanged
    ? { tree: `the worktree ${worktreeDir} was restored from the backup (git status as before)`, unchanged, keptBackup: false }
    : {
        tree: `the worktree ${worktreeDir} was restored from the backup, but git status differs (${delta}) — check it; the backup is kept in ${backupRel}`,
        unchanged,
        keptBackup: true,
      };
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

/**
 * Apply a committed act step's patch (pending in kv): outcome as run decisions. `plannedFrom`: the plan the loop made of
 * the same files while the step was built, in its temp directory (the step's commit renamed that directory, nothing else
 * ran since): taken as it is, with patch.diff's path in the committed directory, rather than read and vetted again
 * (`git apply --numstat` once per act step). A resumed run plans from the committed directory.
 */
export async function applyPending(ctx: RunContext, pending: PendingPatch, plannedFrom?: { tmpDir: string; plan: PatchPlan }): Promise<RunEnd | null> {
  const stepRowOf = ctx.steps.find((s) => s.step_index === pending.step);
  if (stepRowOf === undefined) return { status: "failed", reason: `internal: pending patch of unknown step ${pending.step}`, events: [] };
  const dir = abs(ctx.root, stepRowOf.step_dir);
  const planned: PlanResult =
    plannedFrom !== undefined
      ? {
          ok: true,
          plan: {
            ...plannedFrom.plan,
            diffPath: plannedFrom.plan.diffPath !== null ? join(dir, relative(plannedFrom.tmpDir, plannedFrom.plan.diffPath)) : null,
          },
        }
      : planPatch(ctx.workspace, dir);
  const clear = (tx: NormaTx) => tx.db.run("DELETE FROM kv_run WHERE run_id = ? AND key = 'pending_patch'", [ctx.runId]);
  // A proposal that never took effect is no evidence of a stuck agent: the act step's retry may propose it again.
  const forget = (tx: NormaTx) => {
    tx.db.run("DELETE FROM kv_run WHERE run_id = ? AND key = 'last_change'", [ctx.runId]);
    ctx.lastChange = undefined;
  };
  if (!planned.ok || planned.plan === null) {
    const problem = planned.ok ? "the patch files are gone" : planned.problem;
    await normaTransaction(ctx.root, (tx) => {
      tx.event(ctx.runId, "patch_invalid", `step ${pending.step}: ${problem}`, { step_index: pending.step });
      tx.updateStep(ctx.runId, pending.step, { status: "fail", summary: `patch rejected: ${problem}` });
      clear(tx);
      forget(tx);
    });
    stepRowOf.status = "fail";
    return { status: "failed", reason: `the act step's patch was rejected: ${problem}`, events: [] };
  }
  const plan = planned.plan;
  const breach = budgetBreach(plan, ctx.budgets, ctx.config.risky, ctx.changedFiles);
  if (breach !== null) return budgetStop(ctx, breach, pending);
  const agent = ctx.config.agents.act;
  const backupDir = abs(ctx.root, patchBackupDir(ctx.runId, pending.step));
  const result = await applyPatchPlan(ctx.workspace, backupDir, plan, {
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
  if (!result.ok) {
    const told = describePatchFailure(result, ctx.worktree.dir, backupDir.slice(ctx.root.length + 1));
    await normaTransaction(ctx.root, (tx) => {
      tx.event(ctx.runId, "patch_failed", `the patch of step ${pending.step} failed (${result.stage}): ${result.problem}; ${told.tree}`, {
        step_index: pending.step,
        stage: result.stage,
        problem: result.problem,
        touched: result.touched,
        restored: result.restored,
        status_unchanged: told.unchanged,
        head_before: result.before.head,
        status_before: result.before.status,
        head_after: result.after.head,
        status_after: result.after.status,
        ...(told.keptBackup ? { backup: backupDir.slice(ctx.root.length + 1) } : {}),
      });
      tx.updateStep(ctx.runId, pending.step, { status: "fail", summary: `patch failed (${result.stage}): ${result.problem}` });
      clear(tx);
      forget(tx);
    });
    if (!told.keptBackup) removeBackup(backupDir);
    stepRowOf.status = "fail";
    return {
      status: "failed",
      reason:
        `the act step's patch failed (${result.stage}): ${result.problem}; ${told.tree}; \`noma-reconcile run --resume ${ctx.runId}\` tries the act ` +
        `step again`,
      events: [],
    };
  }
  const ack = pending.acks !== undefined ? await ackEvents(ctx, pending.step, pending.acks as ReconciledAck[]) : { events: [], merged: ctx.acks };
  const changed = [...new Set([...ctx.changedFiles, ...plan.touched])].sort();
  ctx.iteration += 1;
  await normaTransaction(ctx.root, (tx) => {
    tx.event(
      ctx.runId,
      "patch_applied",
      `the patch of step ${pending.step} was ` +
        `applied: ${plan.touched.join(", ")}` +
        `${result.transcripts > 0 ? ` (${result.transcripts} transcript record${result.transcripts === 1 ? "" : "s"})` : ""}`,
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

async function budgetStop(ctx: RunContext, breach: BudgetBreach, pending: PendingPatch): Promise<RunEnd> {
  const msg = `${breach.budget} exceeded: the patch of step ${pending.step} would make it ${breach.value} (limit ${breach.limit}); nothing was applied`;
  await normaTransaction(ctx.root, (tx) => tx.setKv(ctx.runId, "pending_patch", { ...pending, reason: breach.budget }));
  return { status: "stopped", reason: msg, events: [{ type: "budget_exceeded", message: msg, data: breach }] };
}
