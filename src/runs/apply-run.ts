/**
 * `runs apply <id>` (and `run --apply`): bring a passed run's commit into the
 * branch checked out in the user's checkout — only when it applies cleanly to a
 * clean checkout, and otherwise say exactly why not, changing nothing:
 *
 * - the run must have passed with a commit (a run that changed nothing has
 *   nothing to apply; one already in the branch is not applied twice);
 * - HEAD must be on a branch, and no tracked file may have uncommitted changes
 *   (staged or not) — `.norma/`'s own files excepted;
 * - no untracked file may stand where the commit adds one;
 * - the commit must apply without conflicts: a fast-forward when HEAD is an
 *   ancestor of it, else a cherry-pick worked out on a temporary index first
 *   (git/replay-commit.ts).
 *
 * Then the branch moves (`git merge --ff-only`), the files the run marked
 * reconciled are marked in the user's hash cache too (the same contents), and
 * `run_applied` is recorded.
 */
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { GitError } from "../git/exec-git.js";
import { commitOf, currentBranch, headCommit } from "../git/read-ref.js";
import { isAncestor } from "../git/resolve-commit.js";
import { planReplay, replayCommit } from "../git/replay-commit.js";
import { worktreeStatus } from "../git/worktree-status.js";
import { NORMA_DIR } from "../layout/norma-layout.js";
import { normaTransaction, readNormaState } from "./norma-db.js";
import { RunSetupError } from "./run-setup-error.js";
import { fallbackIdentity } from "./commit-run-result.js";

export type ApplyOutcome = "applied" | "already-applied" | "nothing-to-apply" | "refused";

export interface ApplyRunResult {
  run_id: string;
  outcome: ApplyOutcome;
  /** What happened, or why not, in one sentence that names files and what to do. */
  message: string;
  branch: string | null;
  /** The run's commit on its branch. */
  commit: string | null;
  /** The branch it was (or would have been) applied onto. */
  onto: string | null;
  /** fast-forward or cherry-pick (applied only). */
  how: "fast-forward" | "cherry-pick" | null;
  head_before: string | null;
  head_after: string | null;
  /** Paths that stood in the way (uncommitted changes, untracked files, conflicts). */
  blocking: string[];
  /** Files marked reconciled in the user's hash cache, per spec. */
  marked: Array<{ spec: string; files: string[] }>;
}

interface StoredResult {
  branch?: unknown;
  commit?: unknown;
  files?: unknown;
}

function listed(paths: readonly string[]): string {
  return paths.length > 10 ? `${paths.slice(0, 10).join(", ")} (+${paths.length - 10} more)` : paths.join(", ");
}

export async function applyRun(
  root: string,
  runId: string,
  options: { env?: NodeJS.ProcessEnv; onWarning?: (m: string) => void } = {},
): Promise<ApplyRunResult> {
  const state = await readNormaState(root);
  const run = state?.runs.find((r) => r.run_id === runId);
  if (state === null || run === undefined) throw new RunSetupError(`no run ${runId} in .norma/norma.db (\`noma-reconcile runs list\` lists them)`);
  const kv = state.kv(runId);
  const stored = (kv.get("result") ?? null) as StoredResult | null;
  const branch = typeof stored?.branch === "string" ? stored.branch : null;
  const commit = typeof stored?.commit === "string" ? stored.commit : null;
  const out: ApplyRunResult = {
    run_id: runId,
    outcome: "refused",
    message: "",
    branch,
    commit,
    onto: currentBranch(root),
    how: null,
    head_before: headCommit(root),
    head_after: null,
    blocking: [],
    marked: [],
  };
  const refuse = (message: string, blocking: string[] = []): ApplyRunResult => ({ ...out, outcome: "refused", message, blocking, head_after: out.head_before });
  if (run.status !== "passed")
    return refuse(
      `run ${runId} has not passed (it is ${run.status}): there is no result to apply; its worktree and branch keep its work (\`noma-reconcile runs ` +
        `show ${runId}\`)`,
    );
  if (stored === null) return refuse(`run ${runId} passed before runs committed their results on a branch: its changes were made in your checkout`);
  if (commit === null)
    return { ...out, outcome: "nothing-to-apply", message: `run ${runId} passed without changing anything: nothing to apply`, head_after: out.head_before };
  if (commitOf(root, commit) === null)
    return refuse(`the commit of run ${runId} (${commit.slice(0, 12)}) is no longer in this repository (its branch ${branch ?? "?"} was deleted?)`);
  const head = out.head_before;
  if (head === null) return refuse("HEAD does not name a commit yet: check out the branch to apply onto");
  if (out.onto === null) return refuse(`HEAD is detached (at ${head.slice(0, 12)}): check out the branch to apply run ${runId} onto`);
  if (isAncestor(root, commit, head) === true)
    return { ...out, outcome: "already-applied", message: `run ${runId}'s commit ${commit.slice(0, 12)} is already in ${out.onto}`, head_after: head };
  const applied = kv.get("applied") as { commit?: unknown } | undefined;
  if (typeof applied?.commit === "string" && isAncestor(root, applied.commit, head) === true)
    return {
      ...out,
      outcome: "already-applied",
      message: `run ${runId} was already applied to ${out.onto} as ${applied.commit.slice(0, 12)}`,
      head_after: head,
    };
  const dirty = worktreeStatus(root, { exclude: [NORMA_DIR], untracked: "no" });
  if (dirty.length > 0) {
    const paths = [...new Set(dirty.map((d) => d.path))].sort();
    return refuse(
      `your checkout has uncommitted changes to tracked files (${listed(dirty.map((d) => `${d.code.trim()} ${d.path}`))}): commit or stash them, ` +
        `then apply run ${runId} again`,
      paths,
    );
  }
  const plan = planReplay(root, head, commit);
  if (plan.kind === "empty")
    return {
      ...out,
      outcome: "already-applied",
      message: `the changes of run ${runId} are already in ${out.onto} (applying its commit changes nothing)`,
      head_after: head,
    };
  if (plan.kind === "conflict")
    return refuse(
      `run ${runId}'s commit ${commit.slice(0, 12)} does not apply cleanly onto ${out.onto} (${head.slice(0, 12)}): ${
        plan.paths.length > 0 ? `conflicts in ${listed(plan.paths)}` : plan.detail.split("\n")[0]
      }; ${out.onto} moved on since the run started from ${String(kv.get("start_head") ?? "?").slice(0, 12)}: resolve it by hand (git ` +
        `cherry-pick ${commit.slice(0, 12)}), or start a new run from ${out.onto}`,
      plan.paths,
    );
  const added = (Array.isArray(stored.files) ? (stored.files as Array<{ status?: unknown; path?: unknown }>) : [])
    .filter((f) => f.status === "A" && typeof f.path === "string")
    .map((f) => f.path as string);
  const inTheWay = added.filter((p) => {
    try {
      lstatSync(join(root, p));
      return true;
    } catch {
      return false;
    }
  });
  if (inTheWay.length > 0)
    return refuse(`untracked files stand where run ${runId}'s commit adds files (${listed(inTheWay)}): move them away, then apply again`, inTheWay);
  let after: string;
  try {
    after = replayCommit(root, head, commit, plan, fallbackIdentity(options.env ?? process.env));
  } catch (e) {
    if (e instanceof GitError) return refuse(`git refused to bring run ${runId}'s commit into ${out.onto}: ${e.stderr || e.message}`);
    throw e;
  }
  // The user's cache learns what the run marked reconciled (the files now have the contents the run marked).
  const marks = state
    .events(runId)
    .filter((e) => e.type === "marked_reconciled" && e.data_json !== null)
    .map((e) => JSON.parse(e.data_json!) as { spec: string; files: string[] });
  if (marks.length > 0) {
    const { markReconciled } = await import("../reconcile/mark-reconciled.js");
    for (const m of marks) {
      const files = m.files.filter((f) => existsSync(join(root, f)));
      if (files.length === 0) continue;
      await markReconciled(root, { files, specPath: m.spec }, { ...(options.onWarning !== undefined ? { onWarning: options.onWarning } : {}) });
      out.marked.push({ spec: m.spec, files });
    }
  }
  const how = plan.kind;
  await normaTransaction(root, (tx) => {
    tx.setKv(runId, "applied", { commit: after, onto: out.onto, how, head_before: head });
    tx.event(
      runId,
      "run_applied",
      `applied to ${out.onto} by ${how === "fast-forward" ? "fast-forward" : "cherry-pick"}: ${head.slice(0, 12)} → ${after.slice(0, 12)}`,
      {
        onto: out.onto,
        how,
        commit: after,
        head_before: head,
      },
    );
  });
  return {
    ...out,
    outcome: "applied",
    how,
    head_after: after,
    message: `applied run ${runId} to ${out.onto} (${how === "fast-forward" ? "fast-forward" : "cherry-pick"}): ${head.slice(0, 12)} → ${after.slice(0, 12)}`,
  };
}
