/**
 * What the agent gate says (pure, light): the reasons it gives an agent for a refused write,
 * each naming what to do instead — the MCP tool as the agent sees it
 * (`mcp__noma-reconcile__patch_block`) and the CLI command — and the context it adds after an
 * edit of a governed file. The wording lives here so the fast path and the document path
 * (document-gate.ts) speak alike.
 */
import { TOOL_NAME } from "../version.js";
import type { AgentDialect } from "./agent-hook-input.js";

/** An MCP tool of our server as an agent sees it. */
/** How an agent names our server's tools by default (`.mcp.json` in Claude Code; Codex and Gemini CLI alike). */
export const DEFAULT_TOOL_NAMES = `mcp__${TOOL_NAME}__{tool}`;

/**
 * An MCP tool of our server as the agent sees it. `names`: the agent's naming, `{tool}` standing
 * for the tool (a Claude Code plugin's server: `mcp__plugin_<plugin>_<server>__{tool}`; OpenCode: `<server>_{tool}`).
 */
export const mcpTool = (tool: string, names: string = DEFAULT_TOOL_NAMES): string => names.replace("{tool}", tool);

/** The name each agent records in a transcript's actor. */
export const ACTOR_NAMES: Readonly<Record<AgentDialect, string>> = Object.freeze({
  claude: "claude-code",
  codex: "codex",
  gemini: "gemini-cli",
  opencode: "opencode",
});

/** How a tool call is named in a message: "this Write", "this shell command". */
export function toolPhrase(toolName: string, shell: boolean): string {
  return shell ? "this shell command" : `this ${toolName}`;
}

/** `s` quoted for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
}

export type RecordKind = "transcript" | "ledger" | "archive";

/** Why a record the tools write is never edited, and what to do instead. */
export function recordReason(kind: RecordKind, rel: string, how: string, tools: string = DEFAULT_TOOL_NAMES): string {
  switch (kind) {
    case "transcript": {
      const doc = rel.replace(/\.patches$/i, "");
      return (
        `${TOOL_NAME}: ${rel} is the edit transcript of ${doc} (${how} was stopped before it ran). ` +
        "The patch engine alone appends to it, one sealed record per op, " +
        `and check, the pre-commit hook and ci verify its hash chain: it is never edited, moved or removed by hand. ` +
        `To change ${doc}, send patch ops with ${mcpTool("patch_block", tools)} (or \`npx ${TOOL_NAME} patch ${shellQuote(doc)} --op '…'\`); ` +
        `an edit someone made outside the protocol is acknowledged with \`npx ${TOOL_NAME} transcript accept ${shellQuote(doc)} --reason '…'\`.`
      );
    }
    case "ledger":
      return (
        `${TOOL_NAME}: ${rel} is the workspace tools' evidence ledger (${how} was stopped before it ran). Only the workspace tools append to it, ` +
        `and \`npx ${TOOL_NAME} ledger verify\` checks its chain: it is never edited, moved or removed.`
      );
    case "archive":
      return (
        `${TOOL_NAME}: ${rel} is a version the workspace tools archived before overwriting a file (${how} was stopped before it ran): ` +
        `the archive is evidence and is never edited, moved or removed.`
      );
  }
}

/** The shell's write of a document, refused. */
export function shellDocumentReason(writes: ReadonlyArray<{ rel: string; how: string; exists: boolean }>, tools: string = DEFAULT_TOOL_NAMES): string {
  const list = writes.map((w) => `${w.rel} (${w.how})`).join(", ");
  const created = writes.filter((w) => !w.exists).map((w) => w.rel);
  return (
    `${TOOL_NAME}: this shell command writes ${writes.length === 1 ? "a Noma document" : "Noma documents"} outside the patch engine: ${list}. ` +
    "It was stopped before it ran. " +
    `Documents change only through patch ops, which are validated, applied atomically and recorded in <doc>.patches: read the ids and block hashes with ` +
    `${mcpTool("read_doc", tools)}, then send ops with ${mcpTool("patch_block", tools)} (from a shell: \`npx ${TOOL_NAME} patch <doc> --op '…'\`). ` +
    (created.length > 0 ? `To create ${created.join(", ")}, use your file-writing tool: a new document is validated before it lands. ` : "") +
    `Commands that only read documents are fine.`
  );
}

/** The shell may write a protected file the gate cannot name before it runs. */
export function shellUnknownReason(unknown: ReadonlyArray<{ shown: string; how: string }>, tools: string = DEFAULT_TOOL_NAMES): string {
  const list = unknown.map((u) => `${u.shown} (${u.how})`).join(", ");
  return (
    `${TOOL_NAME}: this shell command may write a Noma document or transcript: it names one, and where ${list} ` +
    `writes is known only when it runs. It was stopped before it ran. Name the files literally (a command that writes no document passes), ` +
    `and change documents only with patch ops: ${mcpTool("read_doc", tools)} for ids and block hashes, ${mcpTool("patch_block", tools)} to apply them ` +
    `(from a shell: \`npx ${TOOL_NAME} patch <doc> --op '…'\`).`
  );
}
