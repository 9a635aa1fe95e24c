/**
 * `noma-reconcile reconcile`: drift fixed in CI (runs/reconcile-drift.ts) — the
 * loop on every spec with open drift (or `--spec`), its commit pushed and a pull
 * request opened or updated (`--target pull-request`, the default) or the commit
 * pushed onto the pull request's branch (`--target pr-branch`), through the
 * GitHub REST API with the workflow's token. The Action's `mode: reconcile` runs
 * it. (The file is not reconcile-command.ts: that one holds what the
 * reconciliation commands share.)
 *
 * Exit codes: 0 nothing to reconcile, or the result is published (or, without a
 * token, kept on its branch with what would have been published); 1 the run did
 * not pass; 2 usage, configuration, git or GitHub API error.
 */
import { realpathSync } from "node:fs";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { shortRunSqlite } from "../startup/short-run-sqlite.js";
import { choice, listOption } from "../repo-context.js";
import { callTool, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { reconcileDrift, type ReconcileDriftResult } from "../../runs/reconcile-drift.js";
import { PUBLISH_TARGETS } from "../../runs/publish-run.js";
import { progressLine, renderRunText, showProgress } from "./run-command.js";
import type { RunProgress } from "../../runs/run-loop.js";

function branchOption(options: Record<string, unknown>, key: string, flag: string): string | undefined {
  const v = options[key];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v === "" || v.startsWith("-") || /\s|\.\.|[~^:?*[\\]/.test(v))
    throw new UsageError(`${flag} takes a branch name; got ${JSON.stringify(v)}`);
  return v;
}

export function renderReconcileText(r: ReconcileDriftResult): string {
  const lines: string[] = [];
  if (r.run !== null) lines.push(renderRunText(r.run).trimEnd(), "");
  lines.push(`${r.message.charAt(0).toUpperCase()}${r.message.slice(1)}.`);
  return `${lines.join("\n")}\n`;
}

export async function reconcileDriftCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  // norma.db and the cache take a few small transactions: SQLite compiled baseline-only (prepare-short-run-wasm.ts).
  shortRunSqlite(io.env);
  const format = formatArg(options);
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const specs = listOption(options["spec"]).map((s) => specArg(s, ctx, io.cwd));
  const target = choice("target", options["target"] ?? "pull-request", PUBLISH_TARGETS);
  const remote = options["remote"] !== undefined ? String(options["remote"]) : "origin";
  if (remote === "" || remote.startsWith("-")) throw new UsageError(`--remote takes a remote name (e.g. origin); got ${JSON.stringify(remote)}`);
  let maxIterations: number | undefined;
  if (options["maxIterations"] !== undefined) {
    maxIterations = Number(options["maxIterations"]);
    if (!Number.isInteger(maxIterations) || maxIterations < 1 || maxIterations > 1000)
      throw new UsageError(`--max-iterations takes a whole number from 1 to 1000; got ${JSON.stringify(options["maxIterations"])}`);
  }
  const prBase = branchOption(options, "prBase", "--pr-base");
  const prBranch = branchOption(options, "prBranch", "--pr-branch");
  const { warnings, onWarning } = warningSink(io);
  const controller = new AbortController();
  const onSignal = () => {
    io.stderr("noma-reconcile: interrupted; stopping the current agent (the run can be resumed)\n");
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  let cli: string | null = null;
  try {
    cli = process.argv[1] !== undefined ? realpathSync(process.argv[1]) : null;
  } catch {
    cli = null;
  }
  let r: ReconcileDriftResult;
  try {
    r = await callTool(() =>
      reconcileDrift({
        root: ctx.root,
        specs,
        env: io.env,
        target,
        remote,
        ...(prBase !== undefined ? { prBase } : {}),
        ...(prBranch !== undefined ? { prBranch } : {}),
        ...(maxIterations !== undefined ? { maxIterations } : {}),
        ...(cli?.endsWith(".js") ? { mcpCommand: [process.execPath, cli, "mcp"] } : {}),
        signal: controller.signal,
        onWarning,
        ...(showProgress(io) ? { onProgress: (p: RunProgress) => io.stderr(progressLine(p)) } : {}),
      }),
    );
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
  if (format === "json") io.stdout(envelope("reconcile", r.exit === 0, { specs: r.specs, run: r.run, publish: r.publish, message: r.message }, warnings));
  else io.stdout(renderReconcileText(r));
  return r.exit;
}
