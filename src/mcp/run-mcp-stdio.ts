/**
 * The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only
 * protocol messages go to stdout; logs go to stderr. Messages are handled one
 * at a time, in arrival order (a patch never races another patch). Resolves
 * once stdin has ended and every message received has been answered.
 */
import { findRepoRootAsync, findWorkTreeTop } from "../git/find-repo-root.js";
import { LineFramer } from "./line-framer.js";
import { McpServer, type RepoRoot } from "./mcp-server.js";
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
}

export function runMcpStdio(options: McpStdioOptions): Promise<void> {
  const log = (line: string): void => options.log(`noma-reconcile mcp: ${line}\n`);
  let root: Promise<RepoRoot> | undefined;
  const server = new McpServer({
    root: () => (root ??= findRepoRootAsync(options.cwd)),
    projectRoot: () => findWorkTreeTop(options.cwd),
    log,
    ...(options.agentStep !== undefined ? { agentStep: options.agentStep } : {}),
    ...(options.runsRoot !== undefined ? { runsRoot: options.runsRoot } : {}),
  });
  const framer = new LineFramer();
  let queue: Promise<void> = Promise.resolve();
  const enqueue = (line: string): void => {
    queue = queue.then(async () => {
      try {
        const out = await server.handleLine(line);
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
      void queue.then(() => resolve());
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
