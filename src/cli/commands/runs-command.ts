/**
 * `noma-reconcile runs list`, `runs show [RUN_ID]`, `runs apply RUN_ID` and
 * `runs prune`: the runs recorded in `.norma/norma.db`; `runs show [RUN_ID] --html FILE`
 * and `runs report FILE` write them as one self-contained HTML page (src/runs/report/,
 * loaded only then). list, show and report first run recovery (norma §4.2) when no run is
 * in progress; prune takes the run lock and recovers. Exit codes: 0 shown, written,
 * applied, pruned; 1 apply refused; 2 usage error or no such run.
 */
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { shortRunSqlite } from "../startup/short-run-sqlite.js";
import { actionArg } from "../action-arg.js";
import { callTool, envelope, formatArg, requireRepo, warningSink } from "./reconcile-command.js";
import { listRuns, recoverIfIdle, showRun, type RunDetail, type RunList } from "../../runs/list-runs.js";
import { RUN_ID_PATTERN } from "../../layout/norma-layout.js";
import { applyLockTimeout } from "../lock-timeout-option.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../config/load-config.js";
import { readTextFile } from "../../fsx/read-text-file.js";
import { applyRun, type ApplyRunResult } from "../../runs/apply-run.js";
import { pruneRuns, type PruneResult } from "../../runs/prune-runs.js";
import { loadRunConfig } from "../../runs/run-config.js";
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
    `Run ${r.run_id}: ${r.status}${r.verdict !== null ? ` (verdict ${r.verdict})` : ""}, iteration ${r.iteration}, ${d.steps.length} ` +
      `step${d.steps.length === 1 ? "" : "s"}`,
    `Created: ${r.created_at}`,
    `Goal: ${r.goal}`,
    `Directory: ${r.run_dir}/`,
    ...(d.worktree !== null
      ? [`Worktree: ${d.worktree.dir}/ (branch ${d.worktree.branch}, from ${d.worktree.base.slice(0, 12)})${d.worktree.exists ? "" : " — removed"}`]
      : []),
    ...(d.result !== null
      ? [
          d.result.commit !== null
            ? `Result: commit ${d.result.commit.slice(0, 12)} on ${d.result.branch} (${d.result.files} ` +
              `file${d.result.files === 1 ? "" : "s"})${d.applied !== null ? `, applied to ${d.applied.onto} as ${d.applied.commit.slice(0, 12)}` : ""}`
            : "Result: the run changed nothing",
        ]
      : []),
    ...(d.stuck !== null ? ["", `Stuck: ${d.stuck.message}`, ...d.stuck.evidence.map((l) => `  ${l}`)] : []),
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

export function renderApply(a: ApplyRunResult): string {
  return `${a.outcome === "refused" ? `Not applied: ${a.message}` : `${a.message.charAt(0).toUpperCase()}${a.message.slice(1)}`}\n${
    a.marked.length > 0 ? a.marked.map((m) => `Marked reconciled in your cache for ${m.spec}: ${m.files.join(", ")}\n`).join("") : ""
  }`;
}

export function renderPrune(p: PruneResult): string {
  const lines = p.runs.map((r) => {
    const head = `${r.record === "kept" ? "kept" : p.dry_run ? "would remove" : "removed"} run ${r.run_id} (${r.status}, ${r.created_at.slice(0, 10)})`;
    if (r.record === "kept") return `${head}: ${r.note ?? ""}`;
    const parts = ["its record"];
    if (r.worktree !== null && r.worktree.action === "removed") parts.push(`worktree ${r.worktree.dir}`);
    if (r.branch !== null && r.branch.action === "deleted") parts.push(`branch ${r.branch.name}`);
    return `${head}: ${parts.join(", ")}${r.note !== null ? `; ${r.note}` : ""}`;
  });
  const kept = p.runs.length - p.removed;
  lines.push(
    p.runs.length === 0
      ? `Nothing to prune: ${p.total} run${p.total === 1 ? "" : "s"}, none older than the last ${p.keep_last} and ${p.keep_days} days.`
      : `${p.dry_run ? "Would prune" : "Pruned"} ${p.removed} of ${p.total} run${p.total === 1 ? "" : "s"} (keeping the last ${p.keep_last} and those ` +
          `of the last ${p.keep_days} days)${kept > 0 ? `; ${kept} kept, see above` : ""}.`,
  );
  return `${lines.join("\n")}\n`;
}

function countOption(options: Record<string, unknown>, key: string, flag: string, integer: boolean): number | undefined {
  const v = options[key];
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n)))
    throw new UsageError(`${flag} takes a ${integer ? "whole number" : "number"} ≥ 0; got ${JSON.stringify(v)}`);
  return n;
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
  // norma.db and the cache take a few small transactions: SQLite compiled baseline-only (prepare-short-run-wasm.ts).
  shortRunSqlite(io.env);
  const what = actionArg("runs", action, ["list", "show", "report", "apply", "prune"] as const);
  const format = formatArg(options);
  const ctx = requireRepo(io);
  applyLockTimeout(options, ctx.root);
  const html = htmlArg(options);
  if (html !== undefined && what !== "show")
    throw new UsageError(`--html goes with \`runs show\`; \`runs ${what}\` ${what === "report" ? "takes the file as its argument" : "prints text or JSON"}`);
  if (what === "apply") {
    if (rest.length !== 1) throw new UsageError("`runs apply` takes one run id (`noma-reconcile runs list` lists them)");
    const id = rest[0]!;
    if (!RUN_ID_PATTERN.test(id)) throw new UsageError(`not a run id: ${JSON.stringify(id)} (run ids look like 20260105-100000-ab12cd)`);
    const { warnings, onWarning } = warningSink(io);
    const a = await callTool(() => applyRun(ctx.root, id, { env: io.env, onWarning }));
    io.stdout(format === "json" ? envelope("runs-apply", a.outcome !== "refused", a, warnings) : renderApply(a));
    return a.outcome === "refused" ? 1 : 0;
  }
  if (what === "prune") {
    if (rest.length > 0) throw new UsageError("`runs prune` takes no arguments (use --keep-last N, --keep-days D, --dry-run)");
    const config = loadRunConfig(ctx.root);
    const ws = loadConfig({ cwd: ctx.root, read: (p) => (existsSync(join(ctx.root, p)) ? readTextFile(join(ctx.root, p)) : null) });
    const p = await callTool(() =>
      pruneRuns(ctx.root, {
        keepLast: countOption(options, "keepLast", "--keep-last", true) ?? config.retention.keep_last,
        keepDays: countOption(options, "keepDays", "--keep-days", false) ?? config.retention.keep_days,
        dryRun: options["dryRun"] === true,
        records: { ledger: ws.workspace.ledger, archive: ws.workspace.archive },
      }),
    );
    io.stdout(format === "json" ? envelope("runs-prune", true, p) : renderPrune(p));
    return 0;
  }
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
        : `Wrote ${w.path} (${w.bytes} bytes): the report of run ${report.run.runId} (${report.run.status}, ${report.steps.length} ` +
            `step${report.steps.length === 1 ? "" : "s"}).\n`,
    );
    return 0;
  }
  const d = await callTool(() => showRun(ctx.root, id));
  if (d === null) return noRun(io, id);
  io.stdout(format === "json" ? envelope("runs-show", true, d) : renderRunDetail(d));
  return 0;
}
