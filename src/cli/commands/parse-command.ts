/**
 * `noma-reconcile parse <file>`: the document tree, with spans, as JSON.
 */
import { astToJson } from "../../noma/ast-json.js";
import type { CliIO } from "../cli-io.js";
import { loadDocumentArg } from "./load-document.js";

export async function parseCommand(file: string, io: CliIO): Promise<number> {
  const loaded = loadDocumentArg(file, io.cwd);
  const value =
    loaded.kind === "book"
      ? {
          type: "book",
          title: loaded.book.title ?? null,
          errors: loaded.book.errors,
          chapters: loaded.book.chapters.map((c) => ({ file: c.file, slug: c.slug, document: astToJson(c.doc) })),
        }
      : astToJson(loaded.doc);
  io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  return 0;
}
