/**
 * Setting up a run's context: a new run (criteria generated from `--spec`
 * and/or given with `--ac`, goal, budgets, the HEAD it starts from; its
 * directory and `norma.md` written under a temp name and renamed, then its row,
 * its stored state and `run_started` in one transaction), or a resumed one
 * (its stored state read back through zod schemas, stored-run-state.ts; the
 * current budgets and `--max-iterations` applied; `run_resumed`).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { headCommit } from "../git/read-ref.js";
import { fsyncDir, fsyncTree } from "../fsx/fsync-tree.js";
import { abs, runDir, RUNS_DIR, TMP_MARK } from "../layout/norma-layout.js";
import type { WorkspaceConfig } from "../config/config-defaults.js";
import { loadSpecContext } from "../reconcile/load-spec-context.js";
import { requireSpec } from "../reconcile/reconcile-context.js";
import type { AcceptanceCriterion, Budgets } from "./agent-protocol.js";
import { normaTransaction, readNormaState } from "./norma-db.js";
import { formatNormaMd } from "./norma-md.js";
import type { RunConfig } from "./run-config.js";
import type { RunContext } from "./run-context.js";
import { generateCriteria, type RunCriterion } from "./run-criteria.js";
import { RunSetupError } from "./run-setup-error.js";
import { readStored } from "./stored-run-state.js";

export interface NewRunRequest {
  goal?: string;
  /** Free-text criteria (`--ac`); they need a check agent. */
  ac?: readonly AcceptanceCriterion[];
  /** Spec paths, repository-relative. */
  specs?: readonly string[];
  maxIterations?: number;
  /** Mark reconciled and write the snapshot on PASS (default true). */
  mark?: boolean;
}

/** What every run context shares, whether new or resumed. */
export type ContextBase = Pick<RunContext, "root" | "config" | "env" | "mcp" | "signal" | "started" | "onProgress" | "onWarning" | "records">;

/** Refuse a new run that cannot be judged, before anything is written. */
export function vetNewRun(root: string, o: NewRunRequest, config: RunConfig, onWarning: (m: string) => void): void {
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

interface NewRunRecord {
  goal: string;
  criteria: RunCriterion[];
  budgets: Budgets;
  specs: string[];
  mark: boolean;
  startHead: string | null;
  config: RunConfig;
}

async function createRun(root: string, o: NewRunRecord): Promise<string> {
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

/** A new run: its criteria, goal and budgets decided, its record created. */
export async function setUpNewRun(base: ContextBase, o: NewRunRequest, ws: WorkspaceConfig): Promise<RunContext> {
  const { root, config } = base;
  const specs = [...new Set(o.specs ?? [])];
  const criteria: RunCriterion[] = [
    ...(specs.length > 0 ? generateCriteria(specs, ws.test) : []),
    ...(o.ac ?? []).map((c) => ({ ...c, kind: "custom" as const })),
  ];
  const ids = new Set<string>();
  for (const c of criteria) {
    if (ids.has(c.id)) throw new RunSetupError(`two acceptance criteria have the id ${c.id}; give each --ac a different id`);
    ids.add(c.id);
  }
  const goal = o.goal ?? `Reconcile ${specs.join(", ")}: no unreconciled drift, valid documents and transcripts${ws.test !== null ? ", the tests pass" : ""}`;
  const budgets: Budgets = { ...config.budgets, ...(o.maxIterations !== undefined ? { max_iterations: o.maxIterations } : {}) };
  const startHead = headOrNull(root);
  const mark = o.mark !== false;
  const runId = await createRun(root, { goal, criteria, budgets, specs, mark, startHead, config });
  return { ...base, runId, goal, criteria, budgets, specs, mark, startHead, steps: [], verdict: null, iteration: 1, acks: [], changedFiles: [] };
}

/** A stopped or failed run, continued after its last committed step. */
export async function setUpResumedRun(base: ContextBase, runId: string, o: { maxIterations?: number; mark?: boolean }): Promise<RunContext> {
  const { root, config } = base;
  const state = await readNormaState(root);
  const run = state?.runs.find((r) => r.run_id === runId);
  if (state === null || run === undefined) throw new RunSetupError(`no run ${runId} in .norma/norma.db (\`noma-reconcile runs list\` lists them)`);
  if (run.status === "passed") throw new RunSetupError(`run ${run.run_id} already passed; start a new run instead`);
  const kv = state.kv(run.run_id);
  const criteria = readStored(kv, run.run_id, "criteria");
  if (criteria === undefined)
    throw new RunSetupError(
      `run ${run.run_id} has no recorded acceptance criteria (its database record was recovered after a crash at its start); start a new run instead`,
    );
  const budgets: Budgets = {
    ...(readStored(kv, run.run_id, "budgets") ?? config.budgets),
    ...(o.maxIterations !== undefined ? { max_iterations: o.maxIterations } : {}),
  };
  const mark = o.mark === false ? false : (readStored(kv, run.run_id, "mark") ?? true);
  const ctx: RunContext = {
    ...base,
    runId: run.run_id,
    goal: run.goal,
    criteria,
    budgets,
    specs: readStored(kv, run.run_id, "specs") ?? [],
    mark,
    startHead: readStored(kv, run.run_id, "start_head") ?? null,
    steps: state.steps(run.run_id),
    verdict: run.verdict,
    iteration: Math.max(1, run.iteration),
    acks: readStored(kv, run.run_id, "acks") ?? [],
    changedFiles: readStored(kv, run.run_id, "changed_files") ?? [],
  };
  if (ctx.criteria.some((c) => c.kind === "custom") && config.agents.check?.type === "builtin")
    throw new RunSetupError(`run ${run.run_id} has free-text criteria, which the built-in check cannot judge; configure a check agent in .norma/config.json`);
  await normaTransaction(root, (tx) => {
    tx.updateRun(run.run_id, { status: "running" });
    tx.setKv(run.run_id, "budgets", budgets);
    tx.event(run.run_id, "run_resumed", `run resumed after step ${ctx.steps[ctx.steps.length - 1]?.step_index ?? 0} (was ${run.status})`, {
      previous_status: run.status,
      budgets,
    });
  });
  return ctx;
}
