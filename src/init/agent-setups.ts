/**
 * `init --agent NAME`: register the coding agent's gate (`noma-reconcile agent-hook`, through
 * the launcher init writes) in the agent's own project settings, for the agents whose hooks
 * can stop a tool call before it runs and add context after it:
 *
 * | agent | file | before a tool runs | after |
 * |---|---|---|---|
 * | Claude Code | `.claude/settings.json` | PreToolUse: Write, Edit, MultiEdit, Bash | PostToolUse: Write, Edit, MultiEdit |
 * | Gemini CLI | `.gemini/settings.json` (+ its `mcpServers`) | BeforeTool: write_file, replace, run_shell_command | AfterTool: write_file, replace |
 * | Codex | `.codex/hooks.json` (+ `[mcp_servers]` in `.codex/config.toml`) | PreToolUse: Bash, apply_patch | PostToolUse: apply_patch |
 * | OpenCode | `.opencode/plugins/noma-reconcile.js` (+ `mcp` in `opencode.json`) | tool.execute.before: write, edit, patch, bash | tool.execute.after |
 *
 * Claude Code reads the MCP server from `.mcp.json` (init writes it). Each file is planned
 * here (reading only) and written by init-project.ts with the others. An agent's file that
 * cannot be edited safely is left untouched: the plan carries the snippet to add, and init
 * exits 2.
 */
import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { symlinkEscape } from "../fsx/symlink-escape.js";
import { TOOL_NAME } from "../version.js";
import { LAUNCHER_PATH } from "./launcher-script.js";
import { isOwnOpencodePlugin, OPENCODE_PLUGIN_MARKER, OPENCODE_PLUGIN_PATH, opencodePluginScript } from "./opencode-plugin.js";
import { parse as parseToml } from "smol-toml";
import { AgentSettingsError, type AgentSettingsPlan, mergeAgentSettings, settingsSnippet } from "./merge-agent-settings.js";

export const AGENT_NAMES = ["claude", "gemini", "codex", "opencode"] as const;
export type AgentName = (typeof AGENT_NAMES)[number];

export const AGENT_TITLES: Readonly<Record<AgentName, string>> = Object.freeze({
  claude: "Claude Code",
  gemini: "Gemini CLI",
  codex: "Codex",
  opencode: "OpenCode",
});

/** The gate's command, the launcher found from `projectDir` (a shell expression: the agents run hooks through a shell). */
const gateCommand = (projectDir: string): string => `node "${projectDir}/${LAUNCHER_PATH}" agent-hook`;

/** What each agent's hooks run and where they are registered. */
export const AGENT_HOOKS: Readonly<Record<AgentName, { file: string; plan: AgentSettingsPlan }>> = Object.freeze({
  claude: {
    file: ".claude/settings.json",
    plan: {
      hooks: [
        { event: "PreToolUse", matcher: "Write|Edit|MultiEdit|Bash", command: gateCommand("$CLAUDE_PROJECT_DIR") },
        { event: "PostToolUse", matcher: "Write|Edit|MultiEdit", command: gateCommand("$CLAUDE_PROJECT_DIR") },
      ],
    },
  },
  gemini: {
    file: ".gemini/settings.json",
    plan: {
      hooks: [
        {
          event: "BeforeTool",
          matcher: "write_file|replace|run_shell_command",
          command: gateCommand("$GEMINI_PROJECT_DIR"),
          extra: { name: `${TOOL_NAME}-gate` },
        },
        { event: "AfterTool", matcher: "write_file|replace", command: gateCommand("$GEMINI_PROJECT_DIR"), extra: { name: `${TOOL_NAME}-reconcile` } },
      ],
      mcpServer: { name: TOOL_NAME, entry: { command: "node", args: [LAUNCHER_PATH, "mcp"] } },
    },
  },
  codex: {
    // Codex exports no project directory to its hooks: the top of the work tree, from git.
    file: ".codex/hooks.json",
    plan: {
      hooks: [
        { event: "PreToolUse", matcher: "Bash|apply_patch", command: gateCommand("$(git rev-parse --show-toplevel)") },
        { event: "PostToolUse", matcher: "apply_patch", command: gateCommand("$(git rev-parse --show-toplevel)") },
      ],
    },
  },
  opencode: {
    // OpenCode has no command hooks: its plugin (opencode-plugin.ts) runs the gate. Its configuration holds the server.
    file: "opencode.json",
    plan: { hooks: [], mcpServer: { key: "mcp", name: TOOL_NAME, entry: { type: "local", command: ["node", LAUNCHER_PATH, "mcp"] } } },
  },
});

/** Codex reads its MCP servers from TOML. */
export const CODEX_CONFIG = ".codex/config.toml";
export const CODEX_MCP_TABLE = `[mcp_servers.${TOOL_NAME}]\ncommand = "node"\nargs = [${JSON.stringify(LAUNCHER_PATH)}, "mcp"]\n`;

export interface AgentFilePlan {
  agent: AgentName;
  /** Repository-relative. */
  path: string;
  action: "create" | "update" | "unchanged" | "unsafe";
  detail: string;
  /** The new text (create, update). */
  content?: string;
  /** What to add by hand (unsafe). */
  snippet?: string;
}

function readOrNull(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

/** Why a path must not be written (a symbolic link, or a directory on the way leading out of the repository), or null. */
function linkProblem(root: string, rel: string): string | null {
  const out = symlinkEscape(root, rel);
  if (out !== null) return `${out.link} is a symbolic link out of the repository (to ${out.target})`;
  try {
    if (lstatSync(join(root, rel)).isSymbolicLink()) return "it is a symbolic link";
  } catch {
    /* absent */
  }
  return null;
}

export function planAgentFiles(root: string, agent: AgentName): AgentFilePlan[] {
  const { file, plan } = AGENT_HOOKS[agent];
  const out: AgentFilePlan[] = [planSettings(root, agent, file, plan)];
  if (agent === "codex") out.push(planCodexToml(root));
  if (agent === "opencode") out.push(planOpencodePlugin(root));
  return out;
}

function planSettings(root: string, agent: AgentName, file: string, plan: AgentSettingsPlan): AgentFilePlan {
  const title = AGENT_TITLES[agent];
  const link = linkProblem(root, file);
  if (link !== null)
    return { agent, path: file, action: "unsafe", detail: `${file} left untouched: ${link}; add the entry below yourself`, snippet: settingsSnippet(plan) };
  try {
    const merged = mergeAgentSettings(readOrNull(join(root, file)), file, plan);
    const events = merged.added.filter((a) => !a.includes("."));
    const server = merged.added.filter((a) => a.includes("."));
    const pieces = [
      ...(events.length > 0 ? [`the ${TOOL_NAME} gate (${events.join(", ")})`] : []),
      ...(server.length > 0 ? [`the ${TOOL_NAME} MCP server (${server.join(", ")})`] : []),
    ].join(" and ");
    if (merged.action === "unchanged")
      return {
        agent,
        path: file,
        action: "unchanged",
        detail: plan.hooks.length > 0 ? `${title} runs the ${TOOL_NAME} gate` : `${title} has the ${TOOL_NAME} MCP server`,
      };
    return {
      agent,
      path: file,
      action: merged.action,
      detail: merged.action === "create" ? `${title}: ${pieces}` : `+ ${pieces} for ${title}; everything else kept`,
      content: merged.text,
    };
  } catch (e) {
    if (!(e instanceof AgentSettingsError)) throw e;
    return { agent, path: file, action: "unsafe", detail: `${file} left untouched: ${e.why}; add the entry below yourself`, snippet: e.snippet };
  }
}

/** The OpenCode plugin that runs the gate: written when absent, refreshed when ours, a foreign file left alone. */
function planOpencodePlugin(root: string): AgentFilePlan {
  const path = OPENCODE_PLUGIN_PATH;
  const link = linkProblem(root, path);
  const wanted = opencodePluginScript();
  if (link !== null)
    return { agent: "opencode", path, action: "unsafe", detail: `${path} left untouched: ${link}; write the plugin below there yourself`, snippet: wanted };
  const current = readOrNull(join(root, path));
  if (current === null)
    return { agent: "opencode", path, action: "create", detail: `OpenCode: the ${TOOL_NAME} gate before writes (a plugin)`, content: wanted };
  if (current === wanted) return { agent: "opencode", path, action: "unchanged", detail: `OpenCode runs the ${TOOL_NAME} gate` };
  if (isOwnOpencodePlugin(current)) return { agent: "opencode", path, action: "update", detail: "refreshed", content: wanted };
  return {
    agent: "opencode",
    path,
    action: "unsafe",
    detail:
      `${path} left untouched: another plugin is there (its first line is not \`${OPENCODE_PLUGIN_MARKER}\`); ` +
      "put the plugin below beside it under another name",
    snippet: wanted,
  };
}

/** `[mcp_servers.noma-reconcile]` in `.codex/config.toml`, appended as text and checked by parsing before and after. */
function planCodexToml(root: string): AgentFilePlan {
  const path = CODEX_CONFIG;
  const unsafe = (why: string): AgentFilePlan => ({
    agent: "codex",
    path,
    action: "unsafe",
    detail: `${path} left untouched: ${why}; add the table below yourself`,
    snippet: CODEX_MCP_TABLE,
  });
  const link = linkProblem(root, path);
  if (link !== null) return unsafe(link);
  const current = readOrNull(join(root, path));
  if (current === null) return { agent: "codex", path, action: "create", detail: `Codex: the ${TOOL_NAME} MCP server`, content: CODEX_MCP_TABLE };
  let before: Record<string, unknown>;
  try {
    before = parseToml(current) as Record<string, unknown>;
  } catch (e) {
    return unsafe(`not valid TOML (${(e as Error).message.split("\n")[0]})`);
  }
  const servers = before["mcp_servers"];
  if (servers !== undefined && (servers === null || typeof servers !== "object" || Array.isArray(servers))) return unsafe("mcp_servers is not a table");
  if (servers !== undefined && Object.hasOwn(servers as object, TOOL_NAME))
    return { agent: "codex", path, action: "unchanged", detail: `Codex has the ${TOOL_NAME} MCP server` };
  const eol = current.includes("\r\n") ? "\r\n" : "\n";
  const sep = current.length === 0 || /\n$/.test(current) ? "" : eol;
  const next = `${current}${sep}${current.length > 0 ? eol : ""}${CODEX_MCP_TABLE.replace(/\n/g, eol)}`;
  let after: Record<string, unknown>;
  try {
    after = parseToml(next) as Record<string, unknown>;
  } catch {
    return unsafe("a table appended at its end would not parse (is mcp_servers written inline?)");
  }
  // As plain data (the parser's tables have no prototype; its dates become strings alike).
  const plain = (v: unknown): Record<string, unknown> => JSON.parse(JSON.stringify(v)) as Record<string, unknown>;
  const expected = plain(before);
  expected["mcp_servers"] = {
    ...((expected["mcp_servers"] as Record<string, unknown> | undefined) ?? {}),
    [TOOL_NAME]: { command: "node", args: [LAUNCHER_PATH, "mcp"] },
  };
  if (!isDeepStrictEqual(plain(after), expected)) return unsafe("the table appended at its end would change more than our server");
  return { agent: "codex", path, action: "update", detail: `+ [mcp_servers.${TOOL_NAME}]; everything else kept`, content: next };
}
