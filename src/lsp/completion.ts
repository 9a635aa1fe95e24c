/**
 * Completion in a `.noma` document, by what is being written before the cursor:
 * - inside `[[`, and in the value of an id-valued attribute (`for="…`): the ids and aliases
 *   the document defines, and, in a chapter, the names its books define (book mode: scoped
 *   section ids too);
 * - after `::` at the start of a line: directive names (those the validator and the
 *   profiles know, and those the document already uses);
 * - in a directive's `{…}` where a key goes: the attributes known for that directive
 *   (directive-attributes.ts) and those the document's other directives of that name carry,
 *   less the ones already written.
 */
import { CompletionItemKind, type CompletionItem, type Position } from "vscode-languageserver/node";
import type { DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { ID_VALUED_ATTRS } from "../noma/id-valued-attrs.js";
import { lineText } from "../noma/parse-noma.js";
import { walkBlocks } from "../noma/walk.js";
import { knownAttributes, knownDirectiveNames } from "../validate/directive-attributes.js";
import { bookChapters } from "./book-lookup.js";
import type { Navigation } from "./navigation.js";
import type { OpenDocument } from "./open-document.js";

const LINK = /\[\[([A-Za-z_][\w\-./:]*)?$/;
const ATTR_VALUE = new RegExp(`(?:^|[\\s{])(${ID_VALUED_ATTRS.join("|")})=(["']?)([^"'\\s}]*)$`);
const DIRECTIVE_NAME = /^(:{2,})([A-Za-z_][\w-]*)?$/;
const ATTR_KEY = /^:{2,}([A-Za-z_][\w-]*)\{([^}]*[\s{])?([A-Za-z_][\w-]*)?$/;

function describe(b: SectionNode | DirectiveNode): string {
  return b.type === "section" ? `# ${b.title}` : `::${b.name}`;
}

/** Whether the cursor sits inside an open `code span` of the line (an odd number of backticks before it). */
function inCodeSpan(before: string): boolean {
  let n = 0;
  for (let i = before.indexOf("`"); i !== -1; i = before.indexOf("`", i + 1)) n++;
  return n % 2 === 1;
}

/** The names a document can link to: its own, then its books'. */
function nameItems(nav: Navigation, doc: OpenDocument, parsed: NomaDocument, replace: { line: number; start: number; end: number }): CompletionItem[] {
  const items = new Map<string, CompletionItem>();
  const add = (name: string, detail: string, doc_: string | undefined, sort: string): void => {
    if (items.has(name)) return;
    const item: CompletionItem = {
      label: name,
      kind: CompletionItemKind.Reference,
      detail,
      sortText: `${sort}${name}`,
      textEdit: { range: { start: { line: replace.line, character: replace.start }, end: { line: replace.line, character: replace.end } }, newText: name },
    };
    if (doc_ !== undefined) item.documentation = doc_;
    items.set(name, item);
  };
  for (const [id, node] of parsed.nodeById) add(id, describe(node), undefined, "0");
  for (const [alias, id] of parsed.aliasMap) add(alias, `alias of ${id}`, undefined, "1");
  const root = nav.session.rootOf(doc);
  const rel = doc.place.rel;
  if (root !== null && rel !== undefined) {
    for (const ch of bookChapters(root, rel)) {
      const text = root.read(ch);
      if (text === null) continue;
      for (const [node, names] of nav.chapters.of(ch, text).namesOfBlock) {
        add(names[0]!, `${describe(node)} (${ch})`, undefined, "2");
        for (const alias of names.slice(1)) add(alias, `alias of ${names[0]} (${ch})`, undefined, "3");
      }
    }
  }
  return [...items.values()];
}

export function completion(nav: Navigation, doc: OpenDocument, pos: Position): CompletionItem[] {
  if (doc.kind !== "document") return [];
  const parsed = doc.noma().current();
  const line = lineText(parsed, pos.line);
  const before = line.slice(0, pos.character);
  // The rest of the word the cursor is in, replaced too.
  const after = /^[\w\-./:]*/.exec(line.slice(pos.character))![0].length;
  const link = LINK.exec(before);
  if (link !== null && !inCodeSpan(before)) {
    const start = pos.character - (link[1]?.length ?? 0);
    return nameItems(nav, doc, parsed, { line: pos.line, start, end: pos.character + after });
  }
  if (before.startsWith("::")) {
    const value = ATTR_VALUE.exec(before);
    if (value !== null && before.includes("{")) {
      const start = pos.character - value[3]!.length;
      return nameItems(nav, doc, parsed, { line: pos.line, start, end: pos.character + after });
    }
    const name = DIRECTIVE_NAME.exec(before);
    if (name !== null) {
      const used = new Set<string>();
      walkBlocks(parsed, (n) => void (n.type === "directive" && used.add(n.name)));
      const start = pos.character - (name[2]?.length ?? 0);
      return [...new Set([...knownDirectiveNames(), ...used])].sort().map((n) => ({
        label: n,
        kind: CompletionItemKind.Keyword,
        detail: used.has(n) ? "directive (used in this document)" : "directive",
        textEdit: { range: { start: { line: pos.line, character: start }, end: { line: pos.line, character: pos.character + after } }, newText: n },
      }));
    }
    const key = ATTR_KEY.exec(before);
    if (key !== null && !/=["'][^"']*$/.test(before)) {
      const directive = key[1]!;
      const written = new Set([...line.matchAll(/([A-Za-z_][\w-]*)=/g)].map((m) => m[1]!));
      const seen = new Set<string>();
      walkBlocks(parsed, (n) => {
        if (n.type === "directive" && n.name === directive) for (const k of Object.keys(n.attrs)) seen.add(k);
      });
      const start = pos.character - (key[3]?.length ?? 0);
      return [...new Set([...knownAttributes(directive), ...seen])]
        .filter((k) => !written.has(k))
        .map((k) => ({
          label: k,
          kind: CompletionItemKind.Property,
          detail: knownAttributes(directive).includes(k) ? `::${directive} attribute` : `::${directive} attribute (used in this document)`,
          textEdit: { range: { start: { line: pos.line, character: start }, end: { line: pos.line, character: pos.character + after } }, newText: `${k}=` },
        }));
    }
  }
  return [];
}
