/**
 * `noma-reconcile runs list` and `runs show [RUN_ID]`: the runs recorded in
 * `.norma/norma.db`; `runs show [RUN_ID] --html FILE` and `runs report FILE` write them
 * as one self-contained HTML page (src/runs/report/, loaded only then). All first run
 * recovery (norma §4.2) when no run is in progress. Exit codes: 0 shown or written;
 * 2 usage error or no such run.
 */
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { actionArg } from "../action-arg.js";
import { callTool, envelope, formatArg, requireRepo } from "./reconcile-command.js";
import { listRuns, recoverIfIdle, showRun, type RunDetail, type RunList } from "../../runs/list-runs.js";
import { RUN_ID_PATTERN } from "../../layout/norma-layout.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { formatJsonEnvelope } from "../../report/json-envelope.js";

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return `${rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join("  ")).join("\n")}\n`;
}

export function renderRunList(l: RunList): string {
  if (l.runs.length === 0) return "No runs yet (`noma-reconcile run --spec .notarai/<x>.spec.yaml` starts one).\n";
  const rows = [
    ["RUN", "STATUS", "VERDICT", "ITER", "STEPS", "CREATED", "GOAL"],
    ...l.runs.map((r) => [
      r.run_id,
      r.status,
      r.verdict ?? "-",
      String(r.iteration),
      String(r.steps),
      r.created_at.replace(/\.\d{3}Z$/, "Z"),
      r.goal.length > 70 ? `${r.goal.slice(0, 69)}…` : r.goal,
    ]),
  ];
  return table(rows) + (l.total > l.runs.length ? `(${l.runs.length} of ${l.total} runs; --limit shows more)\n` : "");
}

export function renderRunDetail(d: RunDetail): string {
  const r = d.run;
  const out = [
    `Run ${r.run_id}: ${r.status}${r.verdict !== null ? ` (verdict ${r.verdict})` : ""}, iteration ${r.iteration}, ${d.steps.length} step${d.steps.length === 1 ? "" : "s"}`,
    `Created: ${r.created_at}`,
    `Goal: ${r.goal}`,
    `Directory: ${r.run_dir}/`,
    "",
    "Acceptance criteria:",
    ...(d.criteria.length > 0 ? d.criteria.map((c) => `  ${c.id}: ${c.text}`) : ["  (none recorded)"]),
    "",
    "Steps:",
    ...(d.steps.length > 0
      ? d.steps.map((s) => `  ${String(s.step_index).padStart(3, "0")} ${s.role.padEnd(5)} iteration ${s.iteration}  ${s.status.padEnd(7)} ${s.summary ?? ""}`)
      : ["  (none)"]),
    "",
    "Events:",
    ...d.events.map((e) => `  ${String(e.seq).padStart(3)} ${e.ts.replace(/\.\d{3}Z$/, "Z")} ${e.type}: ${e.message}`),
    "",
    `Verdict: ${d.verdict_file ?? "-"}`,
    `Scorecard: ${d.scorecard ?? "-"}`,
  ];
  return `${out.join("\n")}\n`;
}

function limitArg(options: Record<string, unknown>): number | undefined {
  if (options["limit"] === undefined) return undefined;
  const limit = Number(options["limit"]);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit takes a positive whole number; got ${JSON.stringify(options["limit"])}`);
  return limit;
}

/** `--html FILE`: the file, or undefined; a flag without a file is a usage error. */
function htmlArg(options: Record<string, unknown>): string | undefined {
  const v = options["html"];
  if (v === undefined) return undefined;
  if (typeof v !== "string" || v.length === 0) throw new UsageError("--html takes the file to write, e.g. --html .norma/report.html");
  return v;
}

function noRun(io: CliIO, id: string | undefined): number {
  io.stderr(`noma-reconcile: ${id !== undefined ? `no run ${id}` : "no runs yet"} in .norma/norma.db (\`noma-reconcile runs list\` lists them)\n`);
  return 2;
}

export async function runsCommand(action: string, rest: string[], options: Record<string, unknown>, io: CliIO): Promise<number> {
  const what = actionArg("runs", action, ["list", "show", "report"] as const);
  const format = formatArg(options);
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const html = htmlArg(options);
  if (html !== undefined && what !== "show")
    throw new UsageError(`--html goes with \`runs show\`; \`runs ${what}\` ${what === "report" ? "takes the file as its argument" : "prints text or JSON"}`);
  await callTool(() => recoverIfIdle(ctx.root));
  if (what === "list") {
    if (rest.length > 0) throw new UsageError("`runs list` takes no arguments (use --limit N)");
    const limit = limitArg(options);
    const l = await callTool(() => listRuns(ctx.root, limit !== undefined ? { limit } : {}));
    io.stdout(format === "json" ? envelope("runs-list", true, l) : renderRunList(l));
    return 0;
  }
  if (what === "report") {
    if (rest.length !== 1) throw new UsageError("`runs report` takes the file to write, e.g. `runs report .norma/runs.html` (and --limit N)");
    const limit = limitArg(options);
    const { collectRunsIndex } = await import("../../runs/report/collect-run-report.js");
    const { renderRunsIndex } = await import("../../runs/report/render-run-report.js");
    const { writeReport } = await import("../../runs/report/write-report.js");
    const index = await callTool(() => collectRunsIndex(ctx.root, limit));
    const w = writeReport(ctx.root, io.cwd, rest[0]!, renderRunsIndex(index));
    const result = { file: w.path, bytes: w.bytes, run_id: null, runs: index.runs.length };
    io.stdout(
      format === "json"
        ? formatJsonEnvelope("runs-html", { ok: true, result, command: "runs report" })
        : `Wrote ${w.path} (${w.bytes} bytes): ${index.runs.length} of ${index.total} runs.\n`,
    );
    return 0;
  }
  if (rest.length > 1) throw new UsageError("`runs show` takes one run id");
  const id = rest[0];
  if (id !== undefined && !RUN_ID_PATTERN.test(id)) throw new UsageError(`not a run id: ${JSON.stringify(id)} (run ids look like 20260105-100000-ab12cd)`);
  if (html !== undefined) {
    const { collectRunReport } = await import("../../runs/report/collect-run-report.js");
    const { renderRunReport } = await import("../../runs/report/render-run-report.js");
    const { writeReport } = await import("../../runs/report/write-report.js");
    const report = await callTool(() => collectRunReport(ctx.root, id));
    if (report === null) return noRun(io, id);
    const w = writeReport(ctx.root, io.cwd, html, renderRunReport(report));
    const result = { file: w.path, bytes: w.bytes, run_id: report.run.runId, runs: 1 };
    io.stdout(
      format === "json"
        ? formatJsonEnvelope("runs-html", { ok: true, result, command: "runs show --html" })
        : `Wrote ${w.path} (${w.bytes} bytes): the report of run ${report.run.runId} (${report.run.status}, ${report.steps.length} step${report.steps.length === 1 ? "" : "s"}).\n`,
    );
    return 0;
  }
  const d = await callTool(() => showRun(ctx.root, id));
  if (d === null) return noRun(io, id);
  io.stdout(format === "json" ? envelope("runs-show", true, d) : renderRunDetail(d));
  return 0;
}
