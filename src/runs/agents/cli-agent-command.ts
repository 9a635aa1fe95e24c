/**
 * The command line of each one-shot coding CLI (norma §6.1, §11–§13, plus
 * Claude Code). Pure: argv and extra environment from the agent's
 * configuration, the prompt, the working directory, the step directory and
 * our MCP server's command. Invocations, from each tool's documentation:
 *
 * - codex: `codex exec [--model M] --sandbox workspace-write [--add-dir STEP]
 *   --ephemeral -c mcp_servers.noma-reconcile.command=… -c
 *   mcp_servers.noma-reconcile.args=[…] PROMPT` — non-interactive mode prints
 *   only the final agent message on stdout, progress on stderr; `exec` runs
 *   read-only unless `--sandbox workspace-write`; `--add-dir` grants one more
 *   writable directory; `-c key=value` overrides config.toml for this run
 *   (values parsed as TOML), which is how an MCP server is given per run
 *   (developers.openai.com/codex/noninteractive, /codex/cli/reference).
 * - claude: `claude -p PROMPT --output-format json --permission-mode
 *   acceptEdits --mcp-config JSON --strict-mcp-config --allowedTools
 *   mcp__noma-reconcile__<each tool of the role>,… [--add-dir STEP] [--model M]` —
 *   print mode answers once and exits; `json` is one object whose `result` is
 *   the final text; `--mcp-config` takes JSON files or strings;
 *   `--allowedTools` takes a comma-separated list of `mcp__<server>__<tool>` (docs.anthropic.com/en/docs/claude-code/cli-reference,
 *   …/claude-code/sdk).
 * - gemini: `gemini [--model M] --output-format json --approval-mode
 *   auto_edit [--include-directories STEP] --prompt PROMPT` — headless mode;
 *   `json` is `{response, stats, error?}` (geminicli.com/docs/cli/headless).
 *   Gemini CLI takes MCP servers only from its settings.json (`gemini mcp
 *   add`), not per run: add `noma-reconcile mcp` there to give it our tools.
 * - opencode: `opencode run [--model M] --format json PROMPT` — one prompt,
 *   then exit; `--format json` prints JSON events, one per line, the final
 *   answer in the last `text` event; `OPENCODE_CONFIG_CONTENT` is a whole
 *   configuration merged over the user's, used for the `mcp` entry
 *   (opencode.ai docs: run, MCP servers).
 *
 * `args` from the configuration go right after the subcommand. The tool runs
 * in `path` (default the repository root); when the step directory is not
 * under it, the tool's own flag for an extra writable directory is added.
 */
import { isAbsolute, relative, sep } from "node:path";
import { roleTools } from "../agent-step.js";
import type { Role } from "../../layout/norma-layout.js";
import type { CliAgentConfig, CliAgentType } from "../run-config.js";

export const MCP_SERVER_NAME = "noma-reconcile";

export interface CliAgentContext {
  /** Working directory of the tool (absolute). */
  cwd: string;
  /** The step directory (absolute). */
  stepDir: string;
  prompt: string;
  /** The step's role: the MCP tools it may call. */
  role: Role;
  /** argv of our MCP server for this step (`node …/dist/cli.cjs mcp --step RUN/NNN-role`), or null to give none. */
  mcp: readonly string[] | null;
}

export interface CliCommand {
  argv: string[];
  env: Record<string, string>;
}

function under(base: string, p: string): boolean {
  const rel = relative(base, p);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

/**
 * The MCP tools an agent may call without being asked (Claude Code's `--allowedTools`): those
 * of its role (mcp/agent-step.ts) — plan and check the read-only ones (reconciliation, Noma
 * documents, workspace reads, runs); do and act also the workspace tools that edit files and run
 * allowlisted commands. The server, started with `--step`, serves only those tools whatever the
 * client allows, so the policy holds for every backend.
 */
export function allowedMcpTools(role: Role): string[] {
  return roleTools(role).map((t) => `mcp__${MCP_SERVER_NAME}__${t}`);
}

export function cliAgentCommand(config: CliAgentConfig, ctx: CliAgentContext): CliCommand {
  const extra = config.args ?? [];
  const model = config.model !== undefined ? ["--model", config.model] : [];
  const outside = !under(ctx.cwd, ctx.stepDir);
  const mcp = ctx.mcp;
  const type: CliAgentType = config.type;
  switch (type) {
    case "codex":
      return {
        argv: [
          "codex",
          "exec",
          ...extra,
          ...model,
          "--sandbox",
          "workspace-write",
          ...(outside ? ["--add-dir", ctx.stepDir] : []),
          "--ephemeral",
          ...(mcp !== null
            ? [
                "-c",
                `mcp_servers.${MCP_SERVER_NAME}.command=${JSON.stringify(mcp[0])}`,
                "-c",
                `mcp_servers.${MCP_SERVER_NAME}.args=${JSON.stringify(mcp.slice(1))}`,
              ]
            : []),
          ctx.prompt,
        ],
        env: {},
      };
    case "claude":
      return {
        argv: [
          "claude",
          "-p",
          ctx.prompt,
          ...extra,
          "--output-format",
          "json",
          "--permission-mode",
          "acceptEdits",
          ...(mcp !== null
            ? [
                "--mcp-config",
                JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: { type: "stdio", command: mcp[0], args: mcp.slice(1) } } }),
                "--strict-mcp-config",
                "--allowedTools",
                allowedMcpTools(ctx.role).join(","),
              ]
            : []),
          ...(outside ? ["--add-dir", ctx.stepDir] : []),
          ...model,
        ],
        env: {},
      };
    case "gemini":
      return {
        argv: [
          "gemini",
          ...extra,
          ...model,
          "--output-format",
          "json",
          "--approval-mode",
          "auto_edit",
          ...(outside ? ["--include-directories", ctx.stepDir] : []),
          "--prompt",
          ctx.prompt,
        ],
        env: {},
      };
    case "opencode":
      return {
        argv: ["opencode", "run", ...extra, ...model, "--format", "json", ctx.prompt],
        env:
          mcp !== null ? { OPENCODE_CONFIG_CONTENT: JSON.stringify({ mcp: { [MCP_SERVER_NAME]: { type: "local", command: [...mcp], enabled: true } } }) } : {},
      };
  }
}
