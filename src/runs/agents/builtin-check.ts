/**
 * The built-in check (agent type `builtin`, check role only): evaluates the
 * generated criteria itself, with our own checks, and writes what a check
 * agent must (norma §8.3): `verdict.json`, `scorecard.md`, evidence under
 * `files/`, and the AgentResponse.
 *
 * - drift (`no unreconciled drift for <spec>`): every file the spec governs
 *   whose content is not reconciled (hash cache / snapshot, per spec) must be
 *   acknowledged by this run — a do or act step listed it in reconciled.json
 *   and the loop recorded its BLAKE3 then. It holds when the recorded hash is
 *   the current one, so an edit after the acknowledgement re-opens the file.
 *   Evidence: files/drift-<n>.json.
 * - documents: `check`'s judgement (validator, transcripts, sidecars, books)
 *   of every .noma document, transcript, book and sidecar that changed since
 *   the run started (work tree against the start commit, untracked included)
 *   or that is pending drift of a run spec; it holds when none has an error.
 *   Evidence: files/documents.json.
 * - tests: the configured command (`.notarai/config.yaml` workspace.test) run
 *   at the workspace root (the run's worktree); it holds when it exits 0.
 *   Evidence: files/test.log.
 * - custom (`--ac`): cannot be judged here (the run refuses to start).
 */
import { STDERR_LOG, STDOUT_LOG } from "./spawn-agent.js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkedPathKind } from "../../layout/checked-path.js";
import { changedFiles } from "../../git/changed-files.js";
import type { AgentResponse, VerdictFile } from "../agent-protocol.js";
import { pendingDrift, type PendingFile } from "../pending-drift.js";
import { startCombinedWorktreeListing } from "../../git/read-worktree-status.js";
import type { RunCriterion } from "../run-criteria.js";
import type { FileDiagnostics } from "../../report/file-diagnostics.js";
import { clearAgentPid, recordAgentPid } from "./agent-pid-file.js";

export interface Acknowledgement {
  spec: string;
  path: string;
  /** BLAKE3 of the file when the step that acknowledged it was committed (null: it did not exist). */
  hash: string | null;
  step: number;
  note?: string;
}

export interface BuiltinCheckInput {
  /** The workspace judged: the run's worktree. */
  root: string;
  /** Where `.norma/` is (the test command's process group is recorded there while it runs); default `root`. */
  stateRoot?: string;
  /** The step directory being built (absolute). */
  stepDir: string;
  criteria: readonly RunCriterion[];
  acks: readonly Acknowledgement[];
  /** HEAD when the run started (null: no commit yet). */
  startHead: string | null;
  /** Run specs (repo-relative). */
  specs: readonly string[];
  testTimeoutMs: number;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal | undefined;
  /** The run step this check is (named in the evidence ledger line of its test run). */
  step?: { runId: string; index: number };
}

export interface CriterionResult {
  id: string;
  text: string;
  pass: boolean;
  evidence: string;
  detail: string[];
}

export interface BuiltinCheckResult {
  response: AgentResponse;
  verdict: VerdictFile;
  /**
   * The drift question's answer per spec (`pendingDrift`), for the run loop's open-drift count after a FAIL
   * (open-drift.ts), which would ask it again of the same work tree: only the answers that still hold when the check
   * ends — none asked before a test command ran (it may change the tree) — and only those given without a warning
   * (a warning is the user's to see from the count's own question; asking again is then left as it was).
   */
  drift: ReadonlyMap<string, readonly PendingFile[]>;
}

interface DriftEvidence {
  spec: string;
  pending: Array<PendingFile & { acknowledged: boolean; ack: Acknowledgement | null; problem: string | null }>;
}

function ackKey(spec: string, path: string): string {
  return `${spec}\0${path}`;
}

/**
 * The configured test command, run as the workspace tools' `run_tests` runs it (its
 * environment policy, its timeout and output cap, one line in the evidence ledger naming
 * this run step), its process group recorded for crash recovery while it runs; its
 * output (captured: the first and last halves past the cap) goes to the evidence file.
 */
async function runTests(
  root: string,
  stateRoot: string,
  logPath: string,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
  signal: AbortSignal | undefined,
  step: { runId: string; index: number } | undefined,
): Promise<{ code: number | null; detail: string }> {
  const { openWorkspace } = await import("../../workspace/workspace.js");
  const { runWorkspaceTool } = await import("../../workspace/run-workspace-tool.js");
  let pid: number | undefined;
  let outcome: Awaited<ReturnType<typeof runWorkspaceTool>>;
  try {
    const ws = openWorkspace(root, { env });
    outcome = await runWorkspaceTool(
      ws,
      "run_tests",
      { timeout_seconds: Math.max(1, Math.ceil(timeoutMs / 1000)), max_output_bytes: TEST_LOG_BYTES },
      {
        via: "library",
        ...(signal !== undefined ? { signal } : {}),
        ...(step !== undefined ? { details: { run: { run_id: step.runId, step: step.index, role: "check" } } } : {}),
        onSpawn: (p) => {
          pid = p;
          recordAgentPid(stateRoot, p);
        },
      },
    );
  } catch (e) {
    writeFileSync(logPath, `${(e as Error).message}\n`);
    return { code: null, detail: (e as Error).message };
  } finally {
    if (pid !== undefined) clearAgentPid(stateRoot, pid);
  }
  const b = outcome.body as {
    success?: boolean;
    message?: string;
    exit_code?: number | null;
    signal?: string | null;
    stdout?: string;
    stderr?: string;
    timed_out?: boolean;
  };
  if (outcome.failed || b.exit_code === undefined) {
    writeFileSync(logPath, `${b.message ?? "run_tests failed"}\n`);
    return { code: null, detail: b.message ?? "run_tests failed" };
  }
  writeFileSync(logPath, `${b.stdout ?? ""}${b.stderr !== undefined && b.stderr.length > 0 ? `\n--- stderr ---\n${b.stderr}` : ""}`);
  const code = b.exit_code;
  const detail =
    b.timed_out === true ? `timed out after ${timeoutMs} ms` : code === 0 ? "exit 0" : code !== null ? `exit ${code}` : `killed by ${b.signal ?? "a signal"}`;
  return { code: b.timed_out === true ? null : code, detail };
}

/** How much of the test command's output the evidence keeps (the run_tests cap: first and last halves). */
const TEST_LOG_BYTES = 8 * 1024 * 1024;

export async function builtinCheck(input: BuiltinCheckInput): Promise<BuiltinCheckResult> {
  const { root, stepDir } = input;
  mkdirSync(join(stepDir, "files"), { recursive: true });
  mkdirSync(join(stepDir, "logs"), { recursive: true });
  const warnings: string[] = [];
  const onWarning = (m: string) => warnings.push(`warning: ${m}`);
  const acks = new Map(input.acks.map((a) => [ackKey(a.spec, a.path), a]));
  const results: CriterionResult[] = [];
  const files = ["verdict.json", "scorecard.md"];
  const metrics: Record<string, number> = {};
  const fixes: string[] = [];
  const drift = new Map<string, DriftEvidence>();
  let driftIndex = 0;
  /**
   * Git's untracked files as the last drift criterion's listing gave them: the documents criterion's changed files are
   * of the same work tree (the drift and documents criteria only read it; the hash cache they write is in an ignored
   * directory), so git is not asked again — unless a test command ran since, which may have changed the tree.
   */
  let untrackedOut: Promise<string> | null = null;
  /** The drift answers that still hold (BuiltinCheckResult.drift). */
  const answers = new Map<string, readonly PendingFile[]>();

  for (const c of input.criteria) {
    if (c.kind === "drift") {
      const spec = c.spec!;
      const listing = startCombinedWorktreeListing(root);
      let warned = false;
      const pending = await pendingDrift(
        root,
        spec,
        {
          onWarning: (m) => {
            warned = true;
            onWarning(m);
          },
        },
        listing,
      );
      untrackedOut = listing.othersOut;
      if (warned) answers.delete(spec);
      else answers.set(spec, pending);
      const evidence: DriftEvidence = {
        spec,
        pending: pending.map((p) => {
          const ack = acks.get(ackKey(spec, p.path)) ?? null;
          const acknowledged = ack !== null && ack.hash !== null && ack.hash === p.hash;
          const problem = acknowledged
            ? null
            : ack === null
              ? "changed since it was last reconciled; not acknowledged by this run"
              : "changed again after this run acknowledged it";
          return { ...p, acknowledged, ack, problem };
        }),
      };
      drift.set(spec, evidence);
      const open = evidence.pending.filter((p) => !p.acknowledged);
      const file = `files/drift-${++driftIndex}.json`;
      writeFileSync(join(stepDir, file), `${JSON.stringify(evidence, null, 2)}\n`);
      files.push(file);
      metrics["drift_files"] = (metrics["drift_files"] ?? 0) + evidence.pending.length;
      metrics["drift_unacknowledged"] = (metrics["drift_unacknowledged"] ?? 0) + open.length;
      for (const p of open) {
        fixes.push(
          p.path === spec
            ? `Review the changed spec ${spec}: make the code and documents it governs follow it, then acknowledge it in reconciled.json (${p.problem})`
            : `Reconcile ${p.path} with ${spec}: make code, spec and documents agree, then acknowledge it in reconciled.json (${p.problem})`,
        );
      }
      results.push({
        id: c.id,
        text: c.text,
        pass: open.length === 0,
        evidence: file,
        detail:
          evidence.pending.length === 0
            ? ["no governed file is changed since it was reconciled"]
            : evidence.pending.map((p) => `${p.acknowledged ? "acknowledged" : "OPEN"}: ${p.path}${p.problem !== null ? ` (${p.problem})` : ""}`),
      });
    } else if (c.kind === "documents") {
      const targets = new Set<string>();
      if (input.startHead !== null) {
        const untracked = untrackedOut !== null ? await untrackedOut : undefined;
        for (const ch of changedFiles(root, input.startHead, untracked)) if (ch.kind !== "deleted") targets.add(ch.path);
      }
      for (const d of drift.values()) for (const p of d.pending) if (p.hash !== null) targets.add(p.path);
      if (input.startHead === null) {
        const { listNomaFiles } = await import("../../check/list-noma-files.js");
        for (const p of listNomaFiles(root, true, [], root)) targets.add(p);
      }
      const judged = [...targets]
        .filter((p) => {
          const k = checkedPathKind(p);
          return k === "document" || k === "transcript" || k === "book" || k === "sidecar";
        })
        .sort();
      let results2: FileDiagnostics[] = [];
      if (judged.length > 0) {
        const { checkWorktree } = await import("../../check/check-worktree.js");
        results2 = (await checkWorktree({ root, inRepo: true, cwd: root, paths: judged, onWarning })).results;
      }
      const errors = results2.flatMap((r) =>
        r.diagnostics
          .filter((d) => d.severity === "error")
          .map((d) => `${r.file}${d.pos !== undefined ? `:${d.pos.line}:${d.pos.column}` : ""}: ${d.message} [${d.code}]`),
      );
      const file = "files/documents.json";
      writeFileSync(join(stepDir, file), `${JSON.stringify({ checked: judged, results: results2 }, null, 2)}\n`);
      files.push(file);
      metrics["documents_checked"] = judged.length;
      metrics["document_errors"] = errors.length;
      for (const e of errors.slice(0, 20)) fixes.push(`Fix ${e}`);
      results.push({
        id: c.id,
        text: c.text,
        pass: errors.length === 0,
        evidence: file,
        detail:
          judged.length === 0
            ? ["no .noma document or transcript changed"]
            : errors.length === 0
              ? [`${judged.length} checked, no errors: ${judged.join(", ")}`]
              : errors,
      });
    } else if (c.kind === "tests") {
      const file = "files/test.log";
      const r = await runTests(root, input.stateRoot ?? root, join(stepDir, file), input.testTimeoutMs, input.env, input.signal, input.step);
      untrackedOut = null; // the test command may have changed the work tree
      answers.clear();
      files.push(file);
      metrics["tests_exit_code"] = r.code ?? -1;
      if (r.code !== 0) fixes.push(`Make \`${c.argv!.join(" ")}\` pass (${r.detail}; see ${file})`);
      results.push({ id: c.id, text: c.text, pass: r.code === 0, evidence: file, detail: [`${c.argv!.join(" ")}: ${r.detail}`] });
    } else {
      results.push({
        id: c.id,
        text: c.text,
        pass: false,
        evidence: "",
        detail: ["the built-in check cannot judge a free-text criterion; configure a check agent"],
      });
    }
  }

  const pass = results.every((r) => r.pass);
  const failed = results.filter((r) => !r.pass);
  const verdict: VerdictFile = {
    version: 1,
    verdict: pass ? "PASS" : "FAIL",
    criteria: results.map((r) => ({ id: r.id, text: r.text, pass: r.pass, evidence: r.evidence })),
    metrics,
    blockers: failed.map((r) => `${r.id}: ${r.text}`),
    recommended_fix: fixes,
  };
  const lines = [
    `# Scorecard: ${pass ? "PASS" : "FAIL"}`,
    "",
    `${results.length - failed.length} of ${results.length} criteria hold.`,
    "",
    "| criterion | result | evidence |",
    "|---|---|---|",
    ...results.map((r) => `| ${r.id}: ${r.text.replace(/\|/g, "\\|")} | ${r.pass ? "PASS" : "FAIL"} | ${r.evidence} |`),
    "",
    ...results.flatMap((r) => [`## ${r.id}: ${r.text}`, "", ...r.detail.map((d) => `- ${d}`), ""]),
    ...(fixes.length > 0 ? ["## Recommended fix", "", ...fixes.map((f) => `- ${f}`), ""] : []),
  ];
  writeFileSync(join(stepDir, "verdict.json"), `${JSON.stringify(verdict, null, 2)}\n`);
  writeFileSync(join(stepDir, "scorecard.md"), `${lines.join("\n")}`);
  writeFileSync(
    join(stepDir, STDOUT_LOG),
    results.map((r) => `${r.pass ? "PASS" : "FAIL"} ${r.id}: ${r.text}\n${r.detail.map((d) => `  ${d}\n`).join("")}`).join(""),
  );
  writeFileSync(join(stepDir, STDERR_LOG), warnings.map((w) => `${w}\n`).join(""));
  const why = (r: CriterionResult): string => {
    const open = r.detail.filter((d) => d.startsWith("OPEN: "));
    return open.length > 0
      ? `${r.id}: ${open.length} open drift file${open.length === 1 ? "" : "s"} (${open.map((d) => d.slice(6).replace(/ \(.*\)$/, "")).join(", ")})`
      : `${r.id}: ${r.detail[0] ?? r.text}`;
  };
  const summary = pass ? `PASS: all ${results.length} criteria hold` : `FAIL: ${failed.map(why).join("; ")}`;
  return { response: { version: 1, status: "ok", summary, files, next_actions: fixes, errors: [] }, verdict, drift: answers };
}
