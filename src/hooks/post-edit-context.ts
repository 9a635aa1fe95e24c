/**
 * The coding agent's gate, after an edit (PostToolUse, AfterTool): for each file the tool
 * wrote that a spec governs, what the agent is told — which spec(s) govern it and through
 * which glob, that the edit leaves it unreconciled with them, and the MCP tools (and CLI
 * commands) that show the spec's diff and record the file reconciled once spec and file
 * agree. Governance is the library's (the warm, remembered spec set of
 * load-spec-context-cached.ts: an unchanged set of specs loads no YAML); nothing is said of
 * a file no spec governs.
 *
 * The hook does not hash the file: an edit that puts back exactly the content last
 * reconciled is still reported (get_changed_artifacts says for sure, from the hash cache).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { defaultBranchRef } from "../check/commit/resolve-ci-base.js";
import { listFiles } from "../git/list-files.js";
import { loadSpecContextCached } from "../reconcile/load-spec-context-cached.js";
import type { Governor } from "../governance/governance.js";
import { TOOL_NAME } from "../version.js";
import { DEFAULT_TOOL_NAMES, mcpTool, shellQuote } from "./gate-messages.js";

/** The context to give the agent, or null when no spec governs any of `files` (repository-relative). */
export async function postEditContext(root: string, files: readonly string[], tools: string = DEFAULT_TOOL_NAMES): Promise<string | null> {
  if (!existsSync(join(root, ".notarai"))) return null;
  const known = listFiles(root, { untracked: "also", pathspecs: [".notarai"] });
  const ctx = await loadSpecContextCached(root, {}, known);
  const governed = files.map((f) => ({ file: f, by: ctx.governance.governorsOf(f) })).filter((g) => g.by.length > 0);
  if (governed.length === 0) return null;
  const base = defaultBranchRef(root) ?? "main";
  const parts: string[] = [];
  for (const { file, by } of governed) parts.push(fileContext(file, by, base, tools));
  return parts.join("\n");
}

function fileContext(file: string, by: readonly Governor[], base: string, tools: string): string {
  const specs = by.map((g) => (g.category === "spec" ? `${g.spec_path} (its own file: a spec)` : `${g.spec_path} (artifacts ${g.category}: "${g.glob}")`));
  const first = by[0]!.spec_path;
  const each = by.length === 1 ? "that spec" : "each of them";
  return (
    `${TOOL_NAME}: ${file} is governed by ${specs.join(" and ")}. This edit leaves it unreconciled with ${each} until you check that the spec still ` +
    `describes it. See the spec's unreconciled diff with ${mcpTool("get_spec_diff", tools)} ` +
    `{"spec_path":${JSON.stringify(first)},"base_branch":${JSON.stringify(base)}}; ` +
    `if the behaviour the spec describes changed, update the spec; when spec and file agree, record it with ${mcpTool("mark_reconciled", tools)} ` +
    `{"files":[${JSON.stringify(file)}],"spec_path":${JSON.stringify(first)}}` +
    `${by.length > 1 ? " (and the same for each spec above)" : ""}. ` +
    `From a shell: \`npx ${TOOL_NAME} diff --spec ${shellQuote(first)} --base ${shellQuote(base)}\`, ` +
    `then \`npx ${TOOL_NAME} mark-reconciled ${shellQuote(file)} --spec ${shellQuote(first)}\`.`
  );
}
