/**
 * `noma-reconcile render <file> --to noma|json`: normalised source, or the
 * document's structure (content without positions) as JSON.
 */
import { renderNoma, renderNomaChunks } from "../../noma/render-noma.js";
import { documentStructure } from "../../noma/structure.js";
import type { CliIO } from "../cli-io.js";
import { choice } from "../repo-context.js";
import { readDocumentArg } from "./load-document.js";
import type { ParseProblem } from "../../noma/ast.js";
import { parseNoma, scanNoma } from "../../noma/parse-noma.js";

export async function renderCommand(file: string, options: Record<string, unknown>, io: CliIO): Promise<number> {
  const to = choice("to", options["to"], ["noma", "json"] as const);
  // The read the bin started for a large document (main.ts) is done by now, the modules loaded meanwhile.
  if (io.prefetched !== undefined) await io.prefetched.settle();
  const read = readDocumentArg(file, io.cwd, io.prefetched);
  if (read.kind === "book") {
    if (to === "noma") {
      io.stdout(read.book.chapters.map((c) => renderNoma(c.doc)).join("\n"));
    } else {
      const chapters = read.book.chapters.map((c) => ({ file: c.file, slug: c.slug, structure: documentStructure(c.doc) }));
      io.stdout(`${JSON.stringify({ type: "book", title: read.book.title ?? null, chapters }, null, 2)}\n`);
    }
    return read.book.errors.length > 0 ? 1 : 0;
  }
  let problems: readonly ParseProblem[];
  if (to === "noma") {
    // The blocks are all a rendering reads (no id index, no node tree), written as they are rendered.
    const scanned = scanNoma(read.text);
    renderNomaChunks(scanned, io.stdout);
    problems = scanned.problems;
  } else {
    const doc = parseNoma(read.text);
    io.stdout(`${JSON.stringify(documentStructure(doc), null, 2)}\n`);
    problems = doc.problems;
  }
  if (problems.some((p) => p.severity === "error")) {
    io.stderr(`${read.file}: the document needed recovery while parsing (run \`noma-reconcile check ${read.file}\`); the rendering is best effort.\n`);
  }
  return 0;
}
