/**
 * The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only
 * protocol messages go to stdout; logs go to stderr. Messages are handled one
 * at a time, in arrival order (a patch never races another patch). Resolves
 * once stdin has ended and every message received has been answered.
 */
import { findRepoRootAsync, findWorkTreeTop } from "../git/find-repo-root.js";
import { INVALID_REQUEST, requestIdFromHead, rpcError, serializeMessage } from "./json-rpc.js";
import { type Frame, LineFramer } from "./line-framer.js";
import { McpServer, type RepoRoot } from "./mcp-server.js";
import type { AgentStep } from "../runs/agent-step.js";

export interface McpStdioOptions {
  input: NodeJS.ReadableStream;
  /** Writes one chunk of protocol output. */
  write: (text: string) => void;
  /** Writes one chunk of log output (stderr). */
  log: (text: string) => void;
  cwd: string;
  /** Print a hint on stderr (stdin is a terminal). */
  interactive?: boolean;
  /** Serve the agent of this run step (`mcp --step`). */
  agentStep?: AgentStep;
  /** The longest message taken, in bytes (default DEFAULT_MAX_MESSAGE_BYTES); a longer one is answered with an error, never read whole. */
  maxMessageBytes?: number;
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
    ...(options.agentStep !== undefined ? { agentStep: options.agentStep } : {}),
  });
  const max = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const framer = new LineFramer(max);
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (frame: Frame): void => {
    queue = queue.then(async () => {
      try {
        if ("tooLarge" in frame) {
          const { bytes, head } = frame.tooLarge;
          log(`a message of ${bytes} bytes is over the limit of ${max} bytes: answered with an error, its bytes dropped`);
          const message = `Request too large: ${bytes} bytes; this server takes messages of at most ${max} bytes (noma-reconcile mcp --max-message-bytes <n>)`;
          options.write(`${serializeMessage(rpcError(requestIdFromHead(head), INVALID_REQUEST, message, { bytes, limit: max }))}\n`);
          return;
        }
        const out = await server.handleLine(frame.line);
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
      void queue.then(() => resolve());
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
