/**
 * The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout. Only
 * protocol messages go to stdout; logs go to stderr. Messages are handled one
 * at a time, in arrival order (a patch never races another patch). Resolves
 * once stdin has ended and every message received has been answered.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { discoverRepoRoot } from "../git/discover-repo-root.js";
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
  /** Print a hint on stderr (stdin is a terminal). */
  interactive?: boolean;
  /** Serve the agent of this run step (`mcp --step`). */
  agentStep?: AgentStep;
}

/** The git top level of `cwd`, found in process when the layout is plain (else git is asked on first need: spawning it at start-up costs a client's handshake several ms); outside a repository, `cwd`. */
export async function findRepoRootAsync(cwd: string): Promise<RepoRoot> {
  const found = discoverRepoRoot(cwd);
  if (found !== undefined) return { root: found, inRepo: true };
  const { execFile } = await import("node:child_process");
  return new Promise((resolve) => {
    execFile("git", ["rev-parse", "--show-toplevel"], { cwd, windowsHide: true }, (err, stdout) => {
      const root = err === null ? String(stdout).trim() : "";
      resolve(root.length > 0 ? { root, inRepo: true } : { root: cwd, inRepo: false });
    });
  });
}

/** The nearest directory at or above `cwd` holding `.git` (a directory, or a file in worktrees and submodules), else `cwd`: git's answer without spawning git. */
export function findWorkTreeTop(cwd: string): string {
  let dir = resolve(cwd);
  for (;;) {
    if (existsSync(join(dir, ".git"))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd);
    dir = parent;
  }
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
