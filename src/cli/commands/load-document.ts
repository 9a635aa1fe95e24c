/**
 * Read one document argument for the single-file commands (`ids`, `parse`, `render`):
 * inside the repository it is contained like every path argument; a file named outside
 * it is read where it is. Book manifests load their chapters too.
 */
import { statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { isOutsidePath } from "../../check/check-outside.js";
import { isBookManifest } from "../../check/check-document.js";
import { containPath } from "../../fsx/contain-path.js";
import { parseBook, type Book } from "../../noma/parse-book.js";
import { parseNoma } from "../../noma/parse-noma.js";
import type { NomaDocument } from "../../noma/ast.js";
import { UsageError } from "../../errors/noma-error.js";
import { pathArg, repoContext } from "../repo-context.js";
import type { Prefetched } from "../../fsx/prefetch-files.js";
import { isAbsent, readRegularFile, readRegularFileIfPresent } from "../../fsx/read-regular-file.js";
import { decodeText } from "../../fsx/utf8-text.js";

export type Loaded = { kind: "document"; file: string; doc: NomaDocument } | { kind: "book"; file: string; book: Book };

/** A document argument read, not parsed (a book's chapters are). */
export type ReadDocument = { kind: "document"; file: string; text: string } | { kind: "book"; file: string; book: Book };

export function loadDocumentArg(given: string, cwd: string, prefetched?: Prefetched): Loaded {
  const read = readDocumentArg(given, cwd, prefetched);
  return read.kind === "book" ? read : { kind: "document", file: read.file, doc: parseNoma(read.text) };
}

/** `prefetched`: reads the bin started (settled), used for the document named once it is known to be the one allowed. */
export function readDocumentArg(given: string, cwd: string, prefetched?: Prefetched): ReadDocument {
  const ctx = repoContext(cwd);
  // A file named outside the repository is read where it is and printed as given; its
  // book chapters must lie beside or below it (containment is for writes).
  const outside = isOutsidePath(given, ctx.root, cwd);
  const file = outside ? given : pathArg(given, ctx, cwd);
  const abs = outside ? resolve(cwd, given) : join(ctx.root, file);
  const chapterRoot = outside ? dirname(abs) : ctx.root;
  if (isAbsent(abs)) throw new UsageError(`${given}: no such file`);
  if (statSync(abs, { throwIfNoEntry: false })?.isDirectory() === true) throw new UsageError(`${given}: is a directory; pass a .noma file`);
  // Only a regular file, never a blocking open (a FIFO is refused); not UTF-8 text is refused, never decoded with U+FFFD.
  const text = decodeText(prefetched?.take(abs) ?? readRegularFile(abs, file), file);
  if (isBookManifest(file)) {
    const book = parseBook(text, (chapter) => {
      let rel: string;
      try {
        rel = containPath(join(dirname(abs), chapter), chapterRoot, chapterRoot);
      } catch {
        return null;
      }
      const bytes = readRegularFileIfPresent(join(chapterRoot, rel), rel);
      return bytes === null ? null : decodeText(bytes, rel);
    });
    return { kind: "book", file, book };
  }
  return { kind: "document", file, text };
}
