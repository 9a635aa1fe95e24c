/**
 * Reconciliation on start-up (norma §4.2), run by `run`, `run --resume`,
 * `runs list` and `runs show` while holding the run lock (so never under a
 * live run's feet):
 *
 * - an agent a killed run left running (its process group, recorded in
 *   `.norma/locks/agent.json`) is ended first;
 * - temp directories (`*.tmp-*`) of runs, steps and patch backups are
 *   deleted: nothing was committed from them; so is a patch backup whose
 *   application never started (the tree was not touched yet);
 * - a step directory without its `steps` row gets a minimal row
 *   (`status=fail`, the iteration its own input.json records) and a
 *   `reconciled_step` event — no verdict is guessed;
 *   a run directory without its `runs` row gets one (`status=failed`, the goal
 *   and the stored set-up from its run.json — so `run --resume` continues it —
 *   else the goal from its norma.md) and a `reconciled_run` event;
 * - a patch whose application was started but has no outcome is rolled back
 *   from its backup into the run's worktree (`patch_rolled_back`), its act
 *   step marked failed;
 * - a run still marked `running` (its process died: the lock was free) is
 *   marked `stopped` with a `run_interrupted` event, so `run --resume` can
 *   continue it.
 *
 * Only runs still marked `running` (and run directories without a row) are
 * scanned: a run that ended committed its last step before its end, so it
 * holds no debris. Everything the database lacks is repaired in one
 * transaction; nothing is written when there is nothing to repair.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { abs, parseStepDirName, runDir, RUN_ID_PATTERN, RUNS_DIR, stepDirName, TMP_MARK } from "../layout/norma-layout.js";
import { goalOfNormaMd } from "./norma-md.js";
import { readRunJson } from "./run-json.js";
import { worktreePath } from "./run-worktree-path.js";
import { normaTransaction, readNormaState } from "./norma-db.js";
import { gitState, rollBackPatch } from "./apply-act-patch.js";
import { statusDelta } from "./status-delta.js";
import { killOrphanAgent } from "./agents/agent-pid-file.js";
import type { RunRow, StepRow } from "./norma-schema.js";

export interface RecoveryReport {
  removedTemp: string[];
  insertedSteps: string[];
  insertedRuns: string[];
  rolledBack: string[];
  interrupted: string[];
  /** The pid of an orphaned agent (its run was killed) whose process group was ended. */
  killedAgent?: number;
}

export interface PendingPatch {
  step: number;
  /** Set once the backup exists and patch_started is committed. */
  started?: boolean;
  /** Why it is still pending (e.g. a budget stopped the run before applying it). */
  reason?: string;
  acks?: unknown[];
}

function listDirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

function mtimeIso(p: string): string {
  try {
    return statSync(p).mtime.toISOString();
  } catch {
    return new Date().toISOString();
  }
}

/** The iteration the step's own input.json records (the directory is complete: it was renamed into place). */
function recordedIteration(dir: string): number | null {
  try {
    const v = JSON.parse(readFileSync(`${dir}/input.json`, "utf8")) as { step?: { iteration?: unknown } };
    const it = v.step?.iteration;
    return typeof it === "number" && Number.isSafeInteger(it) && it > 0 ? it : null;
  } catch {
    return null;
  }
}

/** Without input.json: the previous step's iteration, one more after an act step. */
function inferredIteration(rows: readonly StepRow[], index: number, role: StepRow["role"]): number {
  const prev = [...rows].reverse().find((r) => r.step_index < index);
  if (prev === undefined) return 1;
  return prev.role === "act" && role === "plan" ? prev.iteration + 1 : Math.max(1, prev.iteration);
}

export async function recoverRuns(root: string): Promise<RecoveryReport> {
  const report: RecoveryReport = { removedTemp: [], insertedSteps: [], insertedRuns: [], rolledBack: [], interrupted: [] };
  const runsAbs = abs(root, RUNS_DIR);
  if (!existsSync(runsAbs) && !existsSync(abs(root, ".norma/norma.db"))) return report;
  // First end an agent a dead run left behind, so nothing writes into the temp directories removed below.
  const orphan = killOrphanAgent(root);
  if (orphan !== null) report.killedAgent = orphan;
  const state = await readNormaState(root);
  const known = new Map<string, RunRow>((state?.runs ?? []).map((r) => [r.run_id, r]));

  const missingRuns: Array<{ id: string; goal: string; created: string; kv: Record<string, unknown> | null }> = [];
  const missingSteps: StepRow[] = [];
  for (const name of listDirs(runsAbs)) {
    if (name.includes(TMP_MARK)) {
      rmSync(`${runsAbs}/${name}`, { recursive: true, force: true });
      report.removedTemp.push(`${RUNS_DIR}/${name}`);
      continue;
    }
    if (!RUN_ID_PATTERN.test(name)) continue;
    // A run that ended (passed, failed, stopped) committed its last step before its end: only a run
    // still marked running (its process died) or one without a row can hold debris. Skipping the
    // others keeps recovery cheap on a database of thousands of runs.
    const known0 = known.get(name);
    if (known0 !== undefined && known0.status !== "running") continue;
    const rdir = abs(root, runDir(name));
    for (const sub of ["steps", "patches"]) {
      for (const s of listDirs(`${rdir}/${sub}`)) {
        if (s.includes(TMP_MARK)) {
          rmSync(`${rdir}/${sub}/${s}`, { recursive: true, force: true });
          report.removedTemp.push(`${runDir(name)}/${sub}/${s}`);
        }
      }
    }
    const row = known.get(name);
    if (row === undefined) {
      const setup = readRunJson(rdir);
      let goal = setup?.goal ?? "(recovered: the run's database row was missing)";
      if (setup === null)
        try {
          goal = goalOfNormaMd(readFileSync(`${rdir}/norma.md`, "utf8")) ?? goal;
        } catch {
          /* no norma.md */
        }
      missingRuns.push({ id: name, goal, created: setup?.created_at ?? mtimeIso(rdir), kv: setup?.kv ?? null });
    }
    const rows = state?.steps(name) ?? [];
    const have = new Set(rows.map((s) => s.step_index));
    for (const s of listDirs(`${rdir}/steps`)) {
      const parsed = parseStepDirName(s);
      if (parsed === null || have.has(parsed.index)) continue;
      const when = mtimeIso(`${rdir}/steps/${s}`);
      const iteration = recordedIteration(`${rdir}/steps/${s}`) ?? inferredIteration(rows, parsed.index, parsed.role);
      missingSteps.push({
        run_id: name,
        step_index: parsed.index,
        role: parsed.role,
        iteration,
        status: "fail",
        step_dir: `${runDir(name)}/steps/${stepDirName(parsed.index, parsed.role)}`,
        started_at: when,
        ended_at: null,
        summary: "recovered: step directory existed without its database record",
      });
    }
    // A backup whose patch never started (patch_started not committed) guards nothing: the tree was not touched yet.
    const started = state?.kv(name).get("pending_patch") as PendingPatch | undefined;
    for (const b of listDirs(`${rdir}/patches`)) {
      if (b.includes(TMP_MARK)) continue;
      const m = /^(\d{3,})\.backup$/.exec(b);
      if (m !== null && started?.started === true && started.step === Number(m[1])) continue;
      rmSync(`${rdir}/patches/${b}`, { recursive: true, force: true });
      report.removedTemp.push(`${runDir(name)}/patches/${b}`);
    }
  }

  // Runs the database says are running (their process is gone: we hold the lock), and patches left mid-way.
  const interrupted = [...known.values()].filter((r) => r.status === "running").map((r) => r.run_id);
  const pendingPatches: Array<{ runId: string; pending: PendingPatch }> = [];
  for (const r of known.values()) {
    const p = state?.kv(r.run_id).get("pending_patch") as PendingPatch | undefined;
    if (p?.started === true) pendingPatches.push({ runId: r.run_id, pending: p });
  }
  if (missingRuns.length === 0 && missingSteps.length === 0 && interrupted.length === 0 && pendingPatches.length === 0) return report;

  const rolled = new Map<string, boolean>();
  const verdicts = new Map<string, { target: string; unchanged: boolean | null; delta: string; missing: string }>();
  for (const { runId, pending } of pendingPatches) {
    const dir = abs(root, `${runDir(runId)}/patches/${String(pending.step).padStart(3, "0")}.backup`);
    // The patch was being applied in the run's worktree (runs of older versions worked in the checkout).
    const wt = state?.kv(runId).get("worktree") as { dir?: unknown } | undefined;
    const target = typeof wt?.dir === "string" && wt.dir !== "" ? worktreePath(root, { dir: wt.dir }) : root;
    const ok = existsSync(target) && rollBackPatch(target, dir);
    rolled.set(runId, ok);
    // Compare with the state patch_started recorded: say what the restore achieved, not what it meant to.
    const started = [...(state?.events(runId) ?? [])].reverse().find((e) => e.type === "patch_started");
    const was =
      started?.data_json !== null && started !== undefined ? (JSON.parse(started.data_json) as { status_before?: unknown; head_before?: unknown }) : null;
    let unchanged: boolean | null = null;
    let delta = "";
    if (ok && was !== null && typeof was.status_before === "string") {
      const now = gitState(target);
      unchanged = now.status === was.status_before && now.head === was.head_before;
      if (!unchanged) delta = statusDelta(was.status_before, now.status);
    }
    const where = target === root ? "the work tree" : `the worktree ${wt?.dir as string}`;
    verdicts.set(runId, { target: where, unchanged, delta, missing: existsSync(target) ? "its backup is missing" : `${where} is gone` });
  }

  await normaTransaction(root, (tx) => {
    for (const r of missingRuns) {
      const steps = missingSteps.filter((s) => s.run_id === r.id);
      tx.insertRun({
        run_id: r.id,
        created_at: r.created,
        goal: r.goal,
        status: "failed",
        iteration: 0,
        current_step_index: Math.max(0, ...steps.map((s) => s.step_index)),
        verdict: null,
        run_dir: runDir(r.id),
      });
      if (r.kv !== null) for (const [k, v] of Object.entries(r.kv)) tx.setKv(r.id, k, v);
      tx.event(
        r.id,
        "reconciled_run",
        r.kv !== null
          ? "Run dir exists but DB record was missing; inserted during recovery, with the run's set-up from its run.json (`noma-reconcile run " +
              "--resume` continues it)"
          : "Run dir exists but DB record was missing; inserted during recovery",
      );
      report.insertedRuns.push(r.id);
    }
    for (const s of missingSteps) {
      tx.insertStep(s);
      tx.event(s.run_id, "reconciled_step", "Step dir exists but DB record was missing; inserted during recovery", {
        step_index: s.step_index,
        role: s.role,
        step_dir: s.step_dir,
      });
      const run = tx.run(s.run_id)!;
      if (run.current_step_index < s.step_index) tx.updateRun(s.run_id, { current_step_index: s.step_index });
      report.insertedSteps.push(s.step_dir);
    }
    for (const { runId, pending } of pendingPatches) {
      const ok = rolled.get(runId) === true;
      const v = verdicts.get(runId)!;
      tx.event(
        runId,
        ok ? "patch_rolled_back" : "patch_unrecoverable",
        ok
          ? `The patch of step ${pending.step} was being applied when the process died; ${v.target} was restored from its backup${
              v.unchanged === true
                ? " (git status as before the patch)"
                : v.unchanged === false
                  ? `, but git status differs from before the patch (${v.delta}) — check it`
                  : ""
            }`
          : `The patch of step ${pending.step} was being applied when the process died and ${v.missing}: nothing was restored; check ${v.target}`,
        { step_index: pending.step, restored: ok, status_unchanged: v.unchanged },
      );
      tx.updateStep(runId, pending.step, { status: "fail", summary: "patch interrupted and rolled back during recovery" });
      tx.db.run("DELETE FROM kv_run WHERE run_id = ? AND key = 'pending_patch'", [runId]);
      // The rolled-back proposal never took effect: the act step's retry may propose it again without being "stuck".
      tx.db.run("DELETE FROM kv_run WHERE run_id = ? AND key = 'last_change'", [runId]);
      report.rolledBack.push(runId);
    }
    for (const id of interrupted) {
      tx.updateRun(id, { status: "stopped" });
      tx.event(
        id,
        "run_interrupted",
        "The process running this run ended before the run did (crash or kill); it was marked stopped during recovery. Continue it with " +
          "`noma-reconcile run --resume`",
      );
      report.interrupted.push(id);
    }
  });
  for (const { runId, pending } of pendingPatches)
    if (rolled.get(runId) === true)
      rmSync(abs(root, `${runDir(runId)}/patches/${String(pending.step).padStart(3, "0")}.backup`), { recursive: true, force: true });
  return report;
}
