/**
 * The coding agent's gate, document step (loaded only when a tool call writes a `.noma`
 * document; agent-gate.ts routes it here). With the library's parser, ids, patch ops and
 * validator, never a rule of its own:
 *
 * - an existing document: the write is refused, and the reason gives the change as patch ops
 *   ready to send — the `patch_block` arguments (with the document's `base_sha256` and the
 *   block's `baseHash`) and the same as a `noma-reconcile patch` command — where the change
 *   falls inside one block (editing/ops-for-text-change.ts, each answer applied in memory
 *   and checked to give exactly the agent's text); otherwise why there is none, and how to
 *   read the ids and hashes to write the ops;
 * - a new document: validated as `check` and `validate_doc` would (validate-document-text.ts);
 *   written when it has no error, refused with each error (code, line, message) otherwise.
 * A document the gate cannot read is never let through: the write is refused, saying why.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { validateDocumentText } from "../check/validate-document-text.js";
import { opsForTextChange } from "../editing/ops-for-text-change.js";
import { decodeUtf8 } from "../fsx/read-text-file.js";
import { TOOL_NAME } from "../version.js";
import type { DocumentWork } from "./agent-gate.js";
import { type AgentDialect, applyStringEdits } from "./agent-hook-input.js";
import { applyCodexUpdate } from "./codex-patch.js";
import { ACTOR_NAMES, mcpTool, shellQuote, toolPhrase } from "./gate-messages.js";

export interface DocumentGateContext {
  root: string;
  inRepo: boolean;
  dialect: AgentDialect;
  toolName: string;
  /** How the agent names our MCP tools (`{tool}` for the tool; default mcp__noma-reconcile__{tool}). */
  mcpTools?: string;
}

/** Errors listed in a refusal of a new document before "… and N more". */
const MAX_LISTED = 20;
/** An op list longer than this (as JSON) is described, not inlined (hooks' output is read by a model with a budget). */
const MAX_OP_JSON = 6000;

/** The reason to refuse the tool call, or null to let it run. */
export function judgeDocumentWrites(work: readonly DocumentWork[], ctx: DocumentGateContext): string | null {
  for (const w of work) {
    const reason = judgeOne(w, ctx);
    if (reason !== null) return reason;
  }
  return null;
}

function judgeOne(w: DocumentWork, ctx: DocumentGateContext): string | null {
  let bytes: Buffer | null;
  try {
    bytes = readFileSync(w.abs);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      return (
        `${TOOL_NAME}: cannot read the Noma document ${w.rel} (${(e as Error).message}), ` +
        `so ${toolPhrase(ctx.toolName, false)} was stopped before it ran: a document is written only through the patch engine.`
      );
    bytes = null;
  }
  if (bytes === null) return w.change.kind === "write" ? judgeNew(w.rel, w.change.content, ctx) : null;
  const current = decodeUtf8(bytes);
  const sha = createHash("sha256").update(bytes).digest("hex");
  let next: string | null = null;
  let cannot: string | undefined;
  if (w.change.kind === "write") next = w.change.content;
  else if (w.change.kind === "edit") {
    const applied = applyStringEdits(current, w.change.edits);
    if ("error" in applied) cannot = applied.error;
    else next = applied.text;
  } else {
    next = applyCodexUpdate(current, w.change.hunks);
    if (next === null) cannot = "its hunks do not match the document's lines";
  }
  if (next === current) return null;
  return existingReason(w.rel, sha, next, current, cannot, ctx);
}

function existingReason(rel: string, sha: string, next: string | null, current: string, cannot: string | undefined, ctx: DocumentGateContext): string {
  const head =
    `${TOOL_NAME}: ${rel} is a Noma document: it changes only through the patch engine (validated, applied atomically, recorded in ${rel}.patches), ` +
    `so ${toolPhrase(ctx.toolName, false)} was stopped before it ran.`;
  const actor = { kind: "agent", name: ACTOR_NAMES[ctx.dialect] };
  const readFirst =
    `Read its ids and block hashes with ${mcpTool("read_doc", ctx.mcpTools)} {"file":${JSON.stringify(rel)}}, ` +
    `then send the ops with ${mcpTool("patch_block", ctx.mcpTools)} (\`ops\` applies a list atomically), with "base_sha256":"${sha}" ` +
    `(from a shell: \`npx ${TOOL_NAME} patch ${shellQuote(rel)} --ops <file> --base-sha256 ${sha}\`).`;
  if (next === null) return `${head}\nThe edit would not apply as written (${cannot}). ${readFirst}`;
  const found = opsForTextChange(current, next);
  if (!found.ok) {
    const unreachable = found.reason.includes("outside every directive") || found.reason.includes("frontmatter");
    return (
      `${head}\nNo op list is offered: ${found.reason}. ${readFirst}` +
      (unreachable
        ? " If the text must change as it is, ask the user to make the edit; " +
          `\`npx ${TOOL_NAME} transcript accept ${shellQuote(rel)} --reason '…'\` then records it.`
        : "")
    );
  }
  const op = found.ops.length === 1 ? { op: found.ops[0] } : { ops: found.ops };
  const args = { file: rel, ...op, base_sha256: sha, actor };
  const json = JSON.stringify(args);
  const where = `block "${found.id}", lines ${found.lines[0]}-${found.lines[1]}`;
  const note = found.note !== undefined ? ` (${found.note})` : "";
  if (json.length > MAX_OP_JSON) {
    const names = found.ops.map((o) => `${String(o["op"])} on "${found.id}" with baseHash ${String(o["baseHash"] ?? "(none)")}`).join(", ");
    return `${head}\nThe same change is ${names}${note} (${where}; too long to repeat here). ${readFirst}`;
  }
  const opJson = JSON.stringify(found.ops.length === 1 ? found.ops[0] : found.ops);
  const cli =
    `npx ${TOOL_NAME} patch ${shellQuote(rel)} --base-sha256 ${sha} --actor-kind agent --actor-name ${shellQuote(actor.name)} ` + `--op ${shellQuote(opJson)}`;
  return (
    `${head}\nThe same change as ${found.ops.length === 1 ? "a patch op" : "patch ops"} (${where})${note}: ` +
    `send this with ${mcpTool("patch_block", ctx.mcpTools)}:\n${json}\n` +
    `or from a shell:\n${cli}\nThen ${mcpTool("validate_doc", ctx.mcpTools)} {"file":${JSON.stringify(rel)}} shows the document's diagnostics.`
  );
}

function judgeNew(rel: string, content: string, ctx: DocumentGateContext): string | null {
  const verdict = validateDocumentText(ctx.root, ctx.inRepo, rel, content);
  if (verdict.ok) return null;
  const errors = verdict.diagnostics.filter((d) => d.severity === "error");
  const lines = errors.slice(0, MAX_LISTED).map((d) => `  ${rel}:${d.pos?.line ?? 1}: [${d.code}] ${d.message}`);
  if (errors.length > MAX_LISTED) lines.push(`  … and ${errors.length - MAX_LISTED} more`);
  return (
    `${TOOL_NAME}: ${rel} would be a new Noma document with ${errors.length === 1 ? "an error" : `${errors.length} errors`}, ` +
    `so ${toolPhrase(ctx.toolName, false)} was stopped before it ran:\n${lines.join("\n")}\n` +
    `Fix ${errors.length === 1 ? "it" : "them"} and write the document again; ${mcpTool("validate_doc", ctx.mcpTools)} checks a document once it exists.`
  );
}
