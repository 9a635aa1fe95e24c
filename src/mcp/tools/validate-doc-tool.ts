/**
 * MCP `validate_doc` (Annex B.5): the diagnostics `noma-reconcile check` gives
 * for one document (profile from its frontmatter; `::dataset src=` files are
 * looked up beside the document, inside the repository; a chapter of a book
 * manifest is validated in its books, as `check` does, so its links into other
 * chapters resolve). `ok` is true when no diagnostic is an error. The judgement
 * is the library's validateDocumentText, which the coding agent's gate also asks.
 */
import { validateDocumentText, type DocumentTextVerdict } from "../../check/validate-document-text.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg, documentText } from "./document-arg.js";
import { unreadableDiagnostic } from "../../check/unreadable-diagnostic.js";

export type ValidateDocResult = DocumentTextVerdict;

export async function validateDocTool(args: { file: string }, ctx: ToolContext): Promise<ValidateDocResult> {
  const arg = documentArg(args.file, ctx);
  // A document that cannot be read as text gets the error `check` gives it (not-utf8-text, file-unreadable).
  let text: string;
  try {
    text = documentText(arg);
  } catch (e) {
    const d = unreadableDiagnostic(e);
    if (d === null) throw e;
    return { ok: false, diagnostics: [d] };
  }
  return validateDocumentText(ctx.root, ctx.inRepo, arg.rel, text);
}
