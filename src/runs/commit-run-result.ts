/**
 * A passed run's result as one commit on its branch (`noma-reconcile/run/<id>`):
 * everything its worktree changed — code, documents, their transcripts, the
 * snapshot the PASS wrote — except the run's own state (`.norma/`, the hash
 * cache) and the workspace tools' records (the evidence ledger and the archive,
 * which stay in the worktree for the run's report). One Conventional Commit
 * naming the run, the specs and the verdict, with `Noma-Reconcile-Run` and
 * `Noma-Reconcile-Verdict` trailers. Hooks are off: the run's check judged
 * what is committed, and `ci` judges the branch.
 *
 * Idempotent over a crash: when nothing is left to stage but the branch already
 * has this run's commit (the process died between `git commit` and recording
 * it), that commit is the result.
 */
import { readFileSync } from "node:fs";
import { commitIndex, commitsWithTrailer, stageAllExcept, stagedChanges, type CommitIdentity } from "../git/commit-worktree.js";
import { abs, NORMA_DIR } from "../layout/norma-layout.js";
import { CACHE_DIR } from "../governance/governance.js";
import type { EventSpec } from "./commit-step.js";
import { crashPoint } from "./crash-point.js";
import type { RunCommit, RunContext } from "./run-context.js";

export const RUN_TRAILER = "Noma-Reconcile-Run";

/** Paths a run's commit leaves out (from the worktree's top level). */
export function uncommittedRecords(ctx: Pick<RunContext, "records">): string[] {
  return [NORMA_DIR, CACHE_DIR, ctx.records.ledger, ctx.records.archive.replace(/\/+$/, "")];
}

/** Who commits when git has no identity: the Actions bot inside GitHub Actions, else the tool. */
export function fallbackIdentity(env: NodeJS.ProcessEnv): CommitIdentity {
  return env["GITHUB_ACTIONS"] === "true"
    ? { name: "github-actions[bot]", email: "41898282+github-actions[bot]@users.noreply.github.com" }
    : { name: "noma-reconcile", email: "noma-reconcile@localhost" };
}

function heldCriteria(ctx: RunContext): string[] {
  const check = [...ctx.steps].reverse().find((s) => s.role === "check" && s.status === "ok");
  if (check === undefined) return [];
  try {
    const v = JSON.parse(readFileSync(abs(ctx.root, `${check.step_dir}/verdict.json`), "utf8")) as { criteria?: Array<{ id?: unknown; pass?: unknown }> };
    return (v.criteria ?? []).filter((c) => c.pass === true && typeof c.id === "string").map((c) => c.id as string);
  } catch {
    return [];
  }
}

/** The commit message (pure but for the verdict file it names). */
export function runCommitMessage(ctx: RunContext, files: ReadonlyArray<{ status: string; path: string }>): string {
  const what = ctx.specs.length > 0 ? `reconcile ${ctx.specs.join(", ")}` : ctx.goal.length > 60 ? `${ctx.goal.slice(0, 59)}…` : ctx.goal;
  const held = heldCriteria(ctx);
  const iterations = Math.max(1, ...ctx.steps.map((s) => s.iteration));
  const shown = files.slice(0, 30).map((f) => `  ${f.status} ${f.path}`);
  return [
    `chore(reconcile): ${what} (run ${ctx.runId}, PASS)`,
    "",
    `Goal: ${ctx.goal}`,
    `Verdict: PASS after ${iterations} iteration${iterations === 1 ? "" : "s"}${held.length > 0 ? `; ${held.join(", ")} hold` : ""}`,
    ...(ctx.specs.length > 0 ? [`Specs: ${ctx.specs.join(", ")}`] : []),
    "Files:",
    ...shown,
    ...(files.length > shown.length ? [`  (+${files.length - shown.length} more)`] : []),
    "",
    `Record: noma-reconcile runs show ${ctx.runId}`,
    "",
    `${RUN_TRAILER}: ${ctx.runId}`,
    "Noma-Reconcile-Verdict: PASS",
    "",
  ].join("\n");
}

/** Commit the run's result on its branch; the events that record it, and the commit. */
export function commitRunResult(ctx: RunContext): { commit: RunCommit; events: EventSpec[] } {
  const wt = ctx.worktree;
  stageAllExcept(ctx.workspace, uncommittedRecords(ctx));
  const files = stagedChanges(ctx.workspace);
  if (files.length === 0) {
    const earlier = commitsWithTrailer(ctx.workspace, `${wt.base}..HEAD`, `${RUN_TRAILER}: ${ctx.runId}`)[0];
    if (earlier === undefined)
      return {
        commit: { branch: wt.branch, commit: null, files: [] },
        events: [
          { type: "nothing_to_commit", message: `the run changed nothing: branch ${wt.branch} stays at ${wt.base.slice(0, 12)}`, data: { branch: wt.branch } },
        ],
      };
    return {
      commit: { branch: wt.branch, commit: earlier, files: [] },
      events: [
        {
          type: "run_committed",
          message: `the run's result is commit ${earlier.slice(0, 12)} on ${wt.branch} (made before the process was interrupted)`,
          data: { branch: wt.branch, commit: earlier, files: [] },
        },
      ],
    };
  }
  const commit = commitIndex(ctx.workspace, runCommitMessage(ctx, files), fallbackIdentity(ctx.env));
  crashPoint("run-committed");
  return {
    commit: { branch: wt.branch, commit, files },
    events: [
      {
        type: "run_committed",
        message:
          `committed ${files.length} file${files.length === 1 ? "" : "s"} on ${wt.branch} ` +
          `as ${commit.slice(0, 12)}: ${files.map((f) => f.path).join(", ")}`,
        data: { branch: wt.branch, commit, files },
      },
    ],
  };
}
