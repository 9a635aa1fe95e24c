/**
 * Go to definition and find references, across the chapters of a book: a `[[link]]` or an
 * id-valued attribute (`for=`, `parent=`, `dataset=`, `target=`, `block=`, `reply_to=`)
 * leads to the block it names — in the document, else in the chapters of its books, as
 * `check` resolves it — and a block's references are every such name, in its document and
 * in the chapters of its books that do not define the name themselves.
 */
import { join } from "node:path";
import type { Location, Position, Range } from "vscode-languageserver/node";
import type { NomaDocument } from "../noma/ast.js";
import { idSite, type LineSpan, referenceSites } from "../validate/reference-sites.js";
import { bookChapters, type ChapterParses, type DocumentParses, type Located, namesOf, resolveIn, resolveName } from "./book-lookup.js";
import { type CursorTarget, cursorTarget } from "./cursor.js";
import { pathUri } from "./lsp-uri.js";
import type { LspSession } from "./lsp-session.js";
import type { OpenDocument } from "./open-document.js";
import type { WorkspaceRoot } from "./workspace-root.js";

export interface Navigation {
  session: LspSession;
  chapters: ChapterParses;
  plain: DocumentParses;
}

export function spanRange(span: LineSpan): Range {
  return { start: { line: span.line - 1, character: span.start }, end: { line: span.line - 1, character: span.end } };
}

/** The URI of a repository file: the editor's own for an open document. */
export function fileUri(nav: Navigation, root: WorkspaceRoot | null, rel: string, fallback: OpenDocument): string {
  if (root === null || rel === "") return fallback.uri;
  const abs = join(root.root, rel);
  return nav.session.documentAt(abs)?.uri ?? pathUri(abs);
}

/** A file's parse as the editor holds it (an open document's current parse), or null. */
export function parseOf(nav: Navigation, root: WorkspaceRoot, rel: string): NomaDocument | null {
  const open = nav.session.documentAt(join(root.root, rel));
  if (open !== undefined && open.kind === "document") return open.noma().current();
  const text = root.read(rel);
  return text === null ? null : nav.plain.of(rel, text);
}

export interface AtCursor {
  doc: OpenDocument;
  root: WorkspaceRoot | null;
  parsed: NomaDocument;
  target: CursorTarget;
  /** The block the cursor's name names (null: it names nothing). */
  located: Located | null;
}

/** What is under the cursor of a `.noma` document, and the block it names. */
export function atCursor(nav: Navigation, doc: OpenDocument, pos: Position): AtCursor | null {
  if (doc.kind !== "document") return null;
  const parsed = doc.noma().current();
  const target = cursorTarget(parsed, pos.line, pos.character);
  if (target === null) return null;
  const root = nav.session.rootOf(doc);
  const rel = doc.place.rel;
  const located =
    target.kind === "definition" ? { rel: rel ?? "", block: target.block, doc: parsed } : resolveName(root, nav.chapters, rel, parsed, target.target);
  return { doc, root, parsed, target, located };
}

export function locationOf(nav: Navigation, at: AtCursor, located: Located): Location {
  return { uri: fileUri(nav, at.root, located.rel, at.doc), range: spanRange(idSite(located.doc, located.block)) };
}

export function definition(nav: Navigation, doc: OpenDocument, pos: Position): Location | null {
  const at = atCursor(nav, doc, pos);
  if (at === null || at.located === null) return null;
  return locationOf(nav, at, at.located);
}

/** Every place that names the block `located` (its document, and the chapters of its books). */
export function referencesOf(nav: Navigation, root: WorkspaceRoot | null, located: Located, fallback: OpenDocument): Location[] {
  const names = namesOf(root, nav.chapters, located);
  const out: Location[] = [];
  const files = root !== null && located.rel !== "" ? [located.rel, ...bookChapters(root, located.rel).filter((c) => c !== located.rel)] : [located.rel];
  for (const rel of files) {
    const doc = root !== null && rel !== "" ? parseOf(nav, root, rel) : fallback.noma().current();
    if (doc === null) continue;
    const defining = rel === located.rel;
    for (const site of referenceSites(doc)) {
      const local = resolveIn(doc, site.target);
      const counts = defining
        ? names.own.has(site.target) || (local === undefined && names.book.has(site.target))
        : local === undefined && names.book.has(site.target);
      if (counts) out.push({ uri: fileUri(nav, root, rel, fallback), range: spanRange(site) });
    }
  }
  return out;
}

export function references(nav: Navigation, doc: OpenDocument, pos: Position, includeDeclaration: boolean): Location[] {
  const at = atCursor(nav, doc, pos);
  if (at === null || at.located === null) return [];
  const found = referencesOf(nav, at.root, at.located, doc);
  return includeDeclaration ? [locationOf(nav, at, at.located), ...found] : found;
}
