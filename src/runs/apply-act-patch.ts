/**
 * Patch application (norma §9), done by the loop, never by the agent: an act
 * step's `patch.diff` (unified diff, applied with `git apply`) and/or
 * `patch.noma.json` (`[{file, ops}]`, applied through the Noma patch engine,
 * which validates each op and appends a transcript record).
 *
 *   1. the paths it touches (`git apply --numstat`; each document of
 *      patch.noma.json and its transcript) must be inside the repository and
 *      outside `.git/` and `.norma/`;
 *   2. budgets: `max_patch_kb` (this patch), `max_changed_files` and
 *      `max_risky_files` (files changed by the run's applied patches,
 *      this one included) — exceeded: nothing is applied, the run stops;
 *   3. `git apply --check` — a patch that does not apply changes nothing;
 *   4. the before-state of every touched path is saved (worktree-backup.ts)
 *      and `patch_started` is committed with HEAD and `git status`;
 *   5. `git apply`, then the Noma ops, then every .noma document the diff
 *      changed is validated as `check` does (errors fail the patch);
 *   6. success: `patch_applied` with HEAD and `git status` after; failure:
 *      the before-state is restored byte for byte (untracked files
 *      included) and verified against the recorded status.
 *
 * A process killed between 4 and 6 leaves the backup and `patch_started`
 * without an outcome: recovery restores the backup (recover-runs.ts).
 */
import { applyPatchFile, checkPatchFile, patchFilePaths } from "../git/apply-patch-file.js";
import { NORMA_DIR } from "../layout/norma-layout.js";
import { worktreeStatusText } from "../git/worktree-status.js";
import { headCommit } from "../git/read-ref.js";
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { GitError } from "../git/exec-git.js";
import { PathContainment, PathOutsideRepoError } from "../fsx/contain-path.js";
import { compileGlob } from "../governance/glob.js";
import { NomaPatchFileSchema, parseJsonAs, type Budgets, type NomaPatchEntry } from "./agent-protocol.js";
import { crashPoint } from "./crash-point.js";
import { readBackup, removeBackup, restoreBackup, writeBackup } from "./worktree-backup.js";

export interface PatchPlan {
  diff: string | null;
  /** patch.diff's path inside the step (absolute), when present. */
  diffPath: string | null;
  noma: NomaPatchEntry[];
  /** Repo-relative paths the patch touches. */
  touched: string[];
  /** Documents changed by patch.diff (validated after applying). */
  diffDocuments: string[];
  sizeKb: number;
}

export type PlanResult = { ok: true; plan: PatchPlan | null } | { ok: false; problem: string };

export interface GitState {
  head: string | null;
  status: string;
}

export function gitState(root: string): GitState {
  let head: string | null = null;
  try {
    head = headCommit(root);
  } catch {
    head = null;
  }
  // Our own state (.norma/) is left out: the record is about the user's tree.
  const status = worktreeStatusText(root, { exclude: [NORMA_DIR] });
  return { head, status };
}

const FORBIDDEN = [/^\.git(\/|$)/, /^\.norma(\/|$)/];

/** Read and vet an act step's patch files (nothing is applied). */
export function planPatch(root: string, stepDir: string): PlanResult {
  const diffPath = join(stepDir, "patch.diff");
  const nomaPath = join(stepDir, "patch.noma.json");
  const hasDiff = existsSync(diffPath);
  const hasNoma = existsSync(nomaPath);
  if (!hasDiff && !hasNoma) return { ok: true, plan: null };
  let diff: string | null = null;
  let size = 0;
  const touched: string[] = [];
  // The paths patch.diff touches, as git reads them (one `git apply --numstat` per plan).
  let diffPaths: string[] = [];
  if (hasDiff) {
    diff = readFileSync(diffPath, "utf8");
    size += statSync(diffPath).size;
    if (diff.trim().length > 0) {
      try {
        diffPaths = patchFilePaths(root, diffPath);
        touched.push(...diffPaths);
      } catch (e) {
        return { ok: false, problem: `patch.diff is not a patch git can read: ${e instanceof GitError ? e.stderr || e.message : (e as Error).message}` };
      }
    } else diff = null;
  }
  let noma: NomaPatchEntry[] = [];
  if (hasNoma) {
    size += statSync(nomaPath).size;
    const parsed = parseJsonAs<NomaPatchEntry[]>(NomaPatchFileSchema, readFileSync(nomaPath, "utf8"), "patch.noma.json");
    if (!parsed.ok) return { ok: false, problem: parsed.problems.join("; ") };
    noma = parsed.value;
  }
  const contained = new PathContainment(root);
  const norm = (given: string): string => contained.contain(given, root);
  try {
    for (let i = 0; i < touched.length; i++) touched[i] = norm(touched[i]!);
    noma = noma.map((e) => ({ ...e, file: norm(e.file) }));
  } catch (e) {
    if (e instanceof PathOutsideRepoError) return { ok: false, problem: `${e.given}: the patch reaches outside the repository` };
    throw e;
  }
  for (const e of noma) touched.push(e.file, `${e.file}.patches`);
  for (const p of touched) if (FORBIDDEN.some((r) => r.test(p))) return { ok: false, problem: `${p}: a patch may not change .git/ or .norma/` };
  const uniq = [...new Set(touched)].sort();
  return {
    ok: true,
    plan: {
      diff,
      diffPath: diff !== null ? diffPath : null,
      noma,
      touched: uniq,
      diffDocuments:
        diff !== null ? [...new Set(diffPaths.map((p) => norm(p)))].filter((p) => p.toLowerCase().endsWith(".noma") && existsSync(join(root, p))) : [],
      sizeKb: size / 1024,
    },
  };
}

export interface BudgetBreach {
  budget: "max_patch_kb" | "max_changed_files" | "max_risky_files";
  limit: number;
  value: number;
}

/** The first budget this patch would exceed, given the files earlier patches and edits of the run changed. */
export function budgetBreach(plan: PatchPlan, budgets: Budgets, risky: readonly string[], changedBefore: readonly string[]): BudgetBreach | null {
  if (budgets.max_patch_kb !== undefined && plan.sizeKb > budgets.max_patch_kb)
    return { budget: "max_patch_kb", limit: budgets.max_patch_kb, value: Math.round(plan.sizeKb * 10) / 10 };
  return filesBreach([...changedBefore, ...plan.touched], budgets, risky);
}

/** The first of `max_changed_files`, `max_risky_files` the run's changed files (all of them, this step's included) exceed. */
export function filesBreach(changed: readonly string[], budgets: Budgets, risky: readonly string[]): BudgetBreach | null {
  const all = new Set(changed);
  if (budgets.max_changed_files !== undefined && all.size > budgets.max_changed_files)
    return { budget: "max_changed_files", limit: budgets.max_changed_files, value: all.size };
  if (budgets.max_risky_files !== undefined && risky.length > 0) {
    const tests = risky.map((g) => compileGlob(g));
    const n = [...all].filter((p) => tests.some((t) => t(p))).length;
    if (n > budgets.max_risky_files) return { budget: "max_risky_files", limit: budgets.max_risky_files, value: n };
  }
  return null;
}

export interface ApplyHooks {
  /** Commit `patch_started` (after the backup exists, before the tree changes). */
  started: (before: GitState, backupDir: string) => Promise<void>;
  actor: { kind: "agent"; name: string; model?: string };
  reason: string;
}

export type ApplyResult =
  | { ok: true; before: GitState; after: GitState; transcripts: number }
  | {
      ok: false;
      stage: "check" | "apply" | "noma" | "validate";
      problem: string;
      before: GitState;
      after: GitState;
      /** Whether anything was written to the tree (false: the patch failed `git apply --check`). */
      touched: boolean;
      /** When touched: the backup was put back and git status and HEAD are as before; null when nothing was touched. */
      restored: boolean | null;
    };

/** Apply a vetted plan (budgets already checked) to the work tree at `root`, the before-state saved in `backupDir`. On failure the tree is as it was. */
export async function applyPatchPlan(root: string, backupDir: string, plan: PatchPlan, hooks: ApplyHooks): Promise<ApplyResult> {
  const before = gitState(root);
  if (plan.diffPath !== null) {
    try {
      checkPatchFile(root, plan.diffPath);
    } catch (e) {
      return {
        ok: false,
        stage: "check",
        problem: `patch.diff does not apply: ${e instanceof GitError ? e.stderr || e.message : (e as Error).message}`,
        before,
        after: gitState(root),
        touched: false,
        restored: null,
      };
    }
  }
  removeBackup(backupDir);
  const manifest = writeBackup(root, plan.touched, backupDir);
  await hooks.started(before, backupDir);
  crashPoint("patch-started");
  let failure: { stage: "apply" | "noma" | "validate"; problem: string } | null = null;
  let transcripts = 0;
  try {
    if (plan.diffPath !== null) applyPatchFile(root, plan.diffPath);
    crashPoint("patch-diff-applied");
    if (plan.noma.length > 0) {
      const { patchDocument } = await import("../editing/patch-document.js");
      const { worktreeChapterLookup } = await import("../check/worktree-books.js");
      for (const e of plan.noma) {
        // A chapter of a book is validated in its book, as check and the hook judge it.
        const validate = { resolveOutside: worktreeChapterLookup(root, true, e.file) };
        const r = patchDocument(join(root, e.file), e.ops, { actor: hooks.actor, reason: hooks.reason, reuse: false, validate });
        transcripts += r.lines.length;
        if (r.outcome.result === "rejected") {
          failure = {
            stage: "noma",
            problem: `${e.file}: the patch engine rejected the ops (${r.outcome.error?.code ?? "rejected"}: ${r.outcome.error?.message ?? ""})`,
          };
          break;
        }
      }
    }
    if (failure === null && plan.diffDocuments.length > 0) {
      const { checkWorktree } = await import("../check/check-worktree.js");
      const run = await checkWorktree({ root, inRepo: true, cwd: root, paths: plan.diffDocuments });
      const errors = run.results.flatMap((r) =>
        r.diagnostics.filter((d) => d.severity === "error").map((d) => `${r.file}${d.pos !== undefined ? `:${d.pos.line}` : ""}: ${d.message} [${d.code}]`),
      );
      if (errors.length > 0)
        failure = {
          stage: "validate",
          problem: `patch.diff leaves invalid .noma documents: ${errors.slice(0, 5).join("; ")}${errors.length > 5 ? ` (+${errors.length - 5} more)` : ""}`,
        };
    }
  } catch (e) {
    failure = {
      stage: plan.diffPath !== null && transcripts === 0 ? "apply" : "noma",
      problem: e instanceof GitError ? `git apply failed: ${e.stderr || e.message}` : (e as Error).message,
    };
  }
  crashPoint("patch-before-outcome");
  if (failure !== null) {
    restoreBackup(root, backupDir, manifest);
    const after = gitState(root);
    const restored = after.status === before.status && after.head === before.head;
    return { ok: false, ...failure, before, after, touched: true, restored };
  }
  return { ok: true, before, after: gitState(root), transcripts };
}

/** Undo a patch left half-applied by a killed process; false when there is no usable backup. */
export function rollBackPatch(root: string, backupDir: string): boolean {
  const m = readBackup(backupDir);
  if (m === null) return false;
  restoreBackup(root, backupDir, m);
  return true;
}
