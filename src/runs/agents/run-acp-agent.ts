/**
 * The `acp` backend: one run step with any Agent Client Protocol agent, spoken to over
 * its stdio with the ACP SDK's client side (`@agentclientprotocol/sdk`, ACP v1; bundled,
 * and loaded only on this path: execute-step.ts imports this module when a step's agent
 * is `acp`).
 *
 * One session per step: `initialize` (the client offers file reads and writes and
 * terminals), `session/new` in the step's work tree (with our MCP server for the step,
 * `mcp --step`, when there is one), one `session/prompt` with the role's prompt
 * (role-prompt.ts). While the turn runs, the agent's requests are served by the bridge
 * (acp-bridge.ts: the workspace tools under the role's rules, every request in the
 * evidence ledger, permission requests answered by policy). When the turn ends, the
 * agent's final message is its answer (acp-answer.ts), which the step parses as any
 * backend's stdout; stdin is closed, and an agent still running a few seconds later is
 * stopped (recorded as such, not as a failure).
 *
 * The step's logs: `logs/stdout.txt` holds what the agent said (its message text),
 * `logs/stderr.txt` its stderr, `logs/acp.jsonl` the conversation — one JSON-RPC
 * message a line, `{"from": "client"|"agent", "message": …}`, long strings shortened.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { TOOL_NAME, TOOL_VERSION } from "../../version.js";
import type { AgentRole } from "../agent-step.js";
import type { EventSpec } from "../commit-step.js";
import type { AcpAgentConfig } from "../run-config.js";
import { answerTranscript, finalAnswer, type AnswerEvent } from "./acp-answer.js";
import { AcpBridge, AcpRefusal } from "./acp-bridge.js";
import { spawnAgent, STDOUT_LOG, type SpawnOutcome } from "./spawn-agent.js";

export const ACP_LOG = "logs/acp.jsonl";

/** How long an agent may take to exit once its session is over and its stdin closed (ms). */
const EXIT_GRACE_MS = 5_000;
/** Strings longer than this are shortened in logs/acp.jsonl (file contents, prompts). */
const LOG_STRING_CHARS = 2_000;

export interface AcpStepSpec {
  agent: AcpAgentConfig;
  /** The step's work tree (absolute): the session's cwd and the workspace the requests are served in. */
  root: string;
  runDir: string;
  stepDir: string;
  runId: string;
  index: number;
  role: AgentRole;
  prompt: string;
  /** The agent process's environment. */
  env: NodeJS.ProcessEnv;
  /** The environment the workspace's commands are built from. */
  workspaceEnv: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** Our MCP server for the step (argv, `--step` included), offered in `session/new`; null: none. */
  mcp: readonly string[] | null;
  /** Where the agent's process group is recorded while it runs (agent-pid-file.ts). */
  recordIn: string;
}

export interface AcpStepOutcome {
  out: SpawnOutcome;
  /** The agent's final message (null: it said nothing, or the session failed). */
  answer: string | null;
  /** The agent ended its turn other than normally (refusal, max_tokens, …): the step fails. */
  failure: string | null;
  /** The conversation broke the protocol (initialize or session/new failed, the connection closed): a protocol error. */
  protocolError: string | null;
  events: EventSpec[];
}

interface Conversation {
  agentInfo: string;
  sessionId: string | null;
  stopReason: string | null;
  problem: { kind: "failure" | "protocol"; message: string } | null;
}

function shorten(_key: string, value: unknown): unknown {
  return typeof value === "string" && value.length > LOG_STRING_CHARS ? `${value.slice(0, LOG_STRING_CHARS)}… (${value.length} characters)` : value;
}

/** The stream with every message appended to the step's logs/acp.jsonl. */
function logged(stream: acp.Stream, file: string): acp.Stream {
  const log = (from: "client" | "agent", message: unknown): void => {
    try {
      appendFileSync(file, `${JSON.stringify({ from, message }, shorten)}\n`);
    } catch {
      /* the log is a record, not a dependency */
    }
  };
  const toAgent = new TransformStream<acp.AnyMessage, acp.AnyMessage>({
    transform(m, c) {
      log("client", m);
      c.enqueue(m);
    },
  });
  void toAgent.readable.pipeTo(stream.writable).catch(() => {});
  return {
    writable: toAgent.writable,
    readable: stream.readable.pipeThrough(
      new TransformStream<acp.AnyMessage, acp.AnyMessage>({
        transform(m, c) {
          log("agent", m);
          c.enqueue(m);
        },
      }),
    ),
  };
}

/** A bridge call, its refusal turned into the JSON-RPC error the agent receives. */
async function serve<T>(f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof AcpRefusal) throw new acp.RequestError(e.code === "not_found" ? -32002 : -32000, e.message, { code: e.code });
    throw e;
  }
}

function errorText(e: unknown): string {
  if (e instanceof acp.RequestError) return `${e.message} (JSON-RPC error ${e.code})`;
  return e instanceof Error ? e.message : String(e);
}

async function converse(io: { stdin: Writable; stdout: Readable }, spec: AcpStepSpec, bridge: AcpBridge, said: AnswerEvent[]): Promise<Conversation> {
  const conv: Conversation = { agentInfo: "", sessionId: null, stopReason: null, problem: null };
  const stream = logged(
    acp.ndJsonStream(Writable.toWeb(io.stdin) as WritableStream<Uint8Array>, Readable.toWeb(io.stdout) as ReadableStream<Uint8Array>),
    join(spec.stepDir, ACP_LOG),
  );
  const m = acp.methods.client;
  const app = acp
    .client({ name: TOOL_NAME })
    .onRequest(m.fs.readTextFile, ({ params }) => serve(() => bridge.readTextFile(params)))
    .onRequest(m.fs.writeTextFile, ({ params }) => serve(() => bridge.writeTextFile(params)))
    .onRequest(m.session.requestPermission, ({ params }) => serve(() => bridge.requestPermission(params)))
    .onRequest(m.terminal.create, ({ params }) => serve(() => bridge.createTerminal(params)))
    .onRequest(m.terminal.output, ({ params }) => serve(() => bridge.terminalOutput(params)))
    .onRequest(m.terminal.waitForExit, ({ params }) => serve(() => bridge.waitForExit(params)))
    .onRequest(m.terminal.kill, ({ params }) => serve(() => bridge.killTerminal(params)))
    .onRequest(m.terminal.release, ({ params }) => serve(() => bridge.releaseTerminal(params)));
  let phase = "initialize";
  try {
    await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
        clientInfo: { name: TOOL_NAME, version: TOOL_VERSION },
      });
      const info = init.agentInfo;
      conv.agentInfo = info !== null && info !== undefined ? `${info.name}${info.version !== undefined ? ` ${info.version}` : ""}` : "";
      phase = "session/new";
      const mcpServers: acp.McpServer[] = spec.mcp !== null ? [{ name: "noma-reconcile", command: spec.mcp[0]!, args: spec.mcp.slice(1), env: [] }] : [];
      const session = await ctx.buildSession({ cwd: spec.root, mcpServers }).start();
      conv.sessionId = session.sessionId;
      phase = "session/prompt";
      try {
        session.prompt(spec.prompt).catch(() => {
          /* the same failure reaches nextUpdate */
        });
        for (;;) {
          const next = await session.nextUpdate();
          if (next.kind === "stop") {
            conv.stopReason = next.stopReason;
            break;
          }
          const u = next.update;
          if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") said.push({ kind: "text", text: u.content.text });
          else if (u.sessionUpdate === "tool_call" || u.sessionUpdate === "tool_call_update") said.push({ kind: "tool" });
        }
      } finally {
        session.dispose();
      }
    });
  } catch (e) {
    const auth = e instanceof acp.RequestError && e.code === -32000 && phase === "session/new";
    conv.problem = {
      kind: "protocol",
      message: auth
        ? `the ACP agent needs authentication before a session can start (${errorText(e)}); sign it in with its own command first`
        : `ACP ${phase} failed: ${errorText(e)}`,
    };
  }
  if (conv.problem === null && conv.stopReason !== "end_turn")
    conv.problem = { kind: "failure", message: `the ${spec.role} agent ended its turn with stopReason ${conv.stopReason ?? "none"}, not end_turn` };
  return conv;
}

export async function runAcpAgent(spec: AcpStepSpec): Promise<AcpStepOutcome> {
  let bridge: AcpBridge;
  try {
    bridge = AcpBridge.open({
      root: spec.root,
      runDir: spec.runDir,
      stepDir: spec.stepDir,
      runId: spec.runId,
      index: spec.index,
      role: spec.role,
      env: spec.workspaceEnv,
      permissions: spec.agent.permissions,
    });
  } catch (e) {
    const out: SpawnOutcome = {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      spawnError: `the work tree's workspace cannot serve it: ${(e as Error).message}`,
      stdout: "",
      durationMs: 0,
    };
    writeFileSync(join(spec.stepDir, STDOUT_LOG), "");
    return { out, answer: null, failure: null, protocolError: null, events: [] };
  }
  const said: AnswerEvent[] = [];
  let conversation: Promise<Conversation> | null = null;
  let stoppedByUs = false;
  let grace: NodeJS.Timeout | undefined;
  const out = await spawnAgent({
    argv: spec.agent.cmd,
    cwd: spec.root,
    env: spec.env,
    stdin: null,
    timeoutMs: spec.timeoutMs,
    stepDir: spec.stepDir,
    signal: spec.signal,
    recordIn: spec.recordIn,
    interact: ({ stdin, stdout, stop }) => {
      conversation = converse({ stdin, stdout }, spec, bridge, said).then((c) => {
        // The session is over: close the agent's stdin, and stop it if it does not exit on its own.
        stdin.end();
        grace = setTimeout(() => {
          stoppedByUs = true;
          stop();
        }, EXIT_GRACE_MS);
        return c;
      });
    },
  });
  if (grace !== undefined) clearTimeout(grace);
  const conv: Conversation | null = conversation !== null ? await (conversation as Promise<Conversation>) : null;
  await bridge.close();
  writeFileSync(join(spec.stepDir, STDOUT_LOG), answerTranscript(said));
  const events: EventSpec[] = [];
  let result = out;
  if (stoppedByUs && !out.timedOut && !out.aborted) {
    result = { ...out, exitCode: 0, signal: null };
    events.push({
      type: "acp_agent_stopped",
      message: `the ${spec.role} agent had not exited ${EXIT_GRACE_MS / 1000} s after its session ended and its stdin closed; it was stopped`,
      data: { step_index: spec.index, signal: out.signal },
    });
  }
  if (conv !== null) {
    const c = bridge.counts;
    const denied = c.permissions.filter((p) => !p.allowed);
    events.push({
      type: "acp_session",
      message:
        `${spec.role} agent${conv.agentInfo !== "" ? ` ${conv.agentInfo}` : ""} over ACP: ${conv.stopReason ?? "no end of turn"}; ${c.reads} ` +
        `read${c.reads === 1 ? "" : "s"}, ${c.writes} write${c.writes === 1 ? "" : "s"}, ${c.terminals} ` +
        `command${c.terminals === 1 ? "" : "s"}, ${c.refused} refused; ${c.permissions.length - denied.length} ` +
        `permission${c.permissions.length - denied.length === 1 ? "" : "s"} allowed, ${denied.length} ` +
        `denied${denied.length > 0 ? ` (${denied.map((p) => p.title || p.kind).join("; ")})` : ""}`,
      data: {
        step_index: spec.index,
        agent: conv.agentInfo,
        session_id: conv.sessionId,
        stop_reason: conv.stopReason,
        reads: c.reads,
        writes: c.writes,
        terminals: c.terminals,
        refused: c.refused,
        permissions: c.permissions,
        log: ACP_LOG,
      },
    });
  }
  return {
    out: result,
    answer: finalAnswer(said),
    failure: conv?.problem?.kind === "failure" ? conv.problem.message : null,
    protocolError: conv?.problem?.kind === "protocol" ? conv.problem.message : null,
    events,
  };
}
