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
import { TOOL_NAME, TOOL_VERSION } from "../../version.js";
import { RuntimeError, UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { choice, pathArg, repoContext, type RepoContext } from "../repo-context.js";

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

/** The stable JSON envelope: `{schema, tool, ok, result, warnings}` + trailing newline. */
export function envelope(command: string, ok: boolean, result: unknown, warnings: readonly string[] = []): string {
  return `${JSON.stringify({ schema: `${TOOL_NAME}/${command}@1`, tool: { name: TOOL_NAME, version: TOOL_VERSION }, ok, result, warnings }, null, 2)}\n`;
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

/** Plural helper for summaries. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
