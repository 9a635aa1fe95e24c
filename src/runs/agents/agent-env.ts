/**
 * The environment an agent runs with. `exec` agents get a minimal one: the
 * variables a program needs to run at all (PATH, HOME, locale, temp dirs, and
 * Windows' system variables), the `NORMA_*` variables describing the step
 * (`NORMA_MCP_COMMAND`: the JSON argv of our MCP server for the step), and the names listed in the agent's `env` — nothing else of ours (no
 * tokens, no CI secrets). The coding CLIs (codex, claude, gemini, opencode)
 * inherit the environment, since their credentials and settings live there,
 * plus the `NORMA_*` variables.
 */
import type { AgentRequest } from "../agent-protocol.js";

const BASE = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "LANG",
  "LANGUAGE",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "TEMP",
  "TMP",
  "SYSTEMROOT",
  "SYSTEMDRIVE",
  "COMSPEC",
  "PATHEXT",
  "WINDIR",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
];

export function normaVariables(request: AgentRequest): Record<string, string> {
  return {
    NORMA_RUN_ID: request.run_id,
    NORMA_ROLE: request.step.role,
    NORMA_STEP_INDEX: String(request.step.index),
    NORMA_ITERATION: String(request.step.iteration),
    NORMA_STEP_DIR: request.paths.step_dir,
    NORMA_RUN_DIR: request.paths.run_dir,
    NORMA_REPO_ROOT: request.paths.repo_root,
    ...(request.context.mcp_server !== undefined
      ? { NORMA_MCP_COMMAND: JSON.stringify([request.context.mcp_server.command, ...request.context.mcp_server.args]) }
      : {}),
  };
}

export function minimalEnv(base: NodeJS.ProcessEnv, request: AgentRequest, pass: readonly string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of [...BASE, ...pass]) if (base[k] !== undefined) env[k] = base[k];
  return { ...env, ...normaVariables(request) };
}

export function inheritedEnv(base: NodeJS.ProcessEnv, request: AgentRequest, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...base, ...extra, ...normaVariables(request) };
}
