// noma-reconcile launcher: runs the project's own noma-reconcile; never npx, never the network.
// The Claude Code plugin of noma-reconcile runs this file for its MCP server (`mcp`) and its hooks (`agent-hook`).
// It runs the project's own install of noma-reconcile (`npm i -D noma-reconcile`), found the way require()
// finds it from the project Claude Code works in ($CLAUDE_PROJECT_DIR, else the working directory), in this process.
// Where it is not installed, it says so on stderr and exits 1.
"use strict";
process.env.NOMA_RECONCILE_MCP_TOOLS ||= "mcp__plugin_noma-reconcile_noma-reconcile__{tool}";
const path = require("node:path");
const name = "noma-reconcile";
const from = process.env.CLAUDE_PROJECT_DIR || process.cwd();
const what = { mcp: "the MCP server cannot start", "agent-hook": "the coding agent's gate cannot run" }[process.argv[2]] || "it cannot run";
let pkg;
try {
  pkg = require.resolve(`${name}/package.json`, { paths: [from] });
} catch {
  process.stderr.write(`${name}: ${what}: ${name} is not installed in ${from} (no node_modules/${name}). Install it: npm i -D ${name}\n`);
  process.exitCode = 1;
}
if (pkg !== undefined) {
  const bin = path.resolve(path.dirname(pkg), require(pkg).bin[name]);
  process.argv.splice(1, 1, bin);
  require(bin);
}
