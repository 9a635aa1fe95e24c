/**
 * `runs prune [--keep-last N] [--keep-days D] [--dry-run]`: remove old runs —
 * their records (the database rows, `.norma/runs/<id>/`), their worktrees and
 * their merged branches — printing each. A run is kept when it is one of the
 * newest `keep_last`, or younger than `keep_days` days (defaults: `retention`
 * of `.norma/config.json`, else 20 and 30).
 *
 * Never lost: a worktree with uncommitted changes (the workspace tools' records
 * — ledger, archive — and our own state aside) is never removed, and then
 * neither is its run; a branch whose commit is in no other branch (a passed
 * run's result nobody applied) is kept, and named. Prune holds the run lock
 * (no run is in progress) and runs recovery first.
 *
 * Crash-safe: each run directory is first renamed to a temp name (recovery
 * deletes those), then one transaction deletes every pruned run's rows, then
 * the directories go. Killed at any point, nothing a kept run needs is lost,
 * and a run left half-pruned (its row without its directory) goes on the next
 * prune.
 */
import { randomBytes } from "node:crypto";
import { existsSync, renameSync, rmSync } from "node:fs";
import { branchesUnder, deleteBranches } from "../git/branch-commands.js";
import { execGit, GitError } from "../git/exec-git.js";
import { currentBranch } from "../git/read-ref.js";
import { listWorktrees, pruneWorktreeRecords, removeWorktree, worktreeLinkProblem } from "../git/worktree-commands.js";
import { worktreeStatus } from "../git/worktree-status.js";
import { realpathLenient } from "../fsx/realpath-lenient.js";
import { removeTrees } from "../fsx/remove-trees.js";
import { abs, runDir, TMP_MARK } from "../layout/norma-layout.js";
import { uncommittedRecords } from "./commit-run-result.js";
import { crashPoint } from "./crash-point.js";
import { normaTransaction, readNormaState } from "./norma-db.js";
import type { RunRow } from "./norma-schema.js";
import { recoverRuns } from "./recover-runs.js";
import type { Retention } from "./run-config.js";
import { acquireRunLock } from "./run-lock.js";
import { RUN_BRANCH_PREFIX, worktreePath } from "./run-worktree-path.js";
import type { RecordPaths } from "./worktree-changes.js";

export interface PruneOptions {
  keepLast: number;
  keepDays: number;
  dryRun: boolean;
  /** The workspace tools' records (left out of a worktree's dirtiness). */
  records: RecordPaths;
  now?: Date;
  lockWaitMs?: number;
}

export interface PrunedRun {
  run_id: string;
  created_at: string;
  status: RunRow["status"];
  /** removed (or would be, with --dry-run), or kept and why. */
  record: "removed" | "kept";
  worktree: { dir: string; action: "removed" | "kept" | "none" } | null;
  branch: { name: string; action: "deleted" | "kept" | "none" } | null;
  /** Why something was kept, in words that say what to do. */
  note: string | null;
}

export interface PruneResult {
  dry_run: boolean;
  keep_last: number;
  keep_days: number;
  total: number;
  /** Every run old enough to go, oldest first: removed, or kept and why. */
  runs: PrunedRun[];
  removed: number;
}

interface StoredWorktree {
  dir: string;
  branch: string;
  base: string;
}

function storedWorktree(v: unknown): StoredWorktree | null {
  const w = v as Partial<StoredWorktree> | undefined;
  return typeof w?.dir === "string" && typeof w.branch === "string" && typeof w.base === "string" ? { dir: w.dir, branch: w.branch, base: w.base } : null;
}

/** The runs old enough to prune under a retention, oldest first (pure). */
export function runsToPrune(runs: readonly RunRow[], retention: Retention, now: Date): RunRow[] {
  const newestFirst = [...runs].sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.run_id < b.run_id ? 1 : -1));
  const cutoff = now.getTime() - retention.keep_days * 86_400_000;
  return newestFirst
    .slice(retention.keep_last)
    .filter((r) => Date.parse(r.created_at) < cutoff)
    .reverse();
}

/** Run branches merged somewhere: into HEAD or any local branch that is not a run branch. */
function mergedRunBranches(root: string): Set<string> {
  const out = new Set<string>();
  const heads = execGit(["for-each-ref", "--format=%(refname:short)", "refs/heads/"], { cwd: root })
    .split("\n")
    .filter((b) => b.length > 0 && !b.startsWith(RUN_BRANCH_PREFIX));
  const targets = heads.length > 0 ? heads : [];
  if (currentBranch(root) === null) targets.push("HEAD");
  for (const t of targets)
    for (const b of execGit(["for-each-ref", "--format=%(refname:short)", `--merged=${t}`, `refs/heads/${RUN_BRANCH_PREFIX}`], { cwd: root }).split("\n"))
      if (b.length > 0) out.add(b);
  return out;
}

/** `git worktree remove`, or git's reason it would not (nothing removed then). */
function removeWorktreeOrSay(root: string, path: string): string | null {
  try {
    removeWorktree(root, path);
    return null;
  } catch (e) {
    if (!(e instanceof GitError)) throw e;
    return e.stderr.length > 0 ? e.stderr.split("\n")[0]! : e.message;
  }
}

export async function pruneRuns(root: string, o: PruneOptions): Promise<PruneResult> {
  const release = acquireRunLock(root, o.lockWaitMs);
  try {
    await recoverRuns(root);
    const state = await readNormaState(root);
    const result: PruneResult = { dry_run: o.dryRun, keep_last: o.keepLast, keep_days: o.keepDays, total: state?.runs.length ?? 0, runs: [], removed: 0 };
    if (state === null) return result;
    const chosen = runsToPrune(state.runs, { keep_last: o.keepLast, keep_days: o.keepDays }, o.now ?? new Date());
    if (chosen.length === 0) return result;
    const worktrees = listWorktrees(root);
    const registered = new Map(worktrees.map((w) => [realpathLenient(w.path), w]));
    // Where each branch is checked out: git refuses to delete a branch checked out in a worktree.
    const checkedOut = new Map<string, string>();
    for (const w of worktrees) if (w.branch?.startsWith("refs/heads/") === true) checkedOut.set(w.branch.slice(11), realpathLenient(w.path));
    const branches = branchesUnder(root, RUN_BRANCH_PREFIX);
    const merged = mergedRunBranches(root);
    const exclude = uncommittedRecords({ records: o.records });
    const goBranches: string[] = [];
    const goDirs: Array<{ id: string; tmp: string }> = [];
    for (const run of chosen) {
      const kv = state.kv(run.run_id);
      const wt = storedWorktree(kv.get("worktree"));
      const entry: PrunedRun = {
        run_id: run.run_id,
        created_at: run.created_at,
        status: run.status,
        record: "removed",
        worktree: null,
        branch: null,
        note: null,
      };
      result.runs.push(entry);
      if (wt !== null) {
        const path = worktreePath(root, wt);
        const there = existsSync(path);
        const known = registered.has(realpathLenient(path));
        entry.worktree = { dir: wt.dir, action: there || known ? "removed" : "none" };
        if (there) {
          const link = known ? worktreeLinkProblem(path) : null;
          const dirty = known && link === null ? worktreeStatus(path, { exclude }) : [];
          if (link !== null) {
            entry.record = "kept";
            entry.worktree.action = "kept";
            entry.note = `its worktree ${wt.dir} could not be removed (${link}); fix or remove it by hand, then prune again`;
          } else if (dirty.length > 0) {
            const paths = [...new Set(dirty.map((d) => d.path))].sort();
            entry.record = "kept";
            entry.worktree.action = "kept";
            entry.note =
              `its worktree ${wt.dir} has uncommitted changes (${paths.length} ` +
              `path${paths.length === 1 ? "" : "s"}: ${paths.slice(0, 5).join(", ")}${paths.length > 5 ? ", …" : ""}); review them, then \`git ` +
              `worktree remove --force ${wt.dir}\` and prune again`;
          }
        }
        const tip = branches.get(wt.branch);
        const elsewhere = checkedOut.get(wt.branch);
        if (tip === undefined) entry.branch = { name: wt.branch, action: "none" };
        else if (entry.record === "kept") entry.branch = { name: wt.branch, action: "kept" };
        else if (elsewhere !== undefined && elsewhere !== realpathLenient(path)) {
          entry.branch = { name: wt.branch, action: "kept" };
          entry.note = `branch ${wt.branch} is kept: it is checked out at ${elsewhere} (\`git worktree remove\` that checkout first)`;
        } else {
          const applied = kv.get("applied") !== undefined;
          const isMerged = tip === wt.base || applied || merged.has(wt.branch);
          entry.branch = { name: wt.branch, action: isMerged ? "deleted" : "kept" };
          if (!isMerged)
            entry.note =
              `branch ${wt.branch} is kept: its commit ${tip.slice(0, 12)} is in no other branch (\`noma-reconcile runs apply\` needs the run's ` +
              `record; \`git branch -D ${wt.branch}\` drops it)`;
        }
      }
      if (entry.record === "kept" || o.dryRun) continue;
      // Worktree, branch, then the record: a crash leaves at worst a record whose worktree is gone.
      if (wt !== null && entry.worktree?.action === "removed") {
        const path = worktreePath(root, wt);
        if (existsSync(path)) {
          const failed = registered.has(realpathLenient(path)) ? removeWorktreeOrSay(root, path) : null;
          if (failed !== null) {
            // Git would not remove it (e.g. its `.git` file points at another repository): keep the run, say why.
            entry.record = "kept";
            entry.worktree.action = "kept";
            if (entry.branch?.action === "deleted") entry.branch.action = "kept";
            entry.note = `its worktree ${wt.dir} could not be removed (${failed}); fix or remove it by hand, then prune again`;
            continue;
          }
          rmSync(path, { recursive: true, force: true });
        }
      }
      if (entry.branch?.action === "deleted") goBranches.push(entry.branch.name);
      const dir = abs(root, runDir(run.run_id));
      if (existsSync(dir)) {
        const tmp = `${dir}${TMP_MARK}${randomBytes(4).toString("hex")}`;
        renameSync(dir, tmp);
        goDirs.push({ id: run.run_id, tmp });
      } else goDirs.push({ id: run.run_id, tmp: "" });
    }
    result.removed = result.runs.filter((r) => r.record === "removed").length;
    if (o.dryRun) return result;
    // Records of worktrees whose directories are gone go first: git keeps a branch checked out in one.
    pruneWorktreeRecords(root);
    if (goBranches.length > 0) deleteBranches(root, goBranches);
    crashPoint("prune-renamed");
    if (goDirs.length > 0)
      await normaTransaction(root, (tx) => {
        for (const g of goDirs) tx.deleteRun(g.id);
      });
    await removeTrees(goDirs.flatMap((g) => (g.tmp === "" ? [] : [g.tmp])));
    return result;
  } finally {
    release();
  }
}
