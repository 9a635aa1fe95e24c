/**
 * `noma-reconcile reconcile`, the CI mode of the run loop (the Action's
 * `mode: reconcile`): find the specs with open drift (or take `--spec`), run
 * the loop on them with the configured agents — in the run's own worktree — and
 * publish a passed run's commit for review (publish-run.ts): a pull request
 * opened or updated, or a commit onto the pull request's branch. Without a token
 * the run's branch stays local and the result says what would have been done.
 */
import { commitMessage } from "../git/commit-worktree.js";
import { loadSpecContext } from "../reconcile/load-spec-context.js";
import { pendingDrift } from "./pending-drift.js";
import { publishRun, type PublishResult, type PublishTarget } from "./publish-run.js";
import { runLoop, type RunLoopOptions, type RunResult } from "./run-loop.js";

export interface ReconcileDriftOptions extends Pick<RunLoopOptions, "maxIterations" | "mcpCommand" | "signal" | "onProgress" | "lockWaitMs"> {
  root: string;
  /** The specs to reconcile (default: every spec with open drift). */
  specs?: readonly string[];
  env: NodeJS.ProcessEnv;
  target: PublishTarget;
  remote: string;
  prBase?: string;
  prBranch?: string;
  onWarning?: (m: string) => void;
}

export interface ReconcileDriftResult {
  specs: string[];
  run: RunResult | null;
  publish: PublishResult | null;
  /** One sentence: what happened. */
  message: string;
  /** 0: nothing to do, or the result is published (or would be, without a token); 1: the run did not pass. */
  exit: 0 | 1;
}

/** Every valid spec whose governed files have open drift (read-only). */
export async function specsWithDrift(root: string, onWarning?: (m: string) => void): Promise<string[]> {
  const ctx = loadSpecContext(root, onWarning !== undefined ? { onWarning } : {});
  const out: string[] = [];
  for (const f of ctx.specs.files) {
    if (f.data === null) continue;
    if ((await pendingDrift(root, f.path, onWarning !== undefined ? { onWarning } : {})).length > 0) out.push(f.path);
  }
  return out.sort();
}

export async function reconcileDrift(o: ReconcileDriftOptions): Promise<ReconcileDriftResult> {
  const specs = o.specs !== undefined && o.specs.length > 0 ? [...o.specs] : await specsWithDrift(o.root, o.onWarning);
  if (specs.length === 0) return { specs, run: null, publish: null, message: "no spec has open drift: nothing to reconcile", exit: 0 };
  const run = await runLoop({
    root: o.root,
    specs,
    env: o.env,
    ...(o.maxIterations !== undefined ? { maxIterations: o.maxIterations } : {}),
    ...(o.mcpCommand !== undefined ? { mcpCommand: o.mcpCommand } : {}),
    ...(o.signal !== undefined ? { signal: o.signal } : {}),
    ...(o.onProgress !== undefined ? { onProgress: o.onProgress } : {}),
    ...(o.onWarning !== undefined ? { onWarning: o.onWarning } : {}),
    ...(o.lockWaitMs !== undefined ? { lockWaitMs: o.lockWaitMs } : {}),
  });
  if (run.status !== "passed")
    return {
      specs,
      run,
      publish: null,
      message:
        `run ${run.run_id} ${run.status}: ${run.reason}; nothing published ` + `(its branch ${run.worktree.branch} and worktree ${run.worktree.dir} are kept)`,
      exit: 1,
    };
  if (run.commit === null || run.commit.commit === null)
    return { specs, run, publish: null, message: `run ${run.run_id} passed without changing anything: nothing to publish`, exit: 0 };
  const msg = commitMessage(o.root, run.commit.commit);
  const publish = await publishRun({
    root: o.root,
    env: o.env,
    target: o.target,
    remote: o.remote,
    runId: run.run_id,
    branch: run.worktree.branch,
    commit: run.commit.commit,
    base: run.worktree.base,
    title: msg.subject,
    body: msg.body,
    ...(o.prBase !== undefined ? { prBase: o.prBase } : {}),
    ...(o.prBranch !== undefined ? { prBranch: o.prBranch } : {}),
  });
  const pr = publish.pull_request;
  return {
    specs,
    run,
    publish,
    message:
      publish.dry_run_reason !== null
        ? `run ${run.run_id} passed; ${publish.dry_run_reason}: the result stays on ${run.worktree.branch}; with a token it ` +
          `would ${publish.plan.join(", then ")}`
        : `run ${run.run_id} passed; pushed ${run.commit.commit.slice(0, 12)} to ${publish.remote} ` +
          `as ${publish.ref}${pr !== null ? ` and ${pr.action} pull request #${pr.number} (${pr.url})` : ""}`,
    exit: 0,
  };
}
