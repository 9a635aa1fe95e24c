/**
 * `format_document`: the op a `fmt` of a document with a transcript records (an implementation
 * extension, outside the §3.1/§1.5 catalog; docs/documents.md says why). It carries the
 * layout change itself as whole-line edits of the state before it, so replaying it (§5.5)
 * needs no formatter and gives the same bytes whatever version formats later:
 *
 *   {"op": "format_document", "edits": [{"line": 3, "delete": 1, "insert": "::claim{id=\"c\"}\n"}, …]}
 *
 * It only changes layout: the engine applies it only when the result means what the document
 * meant (meaningDifference: same blocks, texts, attributes, ids), else `invalid_content`. The
 * engine accepts it only from callers that ask (`formatOps`: fmt, and replay), never from
 * `patch` or the MCP tool, where an op outside the catalog is `unsupported_op` (§3.1).
 */
import type { NomaDocument } from "../../noma/ast.js";
import { applyLineEdits, type LineEdit, lineEditsProblem } from "../../noma/line-edits.js";
import { parseNoma } from "../../noma/parse-noma.js";
import { meaningDifference } from "../../noma/same-meaning.js";
import { splitLines } from "../../noma/split-lines.js";
import { PatchError } from "../patch-error.js";

export const FORMAT_OP = "format_document";

export interface FormatDocumentOp {
  op: typeof FORMAT_OP;
  edits: LineEdit[];
}

/** Whether `value` names the format op (its shape is checked when it is applied). */
export function isFormatOp(value: unknown): boolean {
  return value !== null && typeof value === "object" && !Array.isArray(value) && (value as Record<string, unknown>)["op"] === FORMAT_OP;
}

export function formatDocumentOp(edits: readonly LineEdit[]): FormatDocumentOp {
  return { op: FORMAT_OP, edits: edits.map((e) => ({ line: e.line, delete: e.delete, insert: e.insert })) };
}

function editsOf(value: unknown): LineEdit[] {
  const edits = (value as Record<string, unknown>)["edits"];
  if (!Array.isArray(edits) || edits.length === 0) throw new PatchError("invalid_content", "Malformed format_document op: edits must be a non-empty list.");
  return edits.map((e: unknown, k) => {
    const o = e as Record<string, unknown> | null;
    if (o === null || typeof o !== "object" || typeof o["line"] !== "number" || typeof o["delete"] !== "number" || typeof o["insert"] !== "string")
      throw new PatchError("invalid_content", `Malformed format_document op: edit ${k + 1} must be {"line": n, "delete": n, "insert": "text"}.`);
    return { line: o["line"], delete: o["delete"], insert: o["insert"] };
  });
}

/** Apply a format_document op to the parsed state `doc`; the new text, or a PatchError. */
export function applyFormatDocument(doc: NomaDocument, value: unknown): string {
  const edits = editsOf(value);
  const problem = lineEditsProblem(edits, splitLines(doc.source).lines.length);
  if (problem !== null) throw new PatchError("invalid_content", `Malformed format_document op: ${problem}.`);
  const error = doc.problems.find((p) => p.severity === "error");
  if (error !== undefined)
    throw new PatchError("invalid_content", `format_document needs a document without parse errors (line ${error.line}: ${error.message}).`);
  const text = applyLineEdits(doc.source, edits);
  const difference = meaningDifference(doc, parseNoma(text));
  if (difference !== null)
    throw new PatchError("invalid_content", `format_document may change only the layout, but it changes what the document means: ${difference}.`);
  return text;
}
