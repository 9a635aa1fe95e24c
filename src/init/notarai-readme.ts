/**
 * `.notarai/README.md` as `init` writes it. Its first line records the
 * version that wrote it; the MCP server compares it with its own.
 */
import { TOOL_NAME, TOOL_URL } from "../version.js";
import { MCP_TOOL_GROUPS } from "./mcp-tool-titles.js";
import { readmeVersionLine } from "./notarai-files.js";

/** The README's list of MCP tools: one line per tool, grouped as the catalog is. */
export function mcpToolList(): string {
  return MCP_TOOL_GROUPS.map((g) => [`For ${g.purpose}:`, ...g.tools.map(([name, title]) => `- \`${name}\` — ${title}`)].join("\n")).join("\n\n");
}

export function notaraiReadme(version: string): string {
  return `${readmeVersionLine(version)}

This directory is managed by [${TOOL_NAME}](${TOOL_URL}). \`npx ${TOOL_NAME} init\` wrote this file;
the line above records its version, and re-running \`init\` after an upgrade refreshes what it wrote.

- \`**/*.spec.yaml\` — the specs: the intent of this repository, its behaviors, constraints and
  invariants, and the files (artifacts) each spec governs. Check them with
  \`npx ${TOOL_NAME} specs validate\`; editors validate them against \`notarai.spec.json\`.
- \`notarai.spec.json\` — the JSON Schema of spec files (generated; \`init\` refreshes it).
- \`reconciliation_state.json\` — the reconciliation snapshot (\`npx ${TOOL_NAME} state snapshot\`,
  or the MCP tool \`snapshot_state\`). Commit it: clones and CI start from it.
- \`.cache/\` — the local hash cache (git-ignored; \`npx ${TOOL_NAME} cache clear\` resets it).

Coding agents use all of it through the MCP server registered in \`.mcp.json\`
(\`${TOOL_NAME} mcp\`, started from this repository's own install). Its tools:

${mcpToolList()}
`;
}
