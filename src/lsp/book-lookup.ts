/**
 * Names across a book (§2.3), for navigation: where a name a chapter uses resolves — in the
 * chapter itself, else in the chapters of the books that list it, parsed in book mode (scoped
 * section ids, unscoped ids and the filename slug as aliases) — and the names each block is
 * known by there. The chapters are read as the editor holds them (open ones as typed).
 */
import type { DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { type BookChapter, parseChapter } from "../noma/parse-book.js";
import { parseNoma } from "../noma/parse-noma.js";
import type { WorkspaceRoot } from "./workspace-root.js";

export interface Located {
  /** Repository-relative path of the file the block is in. */
  rel: string;
  block: SectionNode | DirectiveNode;
  doc: NomaDocument;
}

/** The block `name` (a canonical id or an alias) names in `doc`. */
export function resolveIn(doc: NomaDocument, name: string): SectionNode | DirectiveNode | undefined {
  return doc.nodeById.get(name) ?? doc.nodeById.get(doc.aliasMap.get(name) ?? "");
}

/** A chapter parsed in book mode, with the names it defines there (scoped ids, their unscoped aliases, the slug). */
export interface BookModeChapter {
  chapter: BookChapter;
  /** Every name → the block it names (a canonical id first, an alias only where no id claims it). */
  names: Map<string, SectionNode | DirectiveNode>;
  /** Each block's canonical book-mode id and aliases. */
  namesOfBlock: Map<SectionNode | DirectiveNode, string[]>;
}

/** Chapters parsed in book mode, kept while their text is the same. */
export class ChapterParses {
  private readonly byPath = new Map<string, { text: string; parsed: BookModeChapter }>();

  of(rel: string, text: string): BookModeChapter {
    const hit = this.byPath.get(rel);
    if (hit !== undefined && hit.text === text) return hit.parsed;
    const ids = new Map<string, SectionNode | DirectiveNode>();
    const aliases = new Map<string, SectionNode | DirectiveNode>();
    const namesOfBlock = new Map<SectionNode | DirectiveNode, string[]>();
    const chapter = parseChapter(rel, text, (node) => {
      if (!ids.has(node.id!)) ids.set(node.id!, node);
      for (const a of node.aliases) if (!aliases.has(a)) aliases.set(a, node);
      namesOfBlock.set(node, [node.id!, ...node.aliases]);
    });
    const names = new Map(ids);
    for (const [a, node] of aliases) if (!names.has(a)) names.set(a, node);
    const parsed = { chapter, names, namesOfBlock };
    this.byPath.set(rel, { text, parsed });
    return parsed;
  }
}

/** Every chapter of every book that lists `rel` (itself included), in manifest order, each once. */
export function bookChapters(root: WorkspaceRoot, rel: string): string[] {
  const out: string[] = [];
  for (const b of root.books().booksOf(rel)) for (const c of b.chapters) if (!out.includes(c)) out.push(c);
  return out;
}

/** Where `name`, used in `rel` (parsed as `doc`), resolves: the document itself first, then its books' chapters. */
export function resolveName(root: WorkspaceRoot | null, parses: ChapterParses, rel: string | undefined, doc: NomaDocument, name: string): Located | null {
  const own = resolveIn(doc, name);
  if (own !== undefined) return { rel: rel ?? "", block: own, doc };
  if (root === null || rel === undefined) return null;
  for (const ch of bookChapters(root, rel)) {
    const text = root.read(ch);
    if (text === null) continue;
    const { chapter, names } = parses.of(ch, text);
    const block = names.get(name);
    if (block !== undefined) return { rel: ch, block, doc: chapter.doc };
  }
  return null;
}

/**
 * The names a block is known by where it is used: in its own document, its id and aliases;
 * in the other chapters of its books, also its book-mode names (a scoped section id, the
 * unscoped one, the chapter's slug for its root section).
 */
export function namesOf(root: WorkspaceRoot | null, parses: ChapterParses, at: Located): { own: Set<string>; book: Set<string> } {
  const own = new Set<string>();
  if (at.block.id !== undefined) own.add(at.block.id);
  for (const a of at.block.aliases) own.add(a);
  const book = new Set(own);
  if (root !== null && at.rel !== "") {
    const text = root.read(at.rel);
    if (text !== null) {
      // The same block in the book-mode parse: the one opening on the same line.
      for (const [node, names] of parses.of(at.rel, text).namesOfBlock) if (node.pos.line === at.block.pos.line) for (const n of names) book.add(n);
    }
  }
  return { own, book };
}

/** Documents parsed as they are (not in book mode), kept while their text is the same. */
export class DocumentParses {
  private readonly byPath = new Map<string, { text: string; doc: NomaDocument }>();

  of(rel: string, text: string): NomaDocument {
    const hit = this.byPath.get(rel);
    if (hit !== undefined && hit.text === text) return hit.doc;
    const doc = parseNoma(text);
    this.byPath.set(rel, { text, doc });
    return doc;
  }
}
