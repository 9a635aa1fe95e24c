/**
 * MCP `validate_doc` (Annex B.5): the diagnostics `noma-reconcile check` gives
 * for one document (profile from its frontmatter; `::dataset src=` files are
 * looked up beside the document, inside the repository; a chapter of a book
 * manifest is validated in its books, as `check` does, so its links into other
 * chapters resolve). `ok` is true when no diagnostic is an error.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { checkDocument } from "../../check/check-document.js";
import { worktreeChapterLookup } from "../../check/worktree-books.js";
import { containPath } from "../../fsx/contain-path.js";
import type { Diagnostic } from "../../validate/diagnostic.js";
import type { ToolContext } from "../tool-context.js";
import { documentArg, documentText } from "./document-arg.js";
import { unreadableDiagnostic } from "../../check/unreadable-diagnostic.js";

export interface ValidateDocResult {
  ok: boolean;
  diagnostics: Diagnostic[];
}

export async function validateDocTool(args: { file: string }, ctx: ToolContext): Promise<ValidateDocResult> {
  const arg = documentArg(args.file, ctx);
  const { rel } = arg;
  /** A path written in `from` (a dataset's src=, a manifest's chapter), inside the repository, or null. */
  const beside = (from: string, written: string): string | null => {
    try {
      return containPath(join(dirname(join(ctx.root, from)), written), ctx.root, ctx.root);
    } catch {
      return null;
    }
  };
  const isFile = (p: string | null): boolean => {
    if (p === null) return false;
    const target = join(ctx.root, p);
    return existsSync(target) && statSync(target).isFile();
  };
  const srcExists = (from: string, src: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(src) || isFile(beside(from, src));
  // A document that cannot be read as text gets the error `check` gives it (not-utf8-text, file-unreadable).
  let text: string;
  try {
    text = documentText(arg);
  } catch (e) {
    const d = unreadableDiagnostic(e);
    if (d === null) throw e;
    return { ok: false, diagnostics: [d] };
  }
  const resolveOutside = worktreeChapterLookup(ctx.root, ctx.inRepo, rel);
  const { diagnostics } = checkDocument(rel, text, { datasetSrcExists: srcExists, resolveOutside });
  return { ok: !diagnostics.some((d) => d.severity === "error"), diagnostics };
}
