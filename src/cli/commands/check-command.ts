/**
 * `noma-reconcile check [paths…]`: validate documents, transcripts and specs
 * and print diagnostics; `check --staged` (the pre-commit hook) judges the
 * index instead of the work tree.
 *
 * This module stays light on purpose: `--staged` first asks git (one call)
 * what is staged and returns at once when nothing it judges is, so a commit
 * that touches no .noma document, transcript, sidecar, spec or configuration
 * never loads the parser, yaml or zod. Everything heavy is imported below,
 * only when there is something to judge.
 */
import { appendFileSync } from "node:fs";
import { checkedPathKind } from "../../check/checked-path.js";
import { GitError } from "../../git/exec-git.js";
import { PathOutsideRepoError } from "../../fsx/contain-path.js";
import { SKIP_ENV } from "../../hooks/hook-script.js";
import { listStagedFiles } from "../../staged/list-staged-files.js";
import { RuntimeError, UsageError } from "../cli-error.js";
import { useColor, type CliIO } from "../cli-io.js";
import { choice, listOption, repoContext } from "../repo-context.js";

const FORMATS = ["text", "json", "github", "sarif"] as const;

function skipRequested(env: NodeJS.ProcessEnv): boolean {
  const v = env[SKIP_ENV];
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

export async function checkCommand(paths: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"], FORMATS);
  let staleDays: number | undefined;
  if (options["staleDays"] !== undefined) {
    staleDays = Number(options["staleDays"]);
    if (!Number.isInteger(staleDays) || staleDays < 0) throw new UsageError(`--stale-days must be a whole number of days; got "${String(options["staleDays"])}"`);
  }
  const configPath = options["config"] !== undefined ? String(options["config"]) : undefined;
  const staged = options["staged"] === true;
  let stagedPaths: string[] | undefined;
  if (staged) {
    if (paths.length > 0) throw new UsageError("--staged judges what is staged and takes no paths");
    if (skipRequested(io.env)) {
      io.stderr(`noma-reconcile: ${SKIP_ENV} is set; staged files not checked.\n`);
      return 0;
    }
    try {
      stagedPaths = listStagedFiles(io.cwd);
    } catch (e) {
      if (e instanceof GitError && e.exitCode !== null) throw new UsageError(`--staged needs a git repository: ${e.stderr || e.message}`);
      throw e;
    }
    if (format === "text" && !stagedPaths.some((p) => checkedPathKind(p) !== null)) {
      io.stderr("noma-reconcile: nothing staged to check (no .noma documents, transcripts, sidecars, specs or configuration).\n");
      return 0;
    }
  }

  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo && paths.length === 0) {
    throw new UsageError("not inside a git repository: pass the .noma files or directories to check");
  }
  const document: { ignoreRules: string[]; profile?: string; staleDays?: number } = { ignoreRules: listOption(options["ignoreRule"]) };
  if (options["profile"] !== undefined) document.profile = String(options["profile"]);
  if (staleDays !== undefined) document.staleDays = staleDays;
  const onWarning = (m: string): void => io.stderr(`noma-reconcile: ${m}\n`);
  const common = { cwd: io.cwd, document, onWarning, ...(configPath !== undefined ? { configPath } : {}) };

  let run;
  try {
    if (stagedPaths !== undefined) {
      const { checkStaged } = await import("../../staged/check-staged.js");
      run = checkStaged({ root: ctx.root, staged: stagedPaths, ...common });
    } else {
      const { checkWorktree } = await import("../../check/check-worktree.js");
      run = checkWorktree({ root: ctx.root, inRepo: ctx.inRepo, paths, ...common });
    }
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new UsageError(e.message);
    if ((e as Error).name === "MissingPathError") throw new UsageError((e as Error).message);
    if (e instanceof GitError) throw new RuntimeError(e.message, { cause: e });
    throw e;
  }

  const { renderCheckReport } = await import("../../check/render-check-report.js");
  const { countDiagnostics } = await import("../../report/file-diagnostics.js");
  const title = staged ? "noma-reconcile check --staged" : "noma-reconcile check";
  const out = renderCheckReport(run.results, format, { color: useColor(options["color"], io.env, io.stdoutIsTTY), title, json: staged ? { staged: true } : {} });
  io.stdout(out.stdout);
  const summaryFile = io.env["GITHUB_STEP_SUMMARY"];
  if (out.summary !== null && summaryFile !== undefined && summaryFile !== "") appendFileSync(summaryFile, out.summary);
  const counts = countDiagnostics(run.results);
  if (format === "text") {
    if (run.results.length === 0) io.stderr(staged ? "Nothing staged to check.\n" : "No .noma documents found.\n");
    else io.stderr(`${counts.files} ${counts.files === 1 ? "file" : "files"} checked${staged ? " (staged)" : ""}: ${counts.errors} errors, ${counts.warnings} warnings.\n`);
    if (staged && counts.errors > 0) io.stderr(`Commit blocked. Fix the errors above and stage the fixes; to skip this check once: git commit --no-verify (or ${SKIP_ENV}=1).\n`);
  }
  return counts.errors > 0 ? 1 : 0;
}
