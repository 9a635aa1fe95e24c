/**
 * The launcher `.mcp.json` and the coding agents' hooks run: a short, commented CommonJS file
 * that runs the project's own install of noma-reconcile in its own process — found the way
 * `require` finds it, read from the package's `bin` (so it stays right across upgrades) —
 * and where none is installed says so on stderr and exits 1. Never npx, never the network, no
 * shell: `node` is what every client can spawn, on Windows too. So the registrations read
 * as plain commands: `node .notarai/noma-reconcile.cjs mcp`,
 * `node "$CLAUDE_PROJECT_DIR/.notarai/noma-reconcile.cjs" agent-hook`.
 *
 * Two copies of one text: `init` writes `.notarai/noma-reconcile.cjs` into a repository (it
 * looks from the repository above it), and this repository's Claude Code plugin carries
 * `hooks/noma-reconcile.cjs` (it looks from the project Claude Code works in). Ours by its
 * first line, whatever the version that wrote it.
 */
import { TOOL_NAME } from "../version.js";

/** Where `init` writes the launcher. */
export const LAUNCHER_PATH = ".notarai/noma-reconcile.cjs";

/** Where this repository's Claude Code plugin keeps its copy (relative to the plugin's root). */
export const PLUGIN_LAUNCHER_PATH = "hooks/noma-reconcile.cjs";

/** The first line of every launcher we write. */
export const LAUNCHER_MARKER = `// ${TOOL_NAME} launcher:`;

export type LauncherPlace = "repository" | "plugin";

/** The launcher's text. `place`: where it looks for the install from. */
export function launcherScript(place: LauncherPlace): string {
  const where =
    place === "repository"
      ? [
          "// `noma-reconcile init` wrote this file; `init` rewrites it, so edit your registrations instead.",
          "// .mcp.json runs `node .notarai/noma-reconcile.cjs mcp`; a coding agent's hooks run it with `agent-hook`.",
          "// It runs this repository's own install of noma-reconcile (`npm i -D noma-reconcile`), found the way",
          "// require() finds it from the repository (the directory above this file's), in this process.",
        ]
      : [
          "// The Claude Code plugin of noma-reconcile runs this file for its MCP server (`mcp`) and its hooks (`agent-hook`).",
          "// It runs the project's own install of noma-reconcile (`npm i -D noma-reconcile`), found the way require()",
          "// finds it from the project Claude Code works in ($CLAUDE_PROJECT_DIR, else the working directory), in this process.",
        ];
  const from = place === "repository" ? "path.dirname(__dirname)" : "process.env.CLAUDE_PROJECT_DIR || process.cwd()";
  // A plugin's MCP tools are named mcp__plugin_<plugin>_<server>__<tool>: the gate's messages name them so.
  const plugin = place === "plugin" ? `process.env.NOMA_RECONCILE_MCP_TOOLS ||= "mcp__plugin_${TOOL_NAME}_${TOOL_NAME}__{tool}";\n` : "";
  return `${LAUNCHER_MARKER} runs the project's own noma-reconcile; never npx, never the network.
${where.join("\n")}
// Where it is not installed, it says so on stderr and exits 1.
"use strict";
${plugin}const path = require("node:path");
const name = ${JSON.stringify(TOOL_NAME)};
const from = ${from};
const what = { mcp: "the MCP server cannot start", "agent-hook": "the coding agent's gate cannot run" }[process.argv[2]] || "it cannot run";
let pkg;
try {
  pkg = require.resolve(\`\${name}/package.json\`, { paths: [from] });
} catch {
  process.stderr.write(\`\${name}: \${what}: \${name} is not installed in \${from} (no node_modules/\${name}). Install it: npm i -D \${name}\\n\`);
  process.exitCode = 1;
}
if (pkg !== undefined) {
  const bin = path.resolve(path.dirname(pkg), require(pkg).bin[name]);
  process.argv.splice(1, 1, bin);
  require(bin);
}
`;
}

/** Whether a file's text is a launcher we wrote (any version). */
export function isOwnLauncher(text: string): boolean {
  return text.replace(/^\uFEFF/, "").startsWith(LAUNCHER_MARKER);
}
