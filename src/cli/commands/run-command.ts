/**
 * `noma-reconcile run`: start (or `--resume`) a plan → do → check → act run
 * (src/runs/run-loop.ts) and print its result. Progress (iteration, role,
 * elapsed time) goes to stderr, only on a TTY and not in CI. Ctrl-C stops the
 * current agent and ends the run as `stopped` (resumable).
 *
 * Exit codes: 0 the run passed; 1 it failed or stopped (budget, interruption);
 * 2 usage, configuration or runtime error (nothing was run, or the loop
 * itself could not go on).
 */
import { existsSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { documentTranscript } from "../../layout/checked-path.js";
import { SNAPSHOT_PATH } from "../../spec/governance.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { callTool, envelope, formatArg, requireRepo, specArg, warningSink } from "./reconcile-command.js";
import { listOption } from "../repo-context.js";
import { parseAcArg } from "../../runs/run-criteria.js";
import { runLoop, type RunProgress, type RunResult } from "../../runs/run-loop.js";
import { RUN_ID_PATTERN } from "../../layout/norma-layout.js";
import { applyLockTimeout } from "../lock-timeout-option.js";

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

export function showProgress(io: CliIO): boolean {
  return io.stderrIsTTY && (io.env["CI"] === undefined || io.env["CI"] === "" || io.env["CI"] === "false");
}

function progressLine(p: RunProgress): string {
  const head = `[${seconds(p.elapsedMs).padStart(7)}] iteration ${p.iteration} · ${String(p.index).padStart(3, "0")} ${p.role.padEnd(5)}`;
  return p.phase === "start"
    ? `${head} …\n`
    : `${head} ${p.status}${p.summary !== undefined && p.summary !== "" ? `: ${p.summary.length > 100 ? `${p.summary.slice(0, 99)}…` : p.summary}` : ""}\n`;
}

/** A path as one shell word (single-quoted unless plainly safe). */
function shellWord(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`;
}

export interface RunTextOptions {
  /** Whether the run was to mark reconciled on PASS (not `--no-mark`). */
  mark: boolean;
  /** Transcripts (`<doc>.noma.patches`) of marked documents that exist: committed with them. */
  transcripts: readonly string[];
}

/** The files the run reconciled (with their transcripts) and the snapshot it wrote: what to commit; empty unless it passed and marked. */
export function filesToCommit(r: RunResult, options: RunTextOptions): string[] {
  if (r.status !== "passed" || !options.mark) return [];
  const files = [...new Set([...r.marked.flatMap((m) => m.files), ...options.transcripts])].sort();
  if (r.snapshot !== null) files.push(SNAPSHOT_PATH);
  return files;
}

/** What to do after the run: what to commit when it reconciled something, else the next step. */
export function nextStepLines(r: RunResult, options: RunTextOptions): string[] {
  if (r.status !== "passed") return [`Continue: noma-reconcile run --resume ${r.run_id} (nothing was marked reconciled; nothing to commit yet)`];
  if (!options.mark)
    return [
      "Not marked reconciled (--no-mark): once the changes are reviewed, record them with `noma-reconcile mark-reconciled <paths>`",
      `and \`noma-reconcile state snapshot\`, then commit them with ${SNAPSHOT_PATH}.`,
    ];
  const files = filesToCommit(r, options);
  if (files.length === 0) return ["Nothing was newly reconciled and the snapshot is unchanged: nothing to commit."];
  const what = r.marked.length > 0 ? (r.snapshot !== null ? "the reconciled files and the snapshot" : "the reconciled files") : "the snapshot";
  return [`Commit ${what} (the run commits nothing itself):`, `  git add -- ${files.map(shellWord).join(" ")}`, "  git commit"];
}

export function renderRunText(r: RunResult, options: RunTextOptions = { mark: true, transcripts: [] }): string {
  const lines = [
    `Run ${r.run_id}: ${r.status.toUpperCase()}${r.verdict !== null ? ` (verdict ${r.verdict})` : ""} after ${r.steps.length} step${r.steps.length === 1 ? "" : "s"}, iteration ${Math.min(r.iteration, Math.max(1, ...r.steps.map((s) => s.iteration)))}.`,
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
  let maxIterations: number | undefined;
  if (options["maxIterations"] !== undefined) {
    maxIterations = Number(options["maxIterations"]);
    if (!Number.isInteger(maxIterations) || maxIterations < 1 || maxIterations > 1000)
      throw new UsageError(`--max-iterations takes a whole number from 1 to 1000; got ${JSON.stringify(options["maxIterations"])}`);
  }
  if (resume !== undefined) {
    if (!RUN_ID_PATTERN.test(resume)) throw new UsageError(`--resume takes a run id such as 20260105-100000-ab12cd; got ${JSON.stringify(resume)}`);
    if (specs.length > 0 || ac.length > 0 || options["goal"] !== undefined)
      throw new UsageError("--resume continues a run with its own goal and criteria: leave out --goal, --ac and --spec");
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
  const transcripts = result.marked
    .flatMap((m) => m.files)
    .filter((f) => f.endsWith(".noma"))
    .map(documentTranscript)
    .filter((t) => existsSync(join(ctx.root, t)));
  const textOptions: RunTextOptions = { mark: options["mark"] !== false, transcripts };
  if (format === "json") io.stdout(envelope("run", result.status === "passed", { ...result, to_commit: filesToCommit(result, textOptions) }, warnings));
  else io.stdout(renderRunText(result, textOptions));
  return result.status === "passed" ? 0 : 1;
}
