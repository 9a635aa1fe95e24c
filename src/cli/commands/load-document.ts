/**
 * Read one document argument (contained in the repository) for the
 * single-file commands. Book manifests load their chapters too.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { isBookManifest } from "../../check/check-document.js";
import { containPath } from "../../fsx/contain-path.js";
import { parseBook, type Book } from "../../noma/parse-book.js";
import { parseNoma } from "../../noma/parse-noma.js";
import type { NomaDocument } from "../../noma/ast.js";
import { UsageError } from "../cli-error.js";
import { pathArg, repoContext } from "../repo-context.js";
import { readTextFile } from "../../fsx/read-text-file.js";

export type Loaded = { kind: "document"; file: string; doc: NomaDocument } | { kind: "book"; file: string; book: Book };

export function loadDocumentArg(given: string, cwd: string): Loaded {
  const ctx = repoContext(cwd);
  const file = pathArg(given, ctx, cwd);
  const abs = join(ctx.root, file);
  if (!existsSync(abs)) throw new UsageError(`${given}: no such file`);
  if (statSync(abs).isDirectory()) throw new UsageError(`${given}: is a directory; pass a .noma file`);
  const text = readTextFile(abs);
  if (isBookManifest(file)) {
    const book = parseBook(text, (chapter) => {
      let rel: string;
      try {
        rel = containPath(join(dirname(abs), chapter), ctx.root, ctx.root);
      } catch {
        return null;
      }
      const p = join(ctx.root, rel);
      return existsSync(p) && statSync(p).isFile() ? readTextFile(p) : null;
    });
    return { kind: "book", file, book };
  }
  return { kind: "document", file, doc: parseNoma(text) };
}
