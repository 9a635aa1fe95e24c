/**
 * `noma-reconcile check [paths…]`: validate documents, transcripts, sidecars
 * and specs and print diagnostics; `check --staged` (the pre-commit hook)
 * judges the index instead of the work tree.
 *
 * This module stays light on purpose: `--staged` first asks git (one call)
 * what is staged and returns at once when nothing it judges is, so a commit
 * that touches no .noma document, transcript, sidecar, spec or configuration
 * never loads the parser, yaml or zod. When something is staged, git starts
 * reading the staged blobs while the rest (`check-run.ts`) is imported.
 */
import { checkedPathKind } from "../../layout/checked-path.js";
import { GitError } from "../../git/exec-git.js";
import { NOTHING_STAGED, SKIP_ENV } from "../../hooks/hook-script.js";
import { listStagedEntries } from "../../git/list-staged-files.js";
import { prefetchStaged } from "../../check/staged/prefetch-staged.js";
import type { RawDiffEntry } from "../../git/parse-diff-raw.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import type { LoadFixes } from "./check-run.js";

function skipRequested(env: NodeJS.ProcessEnv): boolean {
  const v = env[SKIP_ENV];
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

export async function checkCommand(paths: string[], options: Record<string, unknown>, io: CliIO, loadFixes: LoadFixes): Promise<number> {
  let staged: RawDiffEntry[] | undefined;
  if (options["staged"] === true) {
    if (options["watch"] === true) throw new UsageError("--watch re-judges the work tree on change; --staged judges the index once: give one of them");
    if (paths.length > 0) throw new UsageError("--staged judges what is staged and takes no paths");
    if (skipRequested(io.env)) {
      io.stderr(`noma-reconcile: ${SKIP_ENV} is set; staged files not checked.\n`);
      return 0;
    }
    try {
      staged = listStagedEntries(io.cwd);
    } catch (e) {
      if (e instanceof GitError && e.status !== null) throw new UsageError(`--staged needs a git repository: ${e.stderr || e.message}`);
      throw e;
    }
    const textFormat = options["format"] === undefined || options["format"] === "text";
    if (textFormat && !staged.some((e) => checkedPathKind(e.path) !== null)) {
      io.stderr(`noma-reconcile: ${NOTHING_STAGED}\n`);
      return 0;
    }
  }
  const prefetch = staged !== undefined ? prefetchStaged(io.cwd, staged) : undefined;
  return (await import("./check-run.js")).checkRun(paths, options, io, staged, prefetch, loadFixes);
}
