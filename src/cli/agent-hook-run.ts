/**
 * `noma-reconcile agent-hook`: the coding agent's gate as a command (Claude Code, Codex and
 * Gemini CLI run it on every tool call, with the call as JSON on stdin). Part of the bin
 * itself (dist/cli.cjs), so that a tool call on any other file costs a start of the bin and
 * no more — no module loader, no parser, no YAML, no zod (docs/perf/agent-hook.md measures
 * it); what judges a document or a spec's governance is loaded only for those calls
 * (commands/agent-hook-command.ts).
 *
 * Exit status: 0 whenever it answers (its answer is the JSON on stdout: a refusal, context
 * after an edit, or nothing); 1 when it cannot read the call (not JSON, no tool name, no
 * input within READ_TIMEOUT_MS, a terminal for stdin), with one line on stderr. Never 2, which
 * agents read as "block this tool": a hook that cannot read its input says so without
 * stopping the agent's other work. A call it read as a write of a document or transcript is
 * never let through on an error: it is refused, saying why.
 */
import { isatty } from "node:tty";
import { homedir } from "node:os";
import { basename } from "node:path";
import { findRepoRoot } from "../git/find-repo-root.js";
import { SKIP_ENV } from "../hooks/hook-script.js";
import { type AgentHookInput, AgentHookInputError, parseAgentHookInput } from "../hooks/agent-hook-input.js";
import { renderGateAnswer, type GateAnswer } from "../hooks/agent-hook-answer.js";
import { type GateRoute, routeToolCall } from "../hooks/agent-gate.js";
import { DEFAULT_TOOL_NAMES, mcpTool } from "../hooks/gate-messages.js";
import { DEFAULT_AUDIT_LOCATIONS, type AuditLocations } from "../governance/audit-paths.js";
import { readConfigText } from "../governance/read-config-text.js";
import { checkedPathKind } from "../layout/checked-path.js";
import { TOOL_NAME } from "../version.js";
import type { CliIO } from "./cli-io.js";

/** The document and governance steps (commands/agent-hook-command.ts), loaded on demand. */
export type AgentHookLibrary = typeof import("./commands/agent-hook-command.js");

/** The environment variable saying how the agent names our MCP tools (`{tool}` for the tool), set by the plugins' launchers. */
export const MCP_TOOLS_ENV = "NOMA_RECONCILE_MCP_TOOLS";

/** How long the gate waits for the end of its input. */
export const READ_TIMEOUT_MS = 10_000;

const USAGE =
  `${TOOL_NAME} agent-hook reads a coding agent's tool call as JSON on stdin (Claude Code, Codex, Gemini CLI, OpenCode's plugin): ` +
  `see \`${TOOL_NAME} agent-hook --help\``;

/**
 * All of stdin as UTF-8, or an error after `timeoutMs` without its end. Through `process.stdin`
 * (a stream the event loop polls), not `fs.read` on fd 0: a read pending in libuv's thread pool
 * keeps the process from exiting, so a writer that never closes the pipe would hold the gate for
 * ever even after it gave up (test/hooks/agent-hook.test.ts holds a pipe open).
 */
function readStdin(timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const stdin = process.stdin;
    const timer = setTimeout(() => {
      stdin.destroy();
      reject(new AgentHookInputError(`no end of input within ${timeoutMs / 1000} s: ${USAGE}`));
    }, timeoutMs);
    stdin.on("data", (chunk: Buffer) => chunks.push(chunk));
    stdin.on("end", () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    stdin.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
  });
}

const skipping = (env: NodeJS.ProcessEnv): boolean => !/^(|0|false)$/i.test(env[SKIP_ENV] ?? "");

/** Where the configuration puts the ledger and the archive: the defaults unless it names them (then its parser loads). */
async function auditLocations(root: string, library: () => Promise<AgentHookLibrary>): Promise<AuditLocations> {
  const config = readConfigText(root);
  if (config === null || !/\b(ledger|archive)\s*:/.test(config)) return { ...DEFAULT_AUDIT_LOCATIONS };
  return (await library()).readAuditLocations(root, config);
}

/** Whether a call the gate could not finish judging names a document or transcript (then it is refused, not let through). */
function namesProtectedFile(input: AgentHookInput): boolean {
  const c = input.call;
  if (c.kind === "write" || c.kind === "edit") return checkedPathKind(basename(c.file)) === "document" || checkedPathKind(basename(c.file)) === "transcript";
  if (c.kind === "shell") return /\.noma/i.test(c.command);
  if (c.kind === "apply_patch") return /\.noma/i.test(c.patch);
  return false;
}

export async function runAgentHook(args: readonly string[], io: CliIO, library: () => Promise<AgentHookLibrary>): Promise<number> {
  const fail = (message: string): number => {
    io.stderr(`${TOOL_NAME} agent-hook: ${message}\n`);
    return 1;
  };
  if (args.length > 0) return fail(`unexpected argument ${JSON.stringify(args[0])}: ${USAGE}`);
  if (isatty(0)) return fail(`stdin is a terminal: ${USAGE}`);
  let input: AgentHookInput;
  try {
    const projectDir = io.env["CLAUDE_PROJECT_DIR"] || io.env["GEMINI_PROJECT_DIR"] || io.cwd;
    input = parseAgentHookInput(await readStdin(READ_TIMEOUT_MS), projectDir);
  } catch (e) {
    return fail(e instanceof AgentHookInputError ? e.message : `cannot read the input: ${(e as Error).message}`);
  }
  const answer = (a: GateAnswer): number => {
    io.stdout(renderGateAnswer(input, a));
    return 0;
  };
  if (skipping(io.env)) return answer({ kind: "allow" });
  // How the agent names our tools: a plugin's launcher says (a Claude Code plugin's tools are mcp__plugin_<plugin>_<server>__<tool>).
  const named = io.env[MCP_TOOLS_ENV] ?? "";
  const mcpTools = /^[A-Za-z0-9_.-]*\{tool\}[A-Za-z0-9_.-]*$/.test(named) ? named : DEFAULT_TOOL_NAMES;
  try {
    const projectDir = io.env["CLAUDE_PROJECT_DIR"] || io.env["GEMINI_PROJECT_DIR"] || input.cwd;
    const found = findRepoRoot(projectDir);
    const root = found ?? projectDir;
    let loaded: Promise<AgentHookLibrary> | undefined;
    const lib = (): Promise<AgentHookLibrary> => (loaded ??= library());
    const route: GateRoute = routeToolCall(input, { root, audit: await auditLocations(root, lib), home: homedir(), mcpTools });
    switch (route.kind) {
      case "allow":
        return answer({ kind: "allow" });
      case "deny":
        return answer({ kind: "deny", reason: route.reason });
      case "documents": {
        const reason = (await lib()).judgeDocumentWrites(route.work, {
          root,
          inRepo: found !== null,
          dialect: input.dialect,
          toolName: input.toolName,
          mcpTools,
        });
        return answer(reason === null ? { kind: "allow" } : { kind: "deny", reason });
      }
      case "governance": {
        const text = await (await lib()).postEditContext(root, route.files, mcpTools);
        return answer(text === null ? { kind: "allow" } : { kind: "context", text });
      }
    }
  } catch (e) {
    const message = (e as Error).message;
    if (input.phase === "pre" && namesProtectedFile(input))
      return answer({
        kind: "deny",
        reason:
          `${TOOL_NAME}: this tool call writes a Noma document or transcript, and the gate could not judge it (${message}), ` +
          `so it was stopped before it ran. Change documents with patch ops (${mcpTool("patch_block", mcpTools)}).`,
      });
    return fail(`the tool call was not judged: ${message}`);
  }
}
