/**
 * `noma-reconcile mcp`: the MCP server on stdio (newline-delimited JSON-RPC
 * 2.0). Stdout carries protocol messages only; logs go to stderr. Exits 0 when
 * stdin closes.
 */
import { runMcpStdio } from "../../mcp/run-mcp-stdio.js";
import type { CliIO } from "../cli-io.js";

export async function mcpCommand(io: CliIO): Promise<number> {
  let closed = false;
  // The client went away (EPIPE): stop writing, finish quietly.
  process.stdout.on("error", () => {
    closed = true;
  });
  await runMcpStdio({
    input: process.stdin,
    write: (text) => {
      if (!closed) io.stdout(text);
    },
    log: io.stderr,
    cwd: io.cwd,
    interactive: process.stdin.isTTY === true,
  });
  return 0;
}
