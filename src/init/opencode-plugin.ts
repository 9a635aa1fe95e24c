/**
 * OpenCode's way to the gate: OpenCode has no command hooks, but its plugins (JavaScript
 * modules in `.opencode/plugins/`, loaded at start) see every tool call before it runs
 * (`tool.execute.before`, which refuses a call by throwing) and after (`tool.execute.after`,
 * which may add to the output the model reads). `init --agent opencode` writes this one: it
 * hands each write, edit, patch and bash call to `noma-reconcile agent-hook` (through the
 * launcher, as the other agents' hooks do) and throws the gate's reason, or appends its context.
 * It holds no rule: everything is the gate's answer. Ours by its first line.
 */
import { TOOL_NAME } from "../version.js";
import { LAUNCHER_PATH } from "./launcher-script.js";

/** Where `init --agent opencode` writes the plugin. */
export const OPENCODE_PLUGIN_PATH = `.opencode/plugins/${TOOL_NAME}.js`;

export const OPENCODE_PLUGIN_MARKER = `// ${TOOL_NAME} OpenCode plugin:`;

/** OpenCode names an MCP server's tools `<server>_<tool>`. */
export const OPENCODE_TOOL_NAMES = `${TOOL_NAME}_{tool}`;

export function opencodePluginScript(): string {
  return `${OPENCODE_PLUGIN_MARKER} the noma-reconcile gate before OpenCode writes (written by \`noma-reconcile init --agent opencode\`, which rewrites it).
// Before each write, edit, patch or bash call it asks \`noma-reconcile agent-hook\` (through ${LAUNCHER_PATH}) and refuses
// the call with the gate's reason; after a write, edit or patch it adds the gate's word on the spec that governs the file.
// Where the gate cannot answer (noma-reconcile not installed), the call runs and OpenCode's log says why.
import { spawnSync } from "node:child_process";
import { join } from "node:path";

const GATED = new Set(["write", "edit", "patch", "apply_patch", "bash"]);
const WRITES = new Set(["write", "edit", "patch", "apply_patch"]);

export const NomaReconcileGate = async ({ directory, worktree }) => {
  const root = worktree || directory;
  const calls = new Map();
  const ask = (event, tool, args) => {
    const r = spawnSync("node", [join(root, ${JSON.stringify(LAUNCHER_PATH)}), "agent-hook"], {
      cwd: directory,
      input: JSON.stringify({ hook_event_name: event, tool_name: tool, cwd: directory, tool_input: args }),
      encoding: "utf8",
      env: { ...process.env, NOMA_RECONCILE_MCP_TOOLS: ${JSON.stringify(OPENCODE_TOOL_NAMES)} },
      timeout: 60000,
    });
    if (r.error || r.status !== 0) {
      console.error(\`${TOOL_NAME}: the gate did not answer: \${r.error?.message ?? r.stderr}\`);
      return null;
    }
    const out = r.stdout.trim();
    return out.length > 0 ? JSON.parse(out).hookSpecificOutput ?? null : null;
  };
  return {
    "tool.execute.before": async (input, output) => {
      if (!GATED.has(input.tool)) return;
      if (WRITES.has(input.tool)) calls.set(input.callID, output.args);
      const answer = ask("PreToolUse", input.tool, output.args);
      if (answer?.permissionDecision === "deny") {
        calls.delete(input.callID);
        throw new Error(answer.permissionDecisionReason);
      }
    },
    "tool.execute.after": async (input, output) => {
      const args = calls.get(input.callID);
      calls.delete(input.callID);
      if (args === undefined) return;
      const answer = ask("PostToolUse", input.tool, args);
      if (answer?.additionalContext) output.output = \`\${output.output ?? ""}\\n\\n\${answer.additionalContext}\`;
    },
  };
};
`;
}

export function isOwnOpencodePlugin(text: string): boolean {
  return text.replace(/^\uFEFF/, "").startsWith(OPENCODE_PLUGIN_MARKER);
}
