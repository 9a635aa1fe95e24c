/**
 * What the HTML report shows, read from a run's records (read-only): the run, its steps and
 * events from `.norma/norma.db` (showRun), each check step's `verdict.json` with an excerpt of
 * every evidence file it names, each act step's `patch.diff` and `patch.noma.json`, the files
 * agents changed themselves (`worktree_changed` events), the built-in check's drift evidence
 * (`files/drift-N.json`) at every check, and the lines of the evidence ledger that name the
 * run (`details.run.run_id`), per step — the ledger of the run's worktree, where its tools wrote (the
 * repository's when the run has no worktree, or it is gone).
 *
 * The step's own files are read only inside its directory (an evidence path leading out —
 * `../`, an absolute path, a symbolic link — is shown as a path, never read), and only their
 * first bytes: the page stays a page whatever the agents wrote.
 */
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, worktreeReader } from "../../config/load-config.js";
import { worktreePath } from "../run-worktree-path.js";
import { containPath } from "../../fsx/contain-path.js";
import { abs } from "../../layout/norma-layout.js";
import { TOOL_NAME, TOOL_VERSION } from "../../version.js";
import { listRuns, showRun, type RunDetail } from "../list-runs.js";
import type { DriftSnapshot, ReportJudgement, ReportLedgerLine, ReportStep, RunReport, RunsIndex } from "./run-report-model.js";

/** The most of an evidence file shown. */
const EXCERPT_BYTES = 4 * 1024;
/** The most of a patch shown. */
const PATCH_BYTES = 256 * 1024;
/** The most ledger lines shown per step. */
const LEDGER_LINES_PER_STEP = 500;

/** The first `limit` bytes of a file inside `dir` (UTF-8, a cut character replaced), or null. */
function head(dir: string, rel: string, limit: number): { text: string; truncated: boolean } | null {
  let file: string;
  try {
    file = join(dir, containPath(rel, dir, dir));
    if (!statSync(file).isFile()) return null;
  } catch {
    return null;
  }
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return null;
  }
  try {
    const size = statSync(file).size;
    const buf = Buffer.alloc(Math.min(size, limit));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return { text: buf.subarray(0, got).toString("utf8"), truncated: size > got };
  } finally {
    closeSync(fd);
  }
}

function readJson(dir: string, rel: string, limit = 1024 * 1024): unknown {
  const h = head(dir, rel, limit);
  if (h === null || h.truncated) return null;
  try {
    return JSON.parse(h.text) as unknown;
  } catch {
    return null;
  }
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === "string" ? v : "");

function verdictOf(dir: string): ReportStep["verdict"] {
  const v = readJson(dir, "verdict.json");
  if (!isObj(v) || (v["verdict"] !== "PASS" && v["verdict"] !== "FAIL") || !Array.isArray(v["criteria"])) return null;
  const criteria: ReportJudgement[] = v["criteria"].filter(isObj).map((c) => {
    const evidence = str(c["evidence"]);
    const h = evidence !== "" ? head(dir, evidence, EXCERPT_BYTES) : null;
    return { id: str(c["id"]), text: str(c["text"]), pass: c["pass"] === true, evidence, excerpt: h?.text ?? null, excerptTruncated: h?.truncated ?? false };
  });
  return { verdict: v["verdict"], criteria };
}

function driftOf(dir: string, step: { index: number; iteration: number }): DriftSnapshot | null {
  let names: string[];
  try {
    names = readdirSync(join(dir, "files")).filter((n) => /^drift-\d+\.json$/.test(n));
  } catch {
    return null;
  }
  if (names.length === 0) return null;
  names.sort((a, b) => Number(a.slice(6, -5)) - Number(b.slice(6, -5)));
  const specs: DriftSnapshot["specs"] = [];
  for (const n of names) {
    const d = readJson(dir, `files/${n}`);
    if (!isObj(d) || !Array.isArray(d["pending"])) continue;
    specs.push({
      spec: str(d["spec"]),
      files: d["pending"]
        .filter(isObj)
        .map((p) => ({ path: str(p["path"]), acknowledged: p["acknowledged"] === true, problem: typeof p["problem"] === "string" ? p["problem"] : null })),
    });
  }
  return { step: step.index, iteration: step.iteration, specs };
}

function patchOf(dir: string): ReportStep["patch"] {
  const diff = head(dir, "patch.diff", PATCH_BYTES);
  const noma = head(dir, "patch.noma.json", PATCH_BYTES);
  if (diff === null && noma === null) return null;
  return { diff: diff?.text ?? null, noma: noma?.text ?? null, truncated: (diff?.truncated ?? false) || (noma?.truncated ?? false) };
}

/** The ledger's lines that name the run, per step index. */
function ledgerLines(root: string, ledger: string, runId: string): Map<number, ReportLedgerLine[]> {
  const out = new Map<number, ReportLedgerLine[]>();
  let text: string;
  try {
    text = readFileSync(join(root, ledger), "utf8");
  } catch {
    return out;
  }
  for (const line of text.split("\n")) {
    if (!line.includes(runId)) continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isObj(o) || !isObj(o["details"])) continue;
    const d = o["details"];
    const run = d["run"];
    if (!isObj(run) || run["run_id"] !== runId || typeof run["step"] !== "number") continue;
    const list = out.get(run["step"]) ?? [];
    if (list.length >= LEDGER_LINES_PER_STEP) continue;
    list.push({
      seq: typeof o["seq"] === "number" ? o["seq"] : Number.NaN,
      timestamp: str(o["timestamp"]),
      action: str(o["action"]),
      path: str(o["path"]),
      // A change is two lines: its intent (before it) and its outcome (after).
      outcome: d["phase"] === "intent" ? "intent" : str(d["outcome"]),
      code: typeof d["code"] === "string" ? d["code"] : null,
      acp: typeof d["acp"] === "string" ? d["acp"] : null,
      via: typeof d["via"] === "string" ? d["via"] : null,
    });
    out.set(run["step"], list);
  }
  return out;
}

function ledgerPath(root: string): string | null {
  try {
    return loadConfig({ cwd: root, read: worktreeReader(root) }).workspace?.ledger ?? null;
  } catch {
    return null;
  }
}

function changedFilesOf(d: RunDetail, index: number): string[] {
  const files = new Set<string>();
  for (const ev of d.events) {
    if (ev.type !== "worktree_changed" || !isObj(ev.data) || ev.data["step_index"] !== index || !Array.isArray(ev.data["files"])) continue;
    for (const f of ev.data["files"]) if (typeof f === "string") files.add(f);
  }
  return [...files].sort();
}

/** The report of run `runId` (default: the newest); null when there is no such run. */
export async function collectRunReport(root: string, runId?: string, now: Date = new Date()): Promise<RunReport | null> {
  const d = await showRun(root, runId);
  if (d === null) return null;
  // The run's tools wrote their ledger in its worktree (under the worktree's configuration); a run without one (or whose
  // worktree is gone) is read from the repository's.
  const wt = d.worktree?.exists ? d.worktree : null;
  const ledgerRoot = wt !== null ? worktreePath(root, wt) : root;
  const ledger = ledgerPath(ledgerRoot);
  const lines = ledger !== null ? ledgerLines(ledgerRoot, ledger, d.run.run_id) : new Map<number, ReportLedgerLine[]>();
  const steps: ReportStep[] = d.steps.map((s) => {
    const dir = abs(root, s.step_dir);
    const start = Date.parse(s.started_at);
    const end = s.ended_at !== null ? Date.parse(s.ended_at) : Number.NaN;
    return {
      index: s.step_index,
      role: s.role,
      iteration: s.iteration,
      status: s.status,
      summary: s.summary,
      stepDir: s.step_dir,
      startedAt: s.started_at,
      endedAt: s.ended_at,
      durationMs: Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, end - start) : null,
      verdict: s.role === "check" ? verdictOf(dir) : null,
      patch: s.role === "act" ? patchOf(dir) : null,
      changedFiles: changedFilesOf(d, s.step_index),
      ledger: lines.get(s.step_index) ?? [],
    };
  });
  const snapshots = d.steps
    .filter((s) => s.role === "check")
    .map((s) => driftOf(abs(root, s.step_dir), { index: s.step_index, iteration: s.iteration }))
    .filter((x): x is DriftSnapshot => x !== null);
  const count = (x: DriftSnapshot, open: boolean) => x.specs.reduce((n, s) => n + s.files.filter((f) => !open || !f.acknowledged).length, 0);
  return {
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    generatedAt: now.toISOString(),
    run: {
      runId: d.run.run_id,
      status: d.run.status,
      verdict: d.run.verdict,
      iteration: d.run.iteration,
      goal: d.run.goal,
      createdAt: d.run.created_at,
      runDir: d.run.run_dir,
    },
    criteria: d.criteria,
    specs: d.specs,
    budgets: d.budgets,
    steps,
    drift: {
      before: snapshots[0] ?? null,
      after: snapshots[snapshots.length - 1] ?? null,
      series: snapshots.map((x) => ({ step: x.step, iteration: x.iteration, open: count(x, true), total: count(x, false) })),
    },
    events: d.events.map((ev) => ({ seq: ev.seq, ts: ev.ts, type: ev.type, message: ev.message })),
    ledgerFile: ledger !== null && wt !== null ? `${wt.dir}/${ledger}` : ledger,
  };
}

/** The list of runs (newest first, at most `limit`). */
export async function collectRunsIndex(root: string, limit?: number, now: Date = new Date()): Promise<RunsIndex> {
  const l = await listRuns(root, limit !== undefined ? { limit } : {});
  return {
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    generatedAt: now.toISOString(),
    runs: l.runs.map((r) => ({
      runId: r.run_id,
      status: r.status,
      verdict: r.verdict,
      iteration: r.iteration,
      steps: r.steps,
      createdAt: r.created_at,
      goal: r.goal,
    })),
    total: l.total,
  };
}
