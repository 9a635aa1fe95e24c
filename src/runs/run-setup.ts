/**
 * Setting up a run's context: a new run (criteria generated from `--spec`
 * and/or given with `--ac`, goal, budgets, the commit it starts from — HEAD or
 * `--base`; its directory with `norma.md` and `run.json` written under a temp
 * name and renamed, then its row, its stored state and `run_started` in one
 * transaction, then its worktree, run-worktree.ts), or a resumed one (its
 * stored state read back through zod schemas, stored-run-state.ts — or, when
 * the process died before the database had it, rebuilt from `run.json` or
 * `norma.md`; the current budgets and `--max-iterations` applied; its worktree
 * checked, or made when it never was; `run_resumed`).
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveCommit } from "../git/resolve-commit.js";
import { GitRefError } from "../git/git-ref-error.js";
import { fsyncDir, fsyncTree } from "../fsx/fsync-tree.js";
import { abs, NORMA_DIR, runDir, RUNS_DIR, TMP_MARK } from "../layout/norma-layout.js";
import { worktreeStatus } from "../git/worktree-status.js";
import type { WorkspaceConfig } from "../config/config-defaults.js";
import { loadSpecContext } from "../reconcile/load-spec-context.js";
import { requireSpec } from "../reconcile/reconcile-context.js";
import type { AcceptanceCriterion, Budgets } from "./agent-protocol.js";
import { normaTransaction, readNormaState } from "./norma-db.js";
import { crashPoint } from "./crash-point.js";
import { formatNormaMd, setupOfNormaMd } from "./norma-md.js";
import { formatRunJson, readRunJson, RUN_JSON } from "./run-json.js";
import type { RunConfig } from "./run-config.js";
import type { RunContext } from "./run-context.js";
import { generateCriteria, type RunCriterion } from "./run-criteria.js";
import { RunSetupError } from "./run-setup-error.js";
import { readStored, STORED_RUN_STATE } from "./stored-run-state.js";
import { assertWorktreeIgnored, createWorktree, discardUnreadyWorktree, planWorktree, worktreeProblem } from "./run-worktree.js";
import { worktreePath, type RunWorktree } from "./run-worktree-path.js";

export interface NewRunRequest {
  goal?: string;
  /** Free-text criteria (`--ac`); they need a check agent. */
  ac?: readonly AcceptanceCriterion[];
  /** Spec paths, repository-relative. */
  specs?: readonly string[];
  maxIterations?: number;
  /** Mark reconciled and write the snapshot on PASS (default true). */
  mark?: boolean;
  /** The commit the run's worktree starts from (default HEAD). */
  base?: string;
}

/** What every run context shares, whether new or resumed. */
export type ContextBase = Pick<RunContext, "root" | "config" | "env" | "mcp" | "signal" | "started" | "onProgress" | "onWarning" | "records">;

/** The commit a new run starts from: `--base REF`, else HEAD; a repository without commits cannot run. */
function startCommit(root: string, base: string | undefined): string {
  try {
    return resolveCommit(root, base ?? "HEAD");
  } catch (e) {
    if (e instanceof GitRefError && e.code === "no-commits")
      throw new RunSetupError("the repository has no commit yet: a run works in its own worktree, branched from a commit; commit first");
    if (e instanceof GitRefError) throw new RunSetupError(`--base: ${e.message}`);
    throw e;
  }
}

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

interface NewRunRecord {
  runId: string;
  now: Date;
  goal: string;
  criteria: RunCriterion[];
  budgets: Budgets;
  specs: string[];
  mark: boolean;
  startHead: string;
  worktree: RunWorktree;
  config: RunConfig;
}

/** The run's stored state (kv_run), as run.json records it too. */
function storedSetup(o: NewRunRecord): Record<string, unknown> {
  return {
    criteria: o.criteria,
    budgets: o.budgets,
    specs: o.specs,
    mark: o.mark,
    start_head: o.startHead,
    worktree: o.worktree,
    agents: o.config.agents,
    risky: o.config.risky,
  };
}

async function createRun(root: string, o: NewRunRecord): Promise<void> {
  const { runId, now } = o;
  const final = abs(root, runDir(runId));
  const tmp = `${final}${TMP_MARK}${randomBytes(4).toString("hex")}`;
  mkdirSync(join(tmp, "steps"), { recursive: true });
  writeFileSync(
    join(tmp, "norma.md"),
    formatNormaMd({ runId, createdAt: now.toISOString(), goal: o.goal, criteria: o.criteria, budgets: o.budgets, specs: o.specs }),
  );
  const kv = storedSetup(o);
  writeFileSync(join(tmp, RUN_JSON), formatRunJson({ version: 1, run_id: runId, created_at: now.toISOString(), goal: o.goal, kv }));
  fsyncTree(tmp);
  renameSync(tmp, final);
  fsyncDir(abs(root, RUNS_DIR));
  crashPoint("run-dir-created");
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
    for (const [k, v] of Object.entries(kv)) tx.setKv(runId, k, v);
    tx.event(runId, "run_started", `run started: ${o.goal}`, {
      criteria: o.criteria.map((c) => c.id),
      budgets: o.budgets,
      specs: o.specs,
      head: o.startHead,
      worktree: o.worktree.dir,
      branch: o.worktree.branch,
      config: o.config.source,
    });
  });
}

/** Make the run's worktree (removing what a death inside `git worktree add` left), then record it ready. */
async function makeWorktree(root: string, runId: string, wt: RunWorktree, again: boolean): Promise<RunWorktree> {
  const removed = again ? discardUnreadyWorktree(root, wt) : [];
  createWorktree(root, wt);
  crashPoint("worktree-created");
  const ready = { ...wt, ready: true };
  await normaTransaction(root, (tx) => {
    tx.setKv(runId, "worktree", ready);
    tx.event(
      runId,
      "worktree_created",
      `${removed.length > 0 ? `made again (what an interrupted attempt left was removed: ${removed.join(", ")}): ` : ""}worktree ${wt.dir} on ` +
        `branch ${wt.branch}, from ${wt.base}`,
      { dir: wt.dir, branch: wt.branch, base: wt.base, removed },
    );
  });
  return ready;
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
  const startHead = startCommit(root, o.base);
  const mark = o.mark !== false;
  const now = new Date();
  const runId = newRunId(now);
  const planned = planWorktree(root, runId, config.worktrees.dir, startHead);
  assertWorktreeIgnored(root, planned);
  if (o.base === undefined) {
    const uncommitted = [...new Set(worktreeStatus(root, { exclude: [NORMA_DIR] }).map((e) => e.path))];
    if (uncommitted.length > 0)
      base.onWarning(
        `your checkout has ${uncommitted.length} uncommitted change${uncommitted.length === 1 ? "" : "s"} ` +
          `(${uncommitted.slice(0, 5).join(", ")}${uncommitted.length > 5 ? ", …" : ""}): the run works in its own worktree from HEAD ` +
          `(${startHead.slice(0, 12)}) and does not see ${uncommitted.length === 1 ? "it" : "them"}; commit first to ` +
          `include ${uncommitted.length === 1 ? "it" : "them"}`,
      );
  }
  await createRun(root, { runId, now, goal, criteria, budgets, specs, mark, startHead, worktree: planned, config });
  const worktree = await makeWorktree(root, runId, planned, false);
  return {
    ...base,
    workspace: worktreePath(root, worktree),
    worktree,
    runId,
    goal,
    criteria,
    budgets,
    specs,
    mark,
    startHead,
    steps: [],
    verdict: null,
    iteration: 1,
    acks: [],
    changedFiles: [],
    lastChange: undefined,
    driftCounts: [],
  };
}

/**
 * The set-up of a run whose database record lacks it (the process died between writing the run's
 * directory and its first transaction, and recovery inserted a bare row): from its run.json, else
 * from the specs and criteria its norma.md lists. Null when neither says enough.
 */
function rebuildSetup(root: string, runId: string, ws: WorkspaceConfig): { from: string; kv: Record<string, unknown> } | null {
  const dir = abs(root, runDir(runId));
  const recorded = readRunJson(dir);
  if (recorded !== null && recorded.kv["criteria"] !== undefined) return { from: `${runDir(runId)}/${RUN_JSON}`, kv: recorded.kv };
  if (!existsSync(join(dir, "norma.md"))) return null;
  const listed = setupOfNormaMd(readFileSync(join(dir, "norma.md"), "utf8"));
  if (listed.criteria.length === 0) return null;
  const generated = generateCriteria(listed.specs, ws.test);
  const criteria: RunCriterion[] = listed.criteria.map((c) => {
    const g = generated.find((x) => x.text === c.text);
    return g !== undefined ? { ...g, id: c.id } : { ...c, kind: "custom" as const };
  });
  return { from: `${runDir(runId)}/norma.md`, kv: { criteria, specs: listed.specs } };
}

/** What to type to start the run afresh, from what is known of it (a goal recovery made up is no goal). */
function startAfresh(specs: readonly string[], goal: string): string {
  if (specs.length > 0) return `noma-reconcile run ${specs.map((s) => `--spec ${s}`).join(" ")}`;
  return goal.startsWith("(recovered")
    ? "noma-reconcile run --spec <spec> (or --goal TEXT with --ac ID=TEXT)"
    : `noma-reconcile run --spec <spec> (or --goal ${JSON.stringify(goal)} with --ac ID=TEXT)`;
}

/** A stopped or failed run, continued after its last committed step, in its worktree. */
export async function setUpResumedRun(
  base: ContextBase,
  runId: string,
  o: { maxIterations?: number; mark?: boolean },
  ws: WorkspaceConfig,
): Promise<RunContext> {
  const { root, config } = base;
  const state = await readNormaState(root);
  const run = state?.runs.find((r) => r.run_id === runId);
  if (state === null || run === undefined) throw new RunSetupError(`no run ${runId} in .norma/norma.db (\`noma-reconcile runs list\` lists them)`);
  if (run.status === "passed") throw new RunSetupError(`run ${run.run_id} already passed; start a new run instead`);
  const kv = state.kv(run.run_id);
  const steps = state.steps(run.run_id);
  let rebuilt: { from: string; kv: Record<string, unknown> } | null = null;
  if (!kv.has("criteria")) {
    rebuilt = rebuildSetup(root, run.run_id, ws);
    if (rebuilt === null)
      throw new RunSetupError(
        `run ${run.run_id} cannot be resumed: its acceptance criteria were never recorded (the process died as the run started) ` +
          `and ${runDir(run.run_id)}/ holds neither ${RUN_JSON} nor a norma.md listing them; start afresh: ${startAfresh([], run.goal)}`,
      );
    for (const [k, v] of Object.entries(rebuilt.kv)) kv.set(k, v);
  }
  const criteria = readStored(kv, run.run_id, "criteria") ?? [];
  const specs = readStored(kv, run.run_id, "specs") ?? [];
  const stored = readStored(kv, run.run_id, "worktree");
  let worktree: RunWorktree;
  if (stored !== undefined) worktree = { dir: stored.dir, branch: stored.branch, base: stored.base, ready: stored.ready };
  else {
    if (steps.length > 0)
      throw new RunSetupError(
        `run ${run.run_id} started before runs had worktrees of their own: its steps worked in your checkout; start afresh: ${startAfresh(specs, run.goal)}`,
      );
    worktree = planWorktree(root, run.run_id, config.worktrees.dir, startCommit(root, undefined));
  }
  if (worktree.ready) {
    const problem = worktreeProblem(root, worktree);
    if (problem !== null)
      throw new RunSetupError(
        `run ${run.run_id} cannot be resumed: ${problem}; its records stay in ${runDir(run.run_id)}/ (\`noma-reconcile runs show ${run.run_id}\`); ` +
          `start afresh: ${startAfresh(specs, run.goal)}`,
      );
  } else assertWorktreeIgnored(root, worktree);
  const budgets: Budgets = {
    ...(readStored(kv, run.run_id, "budgets") ?? config.budgets),
    ...(o.maxIterations !== undefined ? { max_iterations: o.maxIterations } : {}),
  };
  const mark = o.mark === false ? false : (readStored(kv, run.run_id, "mark") ?? true);
  if (criteria.some((c) => c.kind === "custom") && config.agents.check?.type === "builtin")
    throw new RunSetupError(`run ${run.run_id} has free-text criteria, which the built-in check cannot judge; configure a check agent in .norma/config.json`);
  const startHead = readStored(kv, run.run_id, "start_head") ?? worktree.base;
  const planned = worktree;
  await normaTransaction(root, (tx) => {
    tx.updateRun(run.run_id, { status: "running" });
    tx.setKv(run.run_id, "budgets", budgets);
    if (rebuilt !== null) {
      for (const [k, v] of Object.entries(rebuilt.kv)) if (k in STORED_RUN_STATE || k === "agents" || k === "risky") tx.setKv(run.run_id, k, v);
      tx.event(run.run_id, "run_rebuilt", `the run's set-up was rebuilt from ${rebuilt.from} (its database record had been recovered without it)`, {
        from: rebuilt.from,
        criteria: criteria.map((c) => c.id),
        specs,
      });
    }
    tx.setKv(run.run_id, "worktree", planned);
    tx.setKv(run.run_id, "start_head", startHead);
    tx.event(run.run_id, "run_resumed", `run resumed after step ${steps[steps.length - 1]?.step_index ?? 0} (was ${run.status})`, {
      previous_status: run.status,
      budgets,
    });
  });
  if (!worktree.ready) worktree = await makeWorktree(root, run.run_id, worktree, true);
  return {
    ...base,
    workspace: worktreePath(root, worktree),
    worktree,
    runId: run.run_id,
    goal: run.goal,
    criteria,
    budgets,
    specs,
    mark,
    startHead,
    steps,
    verdict: run.verdict,
    iteration: Math.max(1, run.iteration),
    acks: readStored(kv, run.run_id, "acks") ?? [],
    changedFiles: readStored(kv, run.run_id, "changed_files") ?? [],
    lastChange: readStored(kv, run.run_id, "last_change"),
    driftCounts: readStored(kv, run.run_id, "drift_counts") ?? [],
  };
}
