/**
 * `noma-reconcile run`: start (or `--resume`) a plan → do → check → act run
 * (src/runs/run-loop.ts) and print its result. Progress (iteration, role,
 * elapsed time) goes to stderr, only on a TTY and not in CI. Ctrl-C stops the
 * current agent and ends the run as `stopped` (resumable).
 *
 * The run works in its own worktree and, on PASS, commits its result on its
 * branch; `--apply` then brings that commit into the current branch
 * (runs/apply-run.ts).
 *
 * Exit codes: 0 the run passed (and, with --apply, its commit is in the branch);
 * 1 it failed or stopped (budget, interruption), or --apply was refused;
 * 2 usage, configuration or runtime error (nothing was run, or the loop
 * itself could not go on).
 */
import { realpathSync } from "node:fs";
import { SNAPSHOT_PATH } from "../../governance/governance.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { shortRunSqlite } from "../startup/short-run-sqlite.js";
import { callTool, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";
import { listOption } from "../repo-context.js";
import { parseAcArg } from "../../runs/run-criteria.js";
import { runLoop, type RunProgress, type RunResult } from "../../runs/run-loop.js";
import { applyRun, type ApplyRunResult } from "../../runs/apply-run.js";
import { RUN_ID_PATTERN } from "../../layout/norma-layout.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function showProgress(io: CliIO): boolean {
  return io.stderrIsTTY && (io.env["CI"] === undefined || io.env["CI"] === "" || io.env["CI"] === "false");
}

export function progressLine(p: RunProgress): string {
  const head = `[${seconds(p.elapsedMs).padStart(7)}] iteration ${p.iteration} · ${String(p.index).padStart(3, "0")} ${p.role.padEnd(5)}`;
  return p.phase === "start"
    ? `${head} …\n`
    : `${head} ${p.status}${p.summary !== undefined && p.summary !== "" ? `: ${p.summary.length > 100 ? `${p.summary.slice(0, 99)}…` : p.summary}` : ""}\n`;
}

export interface RunTextOptions {
  /** Whether the run was to mark reconciled on PASS (not `--no-mark`). */
  mark: boolean;
  /** The outcome of `--apply`, when given. */
  applied?: ApplyRunResult;
}

/** What to do after the run: where its result is and how to bring it in, else how to go on. */
export function nextStepLines(r: RunResult, options: RunTextOptions): string[] {
  const where = `worktree ${r.worktree.dir}/, branch ${r.worktree.branch}`;
  if (r.status !== "passed") return [`Kept for inspection: ${where}.`, `Continue: noma-reconcile run --resume ${r.run_id}`];
  const lines: string[] = [];
  if (!options.mark)
    lines.push(
      "Not marked reconciled (--no-mark): the commit holds the agents' changes only; once they are reviewed, record them with `noma-reconcile " +
        "mark-reconciled <paths>`",
      `and \`noma-reconcile state snapshot\`, and commit ${SNAPSHOT_PATH}.`,
    );
  if (r.commit === null || r.commit.commit === null) {
    lines.push(`The run changed nothing: nothing to commit (${where} at ${r.worktree.base.slice(0, 12)}).`);
    return lines;
  }
  const files = r.commit.files.map((f) => f.path);
  lines.push(
    `Committed on ${r.commit.branch} as ${r.commit.commit.slice(0, 12)}: ${files.length} file${files.length === 1 ? "" : "s"} ` +
      `(${files.length > 8 ? `${files.slice(0, 8).join(", ")}, …` : files.join(", ")}); worktree ${r.worktree.dir}/.`,
  );
  const a = options.applied;
  if (a === undefined) lines.push(`Bring it into your branch: noma-reconcile runs apply ${r.run_id}`);
  else if (a.outcome === "refused") lines.push(`Not applied: ${a.message}`);
  else lines.push(`${a.message.charAt(0).toUpperCase()}${a.message.slice(1)}.`);
  return lines;
}

export function renderRunText(r: RunResult, options: RunTextOptions = { mark: true }): string {
  const lines = [
    `Run ${r.run_id}: ${r.status.toUpperCase()}${r.verdict !== null ? ` (verdict ${r.verdict})` : ""} after ${r.steps.length} ` +
      `step${r.steps.length === 1 ? "" : "s"}, iteration ${Math.min(r.iteration, Math.max(1, ...r.steps.map((s) => s.iteration)))}.`,
    `Goal: ${r.goal}`,
    "",
    ...r.steps.map((s) => `  ${String(s.index).padStart(3, "0")} ${s.role.padEnd(5)} iteration ${s.iteration}  ${s.status.padEnd(7)} ${s.summary ?? ""}`),
    "",
    `${r.status === "passed" ? "Passed" : r.status === "failed" ? "Failed" : "Stopped"}: ${r.reason}`,
  ];
  for (const m of r.marked) lines.push(`Marked reconciled for ${m.spec}: ${m.files.join(", ")}`);
  if (r.snapshot !== null) lines.push(`Snapshot: .notarai/reconciliation_state.json (${r.snapshot.files} file and ${r.snapshot.specs} spec fingerprints)`);
  if (r.scorecard !== null) lines.push(`Scorecard: ${r.scorecard}`);
  lines.push(`Record: ${r.run_dir}/ (noma-reconcile runs show ${r.run_id})`);
  lines.push(...nextStepLines(r, options));
  return `${lines.join("\n")}\n`;
}

export async function runCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  // norma.db and the cache take a few small transactions: SQLite compiled baseline-only (prepare-short-run-wasm.ts).
  shortRunSqlite(io.env);
  const format = formatArg(options);
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const resume = options["resume"] !== undefined ? String(options["resume"]) : undefined;
  const specs = listOption(options["spec"]).map((s) => specArg(s, ctx, io.cwd));
  const ac = listOption(options["ac"]).map((a) => {
    const c = parseAcArg(a);
    if (c === null) throw new UsageError(`--ac takes ID=TEXT (e.g. --ac "AC1=All unit tests pass"); got ${JSON.stringify(a)}`);
    return c;
  });
  const base = options["base"] !== undefined ? String(options["base"]) : undefined;
  if (base !== undefined && (base === "" || base.startsWith("-")))
    throw new UsageError(`--base takes a ref to start the run's worktree from (e.g. main); got ${JSON.stringify(base)}`);
  let maxIterations: number | undefined;
  if (options["maxIterations"] !== undefined) {
    maxIterations = Number(options["maxIterations"]);
    if (!Number.isInteger(maxIterations) || maxIterations < 1 || maxIterations > 1000)
      throw new UsageError(`--max-iterations takes a whole number from 1 to 1000; got ${JSON.stringify(options["maxIterations"])}`);
  }
  if (resume !== undefined) {
    if (!RUN_ID_PATTERN.test(resume)) throw new UsageError(`--resume takes a run id such as 20260105-100000-ab12cd; got ${JSON.stringify(resume)}`);
    if (specs.length > 0 || ac.length > 0 || options["goal"] !== undefined || base !== undefined)
      throw new UsageError("--resume continues a run with its own goal, criteria and worktree: leave out --goal, --ac, --spec and --base");
  } else if (specs.length === 0 && ac.length === 0) {
    throw new UsageError("give --spec PATH (criteria are generated from the spec) or --goal TEXT with --ac ID=TEXT, or --resume RUN_ID");
  }
  const { warnings, onWarning } = warningSink(io);
  const controller = new AbortController();
  const onSignal = () => {
    io.stderr("noma-reconcile: interrupted; stopping the current agent (the run can be resumed)\n");
    controller.abort();
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const progress = showProgress(io);
  let cli: string | null = null;
  try {
    cli = process.argv[1] !== undefined ? realpathSync(process.argv[1]) : null;
  } catch {
    cli = null;
  }
  let result: RunResult;
  try {
    result = await callTool(() =>
      runLoop({
        root: ctx.root,
        ...(options["goal"] !== undefined ? { goal: String(options["goal"]) } : {}),
        ac,
        specs,
        ...(maxIterations !== undefined ? { maxIterations } : {}),
        ...(resume !== undefined ? { resume } : {}),
        ...(base !== undefined ? { base } : {}),
        mark: options["mark"] !== false,
        ...(cli?.endsWith(".js") ? { mcpCommand: [process.execPath, cli, "mcp"] } : {}),
        env: io.env,
        signal: controller.signal,
        onWarning,
        ...(progress ? { onProgress: (p: RunProgress) => io.stderr(progressLine(p)) } : {}),
      }),
    );
  } finally {
    process.removeListener("SIGINT", onSignal);
    process.removeListener("SIGTERM", onSignal);
  }
  for (const r of result.recovery.interrupted) onWarning(`recovered run ${r}: it had been interrupted (marked stopped)`);
  let applied: ApplyRunResult | undefined;
  if (options["apply"] === true && result.status === "passed") applied = await callTool(() => applyRun(ctx.root, result.run_id, { env: io.env, onWarning }));
  const textOptions: RunTextOptions = { mark: options["mark"] !== false, ...(applied !== undefined ? { applied } : {}) };
  if (format === "json")
    io.stdout(envelope("run", result.status === "passed" && applied?.outcome !== "refused", { ...result, applied: applied ?? null }, warnings));
  else io.stdout(renderRunText(result, textOptions));
  return result.status === "passed" && applied?.outcome !== "refused" ? 0 : 1;
}
