/**
 * The document object a parse fills in: every field in its usual order, the
 * tree's fields still empty, line texts made on first read.
 */
import type { FrontmatterNode, NomaDocument, ParseProblem } from "./ast.js";
import type { LineIndex } from "./index-lines.js";

/** The document object, fields in their usual order (the tree's fields still to be set). */
export function newDocument(source: string, index: LineIndex, frontmatter: FrontmatterNode | undefined, problems: ParseProblem[]): NomaDocument {
  const lastLine = Math.max(index.ends.length, 1);
  const doc = {
    type: "document",
    source,
    lineStarts: index.starts,
    children: [],
    problems,
    ids: [],
    aliasesById: new Map(),
    aliasMap: new Map(),
    nodeById: new Map(),
    duplicateIds: new Map(),
    pos: { line: 1, column: 1 },
    endLine: lastLine,
  } as unknown as NomaDocument;
  // Line texts are materialised on first use only (most callers never need them all).
  Object.defineProperty(doc, "lines", {
    configurable: true,
    enumerable: false,
    get(): string[] {
      const lines: string[] = new Array<string>(index.ends.length);
      for (let i = 0; i < lines.length; i++) lines[i] = source.slice(index.starts[i], index.ends[i]);
      Object.defineProperty(doc, "lines", { value: lines, configurable: true, enumerable: false, writable: true });
      return lines;
    },
  });
  if (frontmatter !== undefined) doc.frontmatter = frontmatter;
  return doc;
}
