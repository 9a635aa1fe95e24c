/**
 * The `file` argument of the Noma tools: absolute or relative to the
 * repository root, contained in the repository (symlinks resolved), an
 * existing file, and not a book manifest (Annex B: manifests are not targets
 * of any of the four tools). Each failure is a system fault (`isError`), as is
 * a document that is not a regular file, cannot be read or is not UTF-8 text
 * (`validate_doc` reports the last two as `check` does: its diagnostics).
 */
import { join } from "node:path";
import { containPath, PathOutsideRepoError } from "../../fsx/contain-path.js";
import { isBookManifestPath } from "../../editing/patch-document.js";
import type { ToolContext } from "../tool-context.js";
import { ToolFailure } from "../tool-result.js";
import { isAbsent, readRegularFile } from "../../fsx/read-regular-file.js";
import { decodeText } from "../../fsx/utf8-text.js";

export interface DocumentArg {
  /** Absolute path (the repository root joined with `rel`). */
  abs: string;
  /** Repository-relative POSIX path. */
  rel: string;
}

export function documentArg(file: string, ctx: ToolContext): DocumentArg {
  let rel: string;
  try {
    rel = containPath(file, ctx.root, ctx.root);
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new ToolFailure(`${file}: path is outside the repository (${ctx.root}); nothing was read or written`);
    throw e;
  }
  if (isBookManifestPath(rel)) {
    throw new ToolFailure(
      `${file}: a book manifest (.noma.yml) is not a valid target (unsupported_op, Noma §2.3); address the chapter's .noma file with its unscoped ids`,
    );
  }
  const abs = join(ctx.root, rel);
  if (isAbsent(abs)) throw new ToolFailure(`${file}: no such file`);
  return { abs, rel };
}

/**
 * The document's bytes: only a regular file, never a blocking open (read-regular-file.ts); a
 * FIFO, a directory, a file without permission is FileUnreadableError naming it (isError).
 */
export function documentBytes(doc: DocumentArg): Buffer {
  return readRegularFile(doc.abs, doc.rel);
}

/** The document's text; bytes that are not UTF-8 text are NotUtf8TextError (isError), never decoded with U+FFFD. */
export function documentText(doc: DocumentArg): string {
  return decodeText(documentBytes(doc), doc.rel);
}
