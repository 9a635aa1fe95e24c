/**
 * MCP `validate_doc` (Annex B.5): the diagnostics `noma-reconcile check` gives
 * for one document (profile from its frontmatter; `::dataset src=` files are
 * looked up beside the document, inside the repository; a chapter of a book
 * manifest is validated in its books, as `check` does, so its links into other
 * chapters resolve). `ok` is true when no diagnostic is an error. The judgement
 * is the library's validateDocumentText, which the coding agent's gate also asks.
 */
import { validateDocumentText, type DocumentTextVerdict } from "../../check/validate-document-text.js";
import { readTextFile } from "../../fsx/read-text-file.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg } from "./document-arg.js";

export type ValidateDocResult = DocumentTextVerdict;

export async function validateDocTool(args: { file: string }, ctx: ToolContext): Promise<ValidateDocResult> {
  const { abs, rel } = documentArg(args.file, ctx);
  return validateDocumentText(ctx.root, ctx.inRepo, rel, readTextFile(abs));
}
