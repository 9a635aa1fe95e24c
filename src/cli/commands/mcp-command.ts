/**
 * `noma-reconcile mcp`: the MCP server on stdio (newline-delimited JSON-RPC
 * 2.0). Stdout carries protocol messages only; logs go to stderr. Exits 0 when
 * stdin closes. `--step RUN_ID/NNN-role` serves one run step's agent (agent-step.ts);
 * `--max-message-bytes` bounds one message (a longer one is answered with an error, never held).
 * `--read-only` lists and serves only the tools that read.
 * `--root DIR` is the repository the tools work in (a run gives its worktree),
 * `--runs-root DIR` the one whose `.norma/` the run tools read (the main checkout).
 */
import { resolve } from "node:path";
import { parseAgentStep, type AgentStep } from "../../runs/agent-step.js";
import { DEFAULT_MAX_MESSAGE_BYTES, runMcpStdio } from "../../mcp/run-mcp-stdio.js";
import { UsageError } from "../../errors/noma-error.js";
import type { CliIO } from "../cli-io.js";
import { intOption } from "../repo-context.js";

export async function mcpCommand(io: CliIO, options: Record<string, unknown> = {}): Promise<number> {
  let agentStep: AgentStep | undefined;
  if (options["step"] !== undefined) {
    const parsed =
      typeof options["step"] === "string" ? parseAgentStep(options["step"]) : { ok: false as const, problem: "--step takes one value: <run_id>/<NNN-role>" };
    if (!parsed.ok) throw new UsageError(parsed.problem);
    agentStep = parsed.step;
  }
  const maxMessageBytes = intOption("max-message-bytes", options["maxMessageBytes"], DEFAULT_MAX_MESSAGE_BYTES, 1024, 1 << 30);
  const dirOption = (name: string): string | undefined => {
    const v = options[name];
    if (v === undefined) return undefined;
    if (typeof v !== "string" || v === "") throw new UsageError(`--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} takes one directory`);
    return resolve(io.cwd, v);
  };
  const root = dirOption("root");
  const runsRoot = dirOption("runsRoot");
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
    cwd: root ?? io.cwd,
    ...(runsRoot !== undefined ? { runsRoot } : {}),
    interactive: process.stdin.isTTY === true,
    maxMessageBytes,
    ...(agentStep !== undefined ? { agentStep } : {}),
    ...(options["readOnly"] === true ? { readOnly: true } : {}),
  });
  return 0;
}
