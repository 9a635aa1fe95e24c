/**
 * The data of the HTML run report (`runs show --html`, `runs report`): plain, serialisable
 * values gathered from a run's records (collect-run-report.ts) and turned into one page by a
 * pure function (render-run-report.ts). No I/O and no imports here.
 */

export interface ReportCriterion {
  id: string;
  text: string;
}

/** A check step's judgement of one criterion, with its evidence. */
export interface ReportJudgement {
  id: string;
  text: string;
  pass: boolean;
  /** The evidence file, relative to the step directory ("" when none). */
  evidence: string;
  /** The evidence file's first bytes (null: none, or unreadable). */
  excerpt: string | null;
  /** The excerpt is the start of a longer file. */
  excerptTruncated: boolean;
}

/** One line of the evidence ledger attributed to the step (its agent's tool calls). */
export interface ReportLedgerLine {
  seq: number;
  timestamp: string;
  action: string;
  path: string;
  outcome: string;
  /** The failure code of a refused request, the ACP method, the binding. */
  code: string | null;
  acp: string | null;
  via: string | null;
}

export interface ReportStep {
  index: number;
  role: "plan" | "do" | "check" | "act";
  iteration: number;
  status: "ok" | "fail" | "skipped";
  summary: string | null;
  stepDir: string;
  startedAt: string;
  endedAt: string | null;
  /** ended − started (ms), null when it has not ended or a time does not parse. */
  durationMs: number | null;
  /** A check step's verdict.json. */
  verdict: { verdict: "PASS" | "FAIL"; criteria: ReportJudgement[] } | null;
  /** An act step's proposal: patch.diff and patch.noma.json (each shortened past a limit). */
  patch: { diff: string | null; noma: string | null; truncated: boolean } | null;
  /** Files the step's agent changed itself (the worktree_changed event). */
  changedFiles: string[];
  ledger: ReportLedgerLine[];
}

/** The drift a check step recorded (the built-in check's files/drift-N.json). */
export interface DriftSnapshot {
  step: number;
  iteration: number;
  specs: Array<{ spec: string; files: Array<{ path: string; acknowledged: boolean; problem: string | null }> }>;
}

export interface ReportEvent {
  seq: number;
  ts: string;
  type: string;
  message: string;
}

export interface RunReport {
  tool: { name: string; version: string };
  generatedAt: string;
  run: {
    runId: string;
    status: string;
    verdict: string | null;
    iteration: number;
    goal: string;
    createdAt: string;
    runDir: string;
  };
  criteria: ReportCriterion[];
  specs: string[];
  budgets: Record<string, number> | null;
  steps: ReportStep[];
  /** Open (unacknowledged) drift at the first and the last check, and at every check. */
  drift: { before: DriftSnapshot | null; after: DriftSnapshot | null; series: Array<{ step: number; iteration: number; open: number; total: number }> };
  events: ReportEvent[];
  /** Where the ledger lines came from (repo-relative), null when there is no ledger. */
  ledgerFile: string | null;
}

export interface RunsIndexEntry {
  runId: string;
  status: string;
  verdict: string | null;
  iteration: number;
  steps: number;
  createdAt: string;
  goal: string;
}

export interface RunsIndex {
  tool: { name: string; version: string };
  generatedAt: string;
  runs: RunsIndexEntry[];
  /** All runs recorded (the list may be limited). */
  total: number;
}
