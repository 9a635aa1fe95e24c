/**
 * The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only
 * protocol messages go to stdout; logs go to stderr. Tool calls are handled one
 * at a time, in arrival order (a patch never races another patch); every other
 * message (ping, initialize, tools/list, …) in a lane of its own, also in order,
 * so a tool call that takes long never leaves them unanswered. Resolves once
 * stdin has ended and every message received has been answered.
 */
import { findRepoRootAsync, findWorkTreeTop } from "../git/find-repo-root.js";
import { LineFramer } from "./line-framer.js";
import { callsTool, McpServer, type RepoRoot } from "./mcp-server.js";
import { parseLine } from "./json-rpc.js";
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
}

export function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const log = (line: string): void => options.log(`noma-reconcile mcp: ${line}\n`);
  let root: Promise<RepoRoot> | undefined;
  const server = new McpServer({
    root: () => (root ??= findRepoRootAsync(options.cwd)),
    projectRoot: () => findWorkTreeTop(options.cwd),
    log,
    ...(options.agentStep !== undefined ? { agentStep: options.agentStep } : {}),
  });
  const framer = new LineFramer();
  const lanes = { tools: Promise.resolve(), protocol: Promise.resolve() };
  const enqueue = (line: string): void => {
    const parsed = parseLine(line);
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
      for (const line of framer.end()) enqueue(line);
      void Promise.all([lanes.tools, lanes.protocol]).then(() => resolve());
    };
    options.input.on("data", (chunk: Buffer | string) => {
      for (const line of framer.push(chunk)) enqueue(line);
    });
    options.input.on("end", finish);
    options.input.on("close", finish);
    options.input.on("error", (e: Error) => {
      log(`stdin: ${e.message}`);
      finish();
    });
  });
}
