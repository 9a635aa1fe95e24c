/**
 * The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only
 * protocol messages go to stdout; logs go to stderr. Tool calls are handled one
 * at a time, in arrival order (a patch never races another patch); every other
 * message (ping, initialize, tools/list, …) in a lane of its own, also in order,
 * so a tool call that takes long never leaves them unanswered. The client's
 * responses to our own requests (`roots/list`) are taken as they arrive: a tool
 * call waiting for the client's roots must not wait behind itself. Resolves once
 * stdin has ended and every message received has been answered.
 */
import { findRepoRootAsync, findWorkTreeTop } from "../git/find-repo-root.js";
import { INVALID_REQUEST, parseLine, requestIdFromHead, rpcError, serializeMessage } from "./json-rpc.js";
import { type Frame, LineFramer } from "./line-framer.js";
import { callsTool, McpServer, type RepoRoot } from "./mcp-server.js";
import type { AgentStep } from "../runs/agent-step.js";

export interface McpStdioOptions {
  input: NodeJS.ReadableStream;
  /** Writes one chunk of protocol output. */
  write: (text: string) => void;
  /** Writes one chunk of log output (stderr). */
  log: (text: string) => void;
  cwd: string;
  /** The repository whose `.norma/` run_list and run_status read (default: the tools' root). */
  runsRoot?: string;
  /** Print a hint on stderr (stdin is a terminal). */
  interactive?: boolean;
  /** Serve the agent of this run step (`mcp --step`). */
  agentStep?: AgentStep;
  /** The longest message taken, in bytes (default DEFAULT_MAX_MESSAGE_BYTES); a longer one is answered with an error, never read whole. */
  maxMessageBytes?: number;
  /** `mcp --read-only`: list and serve only the tools that read. */
  readOnly?: boolean;
}

/** The longest message the server takes by default: 32 MiB, as `serve --http` takes a body (a large document, JSON-escaped, fits). */
export const DEFAULT_MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

export function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const log = (line: string): void => options.log(`noma-reconcile mcp: ${line}\n`);
  let root: Promise<RepoRoot> | undefined;
  const server = new McpServer({
    // A failure is not kept: the next tool call asks git again.
    root: () =>
      (root ??= findRepoRootAsync(options.cwd).catch((e: unknown) => {
        root = undefined;
        throw e;
      })),
    projectRoot: () => findWorkTreeTop(options.cwd),
    log,
    send: (message) => options.write(`${serializeMessage(message)}\n`),
    ...(options.agentStep !== undefined ? { agentStep: options.agentStep } : {}),
    ...(options.readOnly === true ? { readOnly: true } : {}),
    ...(options.runsRoot !== undefined ? { runsRoot: options.runsRoot } : {}),
  });
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const framer = new LineFramer(max);
  const lanes = { tools: Promise.resolve(), protocol: Promise.resolve() };
  const enqueue = (frame: Frame): void => {
    if ("tooLarge" in frame) {
      // Answered in the protocol lane: an oversized message is never read whole, so it calls no tool.
      lanes.protocol = lanes.protocol.then(() => {
        const { bytes, head } = frame.tooLarge;
        log(`a message of ${bytes} bytes is over the limit of ${max} bytes: answered with an error, its bytes dropped`);
        const message = `Request too large: ${bytes} bytes; this server takes messages of at most ${max} bytes (noma-reconcile mcp --max-message-bytes <n>)`;
        options.write(`${serializeMessage(rpcError(requestIdFromHead(head), INVALID_REQUEST, message, { bytes, limit: max }))}\n`);
      });
      return;
    }
    const parsed = parseLine(frame.line);
    // A response (no "method") to a request of ours is settled now, not queued.
    if (parsed.ok && server.acceptResponse(parsed.value)) return;
    const lane = callsTool(parsed) ? "tools" : "protocol";
    lanes[lane] = lanes[lane].then(async () => {
      try {
        const out = await server.handleParsed(parsed);
        if (out !== null) options.write(`${out}\n`);
      } catch (e) {
        log(`could not answer a message: ${(e as Error).stack ?? String(e)}`);
      }
    });
  };
  if (options.interactive === true) log("MCP server on stdio: send newline-delimited JSON-RPC 2.0 messages; end input (Ctrl-D) to stop.");
  return new Promise((resolve) => {
    let ended = false;
    const finish = (): void => {
      if (ended) return;
      ended = true;
      for (const frame of framer.end()) enqueue(frame);
      void Promise.all([lanes.tools, lanes.protocol]).then(() => resolve());
    };
    options.input.on("data", (chunk: Buffer | string) => {
      for (const frame of framer.push(chunk)) enqueue(frame);
    });
    options.input.on("end", finish);
    options.input.on("close", finish);
    options.input.on("error", (e: Error) => {
      log(`stdin: ${e.message}`);
      finish();
    });
  });
}
