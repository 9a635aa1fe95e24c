/**
 * `noma-reconcile render <file> --to noma|json`: normalised source, or the
 * document's structure (content without positions) as JSON.
 */
import { renderNoma } from "../../noma/render-noma.js";
import { documentStructure } from "../../noma/structure.js";
import type { CliIO } from "../cli-io.js";
import { choice } from "../repo-context.js";
import { loadDocumentArg } from "./load-document.js";

export async function renderCommand(file: string, options: Record<string, unknown>, io: CliIO): Promise<number> {
  const to = choice("to", options["to"], ["noma", "json"] as const);
  const loaded = loadDocumentArg(file, io.cwd);
  if (loaded.kind === "book") {
    if (to === "noma") {
      io.stdout(loaded.book.chapters.map((c) => renderNoma(c.doc)).join("\n"));
    } else {
      io.stdout(
        `${JSON.stringify({ type: "book", title: loaded.book.title ?? null, chapters: loaded.book.chapters.map((c) => ({ file: c.file, slug: c.slug, structure: documentStructure(c.doc) })) }, null, 2)}\n`,
      );
    }
    return loaded.book.errors.length > 0 ? 1 : 0;
  }
  if (to === "noma") io.stdout(renderNoma(loaded.doc));
  else io.stdout(`${JSON.stringify(documentStructure(loaded.doc), null, 2)}\n`);
  if (loaded.doc.problems.some((p) => p.severity === "error")) {
    io.stderr(`${loaded.file}: the document needed recovery while parsing (run \`noma-reconcile check ${loaded.file}\`); the rendering is best effort.\n`);
  }
  return 0;
}
