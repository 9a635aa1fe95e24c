/**
 * One step, up to (not including) its commit: build the step directory under
 * its temp name, write the AgentRequest to `input.json`, run the role's agent
 * (or the built-in check, or record the role as skipped when no agent is
 * configured), then judge what it left against the contract (norma §7, §8):
 *
 * - stdout must be an AgentResponse (zod-validated): otherwise the raw stdout
 *   stays in the logs and the step fails with `protocol_error`;
 * - `files[]` entries must stay inside the step directory; symbolic links
 *   leading out are removed;
 * - plan, do and check must not produce `patch.diff` / `patch.noma.json`:
 *   ignored, with an event; only do and act may acknowledge drift
 *   (`reconciled.json`);
 * - check must leave a valid `verdict.json` and a `scorecard.md`, else
 *   `protocol_error` (the run then stops as failed);
 * - a non-zero exit, a timeout or an interruption fails the step.
 *
 * An `acp` agent is driven over the Agent Client Protocol (agents/run-acp-agent.ts, loaded
 * only then): its final message stands for stdout, its requests are served in the step's
 * work tree (`root`) under the role's rules.
 *
 * `output.json` always holds a valid AgentResponse: the agent's, or — when it
 * gave none — one written by the loop whose `errors` say why.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  AgentResponseSchema,
  normalizeResponse,
  parseJsonAs,
  ReconciledAckSchema,
  VerdictSchema,
  type AgentRequest,
  type AgentResponse,
  type Budgets,
  type ReconciledAck,
  type VerdictFile,
} from "./agent-protocol.js";
import { builtinCheck, type Acknowledgement } from "./agents/builtin-check.js";
import type { PendingFile } from "./pending-drift.js";
import { cliAgentCommand } from "./agents/cli-agent-command.js";
import { extractResponse } from "./agents/extract-response.js";
import { inheritedEnv, minimalEnv } from "./agents/agent-env.js";
import { rolePrompt } from "./agents/role-prompt.js";
import { spawnAgent, STDERR_LOG, STDOUT_LOG, type SpawnOutcome } from "./agents/spawn-agent.js";
import type { EventSpec } from "./commit-step.js";
import { abs, runDir, stepDir, type Role, TMP_MARK } from "../layout/norma-layout.js";
import type { StepStatus } from "./norma-schema.js";
import { DEFAULT_TIMEOUT_MS, type AgentConfig } from "./run-config.js";
import { publicCriteria, type RunCriterion } from "./run-criteria.js";
import { checkListedFiles, removeEscapingLinks } from "./step-files.js";
import { changedPaths, ledgerEdits, ledgerOffset, worktreeFingerprint, type RecordPaths, type WorktreeFingerprint } from "./worktree-changes.js";
import { formatAgentStep, roleTools } from "./agent-step.js";

export interface StepInput {
  /** The repository root: where `.norma/` is (the run's records, the agent pid file). */
  root: string;
  /**
   * The workspace root the step is contained in — the run's worktree: the request's `repo_root`, every
   * agent's working directory, the root of the MCP server's workspace tools (`mcp --root`), the built-in check's
   * tree, where the step's changes are looked for. Every tool of the step takes it from here.
   */
  workspaceRoot: string;
  runId: string;
  index: number;
  role: Role;
  iteration: number;
  agent: AgentConfig | undefined;
  goal: string;
  criteria: readonly RunCriterion[];
  budgets: Budgets;
  previousStepDirs: string[];
  /** Base environment (process.env). */
  env: NodeJS.ProcessEnv;
  /** argv of our MCP server (`node …/dist/cli.cjs mcp`), or null; the step's agent gets it with `--step`. */
  mcpCommand: readonly string[] | null;
  /** The workspace tools' ledger and archive: left out of the step's work-tree changes. */
  records: RecordPaths;
  signal?: AbortSignal | undefined;
  /** For the built-in check. */
  acks: readonly Acknowledgement[];
  startHead: string | null;
  specs: readonly string[];
}

export interface StepOutcome {
  tmpDir: string;
  stepDirRel: string;
  status: StepStatus;
  summary: string;
  response: AgentResponse;
  verdict: VerdictFile | null;
  /** reconciled.json of a do/act step (validated), or null. */
  acks: ReconciledAck[] | null;
  /** The built-in check's drift answers that still hold (BuiltinCheckResult.drift); null for any other step. */
  drift: ReadonlyMap<string, readonly PendingFile[]> | null;
  /** Repo-relative paths the agent changed while it ran (worktree-changes.ts; null: no agent ran). */
  worktreeChanges: string[] | null;
  protocolError: string | null;
  events: EventSpec[];
  startedAt: string;
  endedAt: string;
}

function listed(paths: readonly string[]): string {
  return paths.length > 10 ? `${paths.slice(0, 10).join(", ")} (+${paths.length - 10} more)` : paths.join(", ");
}

/** The work tree's fingerprint, or null when git cannot give one (the step is still judged; its changes are just not recorded). */
function fingerprint(s: StepInput): WorktreeFingerprint | null {
  try {
    return worktreeFingerprint(s.workspaceRoot, s.records);
  } catch {
    return null;
  }
}

function agentLabel(agent: AgentConfig): string {
  return agent.type === "exec" || agent.type === "acp" ? `${agent.type} ${agent.cmd.join(" ")}` : agent.type;
}

export async function executeStep(s: StepInput): Promise<StepOutcome> {
  const startedAt = new Date().toISOString();
  const stepDirRel = stepDir(s.runId, s.index, s.role);
  const tmpDir = `${abs(s.root, stepDirRel)}${TMP_MARK}${randomBytes(4).toString("hex")}`;
  mkdirSync(join(tmpDir, "logs"), { recursive: true });
  // Our MCP server serves this step's agent: only its role's tools, its workspace requests attributed to the step in the ledger.
  const mcp =
    s.mcpCommand !== null
      ? [...s.mcpCommand, "--step", formatAgentStep({ runId: s.runId, index: s.index, role: s.role }), "--root", s.workspaceRoot, "--runs-root", s.root]
      : null;
  const request: AgentRequest = {
    version: 1,
    run_id: s.runId,
    step: { index: s.index, role: s.role, iteration: s.iteration },
    goal: s.goal,
    norma: { acceptance_criteria: publicCriteria(s.criteria), budgets: s.budgets },
    paths: { repo_root: s.workspaceRoot, run_dir: abs(s.root, runDir(s.runId)), step_dir: tmpDir },
    context: {
      previous_step_dirs: s.previousStepDirs,
      notes: `step_dir is the step's directory while it is being built; it is renamed to ${abs(s.root, stepDirRel)} when the step is committed`,
      ...(mcp !== null ? { mcp_server: { command: mcp[0]!, args: mcp.slice(1), tools: roleTools(s.role) } } : {}),
    },
  };
  const requestJson = `${JSON.stringify(request, null, 2)}\n`;
  writeFileSync(join(tmpDir, "input.json"), requestJson);
  const events: EventSpec[] = [];
  let response: AgentResponse | null = null;
  let verdict: VerdictFile | null = null;
  let protocolError: string | null = null;
  let failure: string | null = null;
  let skipped = false;
  let worktreeChanges: string[] | null = null;
  let drift: ReadonlyMap<string, readonly PendingFile[]> | null = null;

  if (s.agent === undefined) {
    skipped = true;
    writeFileSync(join(tmpDir, STDOUT_LOG), "");
    writeFileSync(join(tmpDir, STDERR_LOG), "");
    response = {
      version: 1,
      status: "ok",
      summary: `no ${s.role} agent is configured (.norma/config.json agents.${s.role})`,
      files: [],
      next_actions: [],
      errors: [],
    };
  } else if (s.agent.type === "builtin") {
    const testTimeout = s.agent.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    const r = await builtinCheck({
      root: s.workspaceRoot,
      stateRoot: s.root,
      stepDir: tmpDir,
      criteria: s.criteria,
      acks: s.acks,
      startHead: s.startHead,
      specs: s.specs,
      testTimeoutMs: testTimeout,
      env: s.env,
      signal: s.signal,
      step: { runId: s.runId, index: s.index },
    });
    response = r.response;
    drift = r.drift;
  } else {
    let out: SpawnOutcome;
    let text: { ok: true; text: string } | { ok: false; problem: string };
    /** An ACP agent's answer (its final message) and what its session said went wrong. */
    let acp: { answer: string | null; failure: string | null; protocolError: string | null } | null = null;
    const timeoutMs = s.agent.timeout_ms ?? DEFAULT_TIMEOUT_MS;
    // What the agent changes: its workspace-tool edits (the ledger lines of this step), and for the coding CLIs, which edit with tools of their own
    // too, git status before and after.
    const ledgerStart = ledgerOffset(s.workspaceRoot, s.records);
    const before = s.agent.type !== "exec" ? fingerprint(s) : null;
    if (s.agent.type === "exec") {
      out = await spawnAgent({
        argv: s.agent.cmd,
        cwd: s.workspaceRoot,
        env: minimalEnv(s.env, request, s.agent.env),
        stdin: requestJson,
        timeoutMs,
        stepDir: tmpDir,
        signal: s.signal,
        recordIn: s.root,
      });
    } else if (s.agent.type === "acp") {
      // Loaded only here: the ACP SDK stays off every other path.
      const { runAcpAgent } = await import("./agents/run-acp-agent.js");
      const r = await runAcpAgent({
        agent: s.agent,
        root: s.workspaceRoot,
        runDir: request.paths.run_dir,
        stepDir: tmpDir,
        runId: s.runId,
        index: s.index,
        role: s.role,
        prompt: rolePrompt(request, { mcp: mcp !== null, acp: true }),
        env: inheritedEnv(s.env, request),
        workspaceEnv: s.env,
        timeoutMs,
        signal: s.signal,
        mcp,
        recordIn: s.root,
      });
      out = r.out;
      acp = r;
      events.push(...r.events);
    } else {
      const cwd = abs(s.workspaceRoot, s.agent.path ?? "");
      const cmd = cliAgentCommand(s.agent, { cwd, stepDir: tmpDir, prompt: rolePrompt(request, { mcp: mcp !== null }), role: s.role, mcp });
      out = await spawnAgent({
        argv: cmd.argv,
        cwd,
        env: inheritedEnv(s.env, request, cmd.env),
        stdin: null,
        timeoutMs,
        stepDir: tmpDir,
        signal: s.signal,
        recordIn: s.root,
      });
    }
    const after = before !== null ? fingerprint(s) : null;
    const viaTools = ledgerEdits(s.workspaceRoot, s.records, ledgerStart, { runId: s.runId, index: s.index });
    const seen = before !== null && after !== null ? changedPaths(before, after) : [];
    worktreeChanges = [...new Set([...viaTools, ...seen])].sort();
    if (worktreeChanges.length > 0) {
      const n = `${worktreeChanges.length} file${worktreeChanges.length === 1 ? "" : "s"}`;
      const direct = seen.filter((p) => !viaTools.includes(p));
      const writer = s.role === "do" || s.role === "act";
      events.push({
        type: "worktree_changed",
        message: writer
          ? `the ${s.role} agent changed ${n} in the work ` +
            `tree: ${listed(worktreeChanges)}${direct.length > 0 ? ` (not through the workspace tools: ${listed(direct)})` : ""}`
          : `${n} changed in the work tree while the ${s.role} agent ran: ${listed(worktreeChanges)} (plan and check agents must not change ` +
            `repository files; the next check judges the tree as it is)`,
        data: { step_index: s.index, role: s.role, files: worktreeChanges, workspace_tools: viaTools, direct },
      });
    }
    if (out.spawnError !== null) failure = `${s.role} agent (${agentLabel(s.agent)}) could not start: ${out.spawnError}`;
    else if (out.aborted) failure = `${s.role} agent interrupted`;
    else if (out.timedOut) failure = `${s.role} agent timed out after ${timeoutMs} ms`;
    else if (acp !== null && acp.failure !== null) failure = acp.failure;
    else if (out.exitCode !== 0)
      failure = `${s.role} agent exited with ${out.exitCode !== null ? `code ${out.exitCode}` : `signal ${out.signal}`} (see ${STDERR_LOG})`;
    if (failure !== null)
      events.push({
        type: out.timedOut ? "agent_timeout" : out.aborted ? "agent_interrupted" : "agent_failed",
        message: failure,
        data: { exit_code: out.exitCode, signal: out.signal, duration_ms: out.durationMs },
      });
    text =
      acp === null
        ? extractResponse(s.agent.type, out.stdout)
        : acp.protocolError !== null
          ? { ok: false, problem: acp.protocolError }
          : acp.answer === null
            ? { ok: false, problem: `the ${s.role} agent ended its turn without a message (expected the AgentResponse JSON as its final message)` }
            : extractResponse("acp", acp.answer);
    if (text.ok) {
      const parsed = parseJsonAs<Parameters<typeof normalizeResponse>[0]>(AgentResponseSchema, text.text, "stdout (AgentResponse)");
      if (parsed.ok) response = normalizeResponse(parsed.value);
      else if (failure === null) protocolError = parsed.problems.join("; ");
    } else if (failure === null) protocolError = text.problem;
  }

  // Containment of what the agent wrote.
  const removed = removeEscapingLinks(tmpDir);
  if (removed.length > 0) {
    protocolError ??= `symbolic links leading outside the step directory (removed): ${removed.join(", ")}`;
    events.push({
      type: "links_removed",
      message: `removed symbolic links leading outside the step directory: ${removed.join(", ")}`,
      data: { paths: removed },
    });
  }
  if (response !== null) {
    const fc = checkListedFiles(tmpDir, response.files);
    if (fc.problems.length > 0) protocolError ??= fc.problems.join("; ");
    if (fc.missing.length > 0)
      events.push({ type: "files_missing", message: `files listed in the AgentResponse do not exist: ${fc.missing.join(", ")}`, data: { files: fc.missing } });
  }

  // Role rules (§8).
  if (s.role !== "act") {
    for (const f of ["patch.diff", "patch.noma.json"])
      if (existsSync(join(tmpDir, f)))
        events.push({
          type: "patch_ignored",
          message: `${s.role} steps must not produce ${f}; it is ignored (kept for the record, never applied)`,
          data: { file: f },
        });
  }
  let acks: ReconciledAck[] | null = null;
  if (existsSync(join(tmpDir, "reconciled.json"))) {
    if (s.role === "do" || s.role === "act") {
      const parsed = parseJsonAs<ReconciledAck[]>(ReconciledAckSchema, readFileSync(join(tmpDir, "reconciled.json"), "utf8"), "reconciled.json");
      if (parsed.ok) acks = parsed.value;
      else protocolError ??= parsed.problems.join("; ");
    } else events.push({ type: "acknowledgement_ignored", message: `${s.role} steps cannot acknowledge drift; reconciled.json is ignored`, data: {} });
  }
  if (s.role === "check" && !skipped && failure === null) {
    const vp = join(tmpDir, "verdict.json");
    if (!existsSync(vp)) protocolError ??= "the check agent wrote no verdict.json";
    else {
      const parsed = parseJsonAs<VerdictFile>(VerdictSchema, readFileSync(vp, "utf8"), "verdict.json");
      if (parsed.ok) verdict = parsed.value;
      else protocolError ??= parsed.problems.join("; ");
    }
    if (!existsSync(join(tmpDir, "scorecard.md"))) protocolError ??= "the check agent wrote no scorecard.md";
  }

  if (protocolError !== null) {
    events.push({ type: "protocol_error", message: protocolError, data: { stdout_log: STDOUT_LOG } });
    verdict = null;
  }
  const status: StepStatus = skipped ? "skipped" : failure !== null || protocolError !== null || response?.status === "fail" ? "fail" : "ok";
  const finalResponse: AgentResponse =
    response !== null && protocolError === null
      ? response
      : {
          version: 1,
          status: "fail",
          summary: failure ?? `protocol_error: ${protocolError}`,
          files: [],
          next_actions: [],
          errors: [failure ?? `protocol_error: ${protocolError}`],
        };
  if (response !== null && protocolError === null && failure !== null) finalResponse.errors = [...finalResponse.errors, failure];
  writeFileSync(join(tmpDir, "output.json"), `${JSON.stringify(finalResponse, null, 2)}\n`);
  const summary = failure ?? (protocolError !== null ? `protocol_error: ${protocolError}` : finalResponse.summary);
  return {
    tmpDir,
    stepDirRel,
    status,
    summary,
    response: finalResponse,
    verdict,
    drift,
    acks: status === "fail" ? null : acks,
    worktreeChanges,
    protocolError,
    events,
    startedAt,
    endedAt: new Date().toISOString(),
  };
}
