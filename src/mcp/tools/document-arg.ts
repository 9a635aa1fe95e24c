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
import { isBookManifestPath } from "../../editing/book-manifest-path.js";
import type { ToolContext } from "../tool-context.js";
import { ToolFailure } from "../tool-result.js";
import { isAbsent, readRegularFile } from "../../fsx/read-regular-file.js";
import { decodeText } from "../../fsx/utf8-text.js";
import { displayPath, fsPath, hasRawBytes, parseQuotedPath } from "../../git/git-path.js";

export interface DocumentArg {
  /** Absolute path (the repository root joined with `rel`). */
  abs: string;
  /** Repository-relative POSIX path (a name that is not UTF-8 as git-path.ts decodes it). */
  rel: string;
  /** The path as the file system takes it (bytes for a name that is not UTF-8). */
  fs: string | Buffer;
}

/**
 * @param file a path, or the quoted form reports print for a name that is not UTF-8
 *   (`"docs/bad\377.noma"`, git-path.ts): such a document can be read and validated
 * @param write the tool writes (patch_block): a name that is not UTF-8 is refused, and a book
 *   manifest is accepted (patch_block patches a book across its chapters)
 */
export function documentArg(file: string, ctx: ToolContext, write = false): DocumentArg {
  let rel: string;
  try {
    rel = containPath(parseQuotedPath(file) ?? file, ctx.root, ctx.root);
  } catch (e) {
    if (e instanceof PathOutsideRepoError) throw new ToolFailure(`${file}: path is outside the repository (${ctx.root}); nothing was read or written`);
    throw e;
  }
  if (!write && isBookManifestPath(rel)) {
    throw new ToolFailure(
      `${file}: a book manifest (.noma.yml) is not a valid target (unsupported_op, Noma §2.3); address the chapter's .noma file with its unscoped ids`,
    );
  }
  const abs = join(ctx.root, rel);
  const fs = fsPath(ctx.root, rel);
  if (isAbsent(fs)) throw new ToolFailure(`${file}: no such file`);
  if (write && hasRawBytes(rel))
    throw new ToolFailure(`${displayPath(rel)}: its name is not UTF-8; validate_doc and check judge it, but patches need a UTF-8 name (rename it)`);
  return { abs, rel, fs };
}

/**
 * The document's bytes: only a regular file, never a blocking open (read-regular-file.ts); a
 * FIFO, a directory, a file without permission is FileUnreadableError naming it (isError).
 */
export function documentBytes(doc: DocumentArg): Buffer {
  return readRegularFile(doc.fs, displayPath(doc.rel));
}

/** The document's text; bytes that are not UTF-8 text are NotUtf8TextError (isError), never decoded with U+FFFD. */
export function documentText(doc: DocumentArg): string {
  return decodeText(documentBytes(doc), displayPath(doc.rel));
}
