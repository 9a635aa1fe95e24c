/**
 * What the reconciliation commands (specs, governs, coverage, affected, diff,
 * changed, mark-reconciled, cache, state) share: the repository they run in,
 * path arguments, the versioned JSON envelope, warnings on stderr, and the
 * mapping of library failures to exit codes (user-fixable → 2, never git's own
 * exit status).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { GitError } from "../../git/exec-git.js";
import { GitOutputError } from "../../git/parse-name-status.js";
import { LockTimeoutError } from "../../fsx/with-file-lock.js";
import { PathOutsideRepoError } from "../../fsx/contain-path.js";
import { TOOL_NAME } from "../../version.js";
import { formatJsonEnvelope, type OutputName } from "../../report/json-envelope.js";
import { RuntimeError, UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { choice, pathArg, repoContext, type RepoContext } from "../repo-context.js";
import { resolveCiBase, type CiBase } from "../../check/commit/resolve-ci-base.js";

export const TEXT_JSON = ["text", "json"] as const;
export type TextOrJson = (typeof TEXT_JSON)[number];

/** The repository the command runs in (from any subdirectory); outside one is an error. */
export function requireRepo(io: CliIO): RepoContext {
  const ctx = repoContext(io.cwd);
  if (!ctx.inRepo) throw new RuntimeError(`not inside a git repository (${io.cwd}); reconciliation works on the files git knows`);
  return ctx;
}

export function formatArg(options: Record<string, unknown>): TextOrJson {
  return choice("format", options["format"] ?? "text", TEXT_JSON);
}

/**
 * A spec path argument: relative to the working directory, or — when nothing
 * exists there — relative to the repository root (so `--spec .notarai/x.spec.yaml`
 * works from any subdirectory).
 */
export function specArg(given: string, ctx: RepoContext, cwd: string): string {
  const rel = pathArg(given, ctx, cwd);
  if (existsSync(join(ctx.root, rel))) return rel;
  const fromRoot = pathArg(given, ctx, ctx.root);
  return existsSync(join(ctx.root, fromRoot)) ? fromRoot : rel;
}

/** Why each base was chosen, in words (the same order `ci` tries them). */
export const BASE_REASONS: Readonly<Record<CiBase["source"], string>> = {
  option: "given with --base",
  pull_request: "the pull request's base, from the GitHub event",
  "pull_request-merge-commit": "the first parent of the pull request's merge commit",
  merge_group: "the merge group's base, from the GitHub event",
  push: "the commit before the push, from the GitHub event",
  "default-branch": "the default branch (origin/HEAD, else origin/main, origin/master, main, master)",
};

/**
 * The base `affected` and `diff` compare with, found the way `ci` finds it: `--base`,
 * else the GitHub event, else the default branch. An unusable `--base` is a usage error.
 */
export function baseArg(options: Record<string, unknown>, root: string, env: NodeJS.ProcessEnv): CiBase & { reason: string } {
  const given = options["base"];
  if (given !== undefined && (typeof given !== "string" || given === "")) throw new UsageError("--base needs a ref (the branch to compare with, e.g. main)");
  const base = resolveCiBase(root, { ...(typeof given === "string" ? { base: given } : {}), env });
  return { ...base, reason: BASE_REASONS[base.source] };
}

/** `summary.base` of `affected` and `diff`: which base, why. */
export function baseSummary(b: CiBase & { reason: string }): { ref: string; source: string; reason: string } {
  return { ref: b.ref, source: b.source, reason: b.reason };
}

/** Collects warnings, printing each to stderr as it comes. */
export function warningSink(io: CliIO): { warnings: string[]; onWarning: (m: string) => void } {
  const warnings: string[] = [];
  return {
    warnings,
    onWarning: (m) => {
      warnings.push(m);
      io.stderr(`${TOOL_NAME}: warning: ${m}\n`);
    },
  };
}

/** The JSON envelope (src/report/json-envelope.ts) + trailing newline. */
export function envelope(name: OutputName, ok: boolean, result: unknown, warnings: readonly string[] = [], summary?: Record<string, unknown>): string {
  return formatJsonEnvelope(name, { ok, result, warnings, ...(summary !== undefined ? { summary } : {}) });
}

/** Run a library call, mapping failures to CLI errors (exit 2) with their messages. */
export async function callTool<T>(fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new UsageError(e.message);
    if (e instanceof GitError || e instanceof GitOutputError || e instanceof LockTimeoutError) throw new RuntimeError(e.message, { cause: e });
    throw e;
  }
}
