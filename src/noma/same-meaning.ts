/**
 * Whether two parses mean the same document: what `fmt` promises to keep. Compared: the
 * frontmatter's text, every block's kind and content in order (titles, texts, cells,
 * attributes with their order, list markers, code), the canonical ids and the alias map,
 * and the raw interior of the directives whose bodies are data (RAW_BODY_DIRECTIVES).
 * Not compared: line numbers (spans), and how many colons fence a directive (nesting is
 * compared through the tree itself).
 */
import type { AttrValue, BlockNode, NomaDocument } from "./ast.js";
import { directiveInterior } from "./directive-interior.js";

/**
 * Directives whose body is data read line by line (a dataset's rows, a JSON spec, a diagram's
 * or a formula's source, raw markup): `fmt` keeps everything between their fences byte for byte.
 */
export const RAW_BODY_DIRECTIVES: ReadonlySet<string> = new Set([
  "dataset",
  "plotly",
  "diagram",
  "mermaid",
  "html",
  "svg",
  "script",
  "math",
  "computed_metric",
  "computed_plot",
]);

function sameAttrs(a: Readonly<Record<string, AttrValue>>, b: Readonly<Record<string, AttrValue>>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (!Object.is(a[ka[i]!], b[kb[i]!])) return false;
  }
  return true;
}

function sameCells(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((c, i) => c === b[i]);
}

/** The first difference between two block lists (a description), or null. */
function compareBlocks(a: readonly BlockNode[], b: readonly BlockNode[], da: NomaDocument, db: NomaDocument, where: string): string | null {
  if (a.length !== b.length) return `${where}: ${a.length} blocks became ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    const at = `${where} block ${i + 1} (line ${x.pos.line})`;
    if (x.type !== y.type) return `${at}: a ${x.type} became a ${y.type}`;
    switch (x.type) {
      case "section": {
        const s = y as typeof x;
        if (x.depth !== s.depth || x.title !== s.title || x.nested !== s.nested) return `${at}: the heading changed`;
        if (x.id !== s.id || x.explicitId !== s.explicitId || !sameAttrs(x.attrs, s.attrs) || !sameCells(x.aliases, s.aliases))
          return `${at}: the heading's id or attributes changed`;
        const inner = compareBlocks(x.children, s.children, da, db, `${at} >`);
        if (inner !== null) return inner;
        break;
      }
      case "directive": {
        const d = y as typeof x;
        if (x.name !== d.name || x.closed !== d.closed) return `${at}: the directive changed`;
        if (x.id !== d.id || !sameAttrs(x.attrs, d.attrs) || !sameCells(x.aliases, d.aliases)) return `${at}: the attributes of ::${x.name} changed`;
        if (x.body !== d.body) return `${at}: the body of ::${x.name} changed`;
        if (RAW_BODY_DIRECTIVES.has(x.name) && directiveInterior(da, x).join("\n") !== directiveInterior(db, d).join("\n"))
          return `${at}: the raw body of ::${x.name} changed`;
        const inner = compareBlocks(x.children, d.children, da, db, `${at} >`);
        if (inner !== null) return inner;
        break;
      }
      case "code": {
        const c = y as typeof x;
        if (x.lang !== c.lang || x.content !== c.content || x.closed !== c.closed) return `${at}: the code changed`;
        break;
      }
      case "paragraph":
        if (x.text !== (y as typeof x).text) return `${at}: the paragraph's text changed`;
        break;
      case "quote":
        if (x.text !== (y as typeof x).text) return `${at}: the quote's text changed`;
        break;
      case "list": {
        const l = y as typeof x;
        if (x.ordered !== l.ordered || x.children.length !== l.children.length) return `${at}: the list changed`;
        for (let k = 0; k < x.children.length; k++) {
          if (x.children[k]!.marker !== l.children[k]!.marker || x.children[k]!.text !== l.children[k]!.text) return `${at}: list item ${k + 1} changed`;
        }
        break;
      }
      case "table": {
        const t = y as typeof x;
        if (!sameCells(x.header, t.header) || x.align.length !== t.align.length || x.align.some((al, k) => al !== t.align[k]))
          return `${at}: the table's header changed`;
        if (x.rows.length !== t.rows.length || x.rows.some((r, k) => !sameCells(r, t.rows[k]!))) return `${at}: the table's rows changed`;
        break;
      }
      case "thematic_break":
        break;
    }
  }
  return null;
}

/**
 * Null when `b` means what `a` means (see the module header), else where they first differ
 * (for a message: "block 3 (line 12): the paragraph's text changed").
 */
export function meaningDifference(a: NomaDocument, b: NomaDocument): string | null {
  if ((a.frontmatter?.raw ?? null) !== (b.frontmatter?.raw ?? null)) return "the frontmatter changed";
  const problems = (d: NomaDocument): string =>
    d.problems
      .map((p) => p.code)
      .sort()
      .join(",");
  if (problems(a) !== problems(b)) return "the parse problems changed";
  const blocks = compareBlocks(a.children, b.children, a, b, "document");
  if (blocks !== null) return blocks;
  if (!sameCells(a.ids, b.ids)) return "the canonical ids changed";
  if (a.aliasMap.size !== b.aliasMap.size) return "the aliases changed";
  for (const [alias, id] of a.aliasMap) if (b.aliasMap.get(alias) !== id) return "the aliases changed";
  return null;
}
