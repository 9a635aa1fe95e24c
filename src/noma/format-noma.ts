/**
 * `fmt`: the canonical layout of a `.noma` document, reached by the gentlest edits that get
 * there. It is not `renderNoma` (which rebuilds the whole text from the tree): a person runs
 * fmt on a hand-written document and expects to see only layout change. So fmt rewrites
 * the lines that carry layout and copies every other line byte for byte:
 *
 * - blank lines: one between blocks, none after a directive's opening line or before its
 *   closing line, none at the start of the document, exactly one line break at its end;
 * - directive fences: as many colons as the nesting depth needs (2 at the top level, one
 *   more per level), unless a line inside would read differently (then the directive and
 *   everything in it keep their colons); no space before the name or the `{`;
 * - attribute blocks (directives and headings): tokens separated by one space, no spaces
 *   inside the braces, text between tokens dropped, a repeated key written once (the value
 *   that wins, where the key first stood), and the canonical quoting of the value's type:
 *   strings `key="…"` (`'…'` when they hold `"`), numbers and `false` unquoted, `true` as
 *   the bare key. A value whose canonical form would show different text (`"1.10"` is the
 *   number 1.1, `007` is 7) keeps the token as written; empty braces go;
 * - headings: one space after the `#`s, trailing whitespace dropped;
 * - quotes: `> text`;
 * - pipe tables: cells padded to the widest in their column (counted in code points), a
 *   separator of dashes with the alignment colons, `| a | b |`; a table with a row wider
 *   than its header is left as written (the parser drops the extra cells; padding would
 *   make them disappear from view).
 *
 * Paragraphs, list items, code blocks, the frontmatter and the bodies of data directives
 * (RAW_BODY_DIRECTIVES) are never touched: a paragraph's trailing spaces and a list's
 * markers are text the tree keeps. Line breaks stay what each line had (new lines take
 * the document's first line break), a BOM stays. Documents with parse errors (Tier 2)
 * are left as they are. Every result is checked: parsed again, it must mean what the
 * input meant (same-meaning.ts) — otherwise fmt tries again changing only blank lines,
 * and failing that leaves the document as it is and says why.
 */
import type { AttrValue, BlockNode, DirectiveNode, NomaDocument, SectionNode, TableNode } from "./ast.js";
import { formatAttr, newTokenScan, nextAttrToken, parseAttributes, setAttr, tokenValue } from "./attributes.js";
import { classifyColonLine, parseHeadingLine, parseNoma } from "./parse-noma.js";
import { meaningDifference, RAW_BODY_DIRECTIVES } from "./same-meaning.js";
import { splitLines } from "./split-lines.js";
import type { LineEdit } from "./line-edits.js";
import { splitTableRow } from "./table-row.js";

export interface FormatResult {
  /** The formatted text (the input itself when nothing changed or the document was left alone). */
  text: string;
  changed: boolean;
  /** What changed, as line edits of the input in order (empty when nothing did). */
  edits: LineEdit[];
  /** Why the document was left as it is, when it was (parse errors; a layout that would change its meaning). */
  skipped?: string;
  /** Set when only blank lines could be changed: why the other rules were not applied. */
  partial?: string;
}

/** Spaces and tabs only (or nothing): a blank line fmt may remove. Other blank characters (NBSP, a BOM) are kept. */
function plainBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function trimEndSpaces(text: string): string {
  let e = text.length;
  while (e > 0 && (text.charCodeAt(e - 1) === 32 || text.charCodeAt(e - 1) === 9)) e--;
  return text.slice(0, e);
}

/** Width of a table cell: code points. */
function width(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * The canonical text of an attribute block's inside (see the module header), or null when
 * it would not read back as the same attributes in the same order.
 */
export function canonicalAttributes(inner: string): string | null {
  const tok = newTokenScan();
  const out: string[] = [];
  const at = new Map<string, number>();
  const original: Record<string, AttrValue> = {};
  let i = 0;
  while (nextAttrToken(inner, i, inner.length, tok)) {
    const key = inner.slice(tok.keyStart, tok.keyEnd);
    const value = tokenValue(inner, tok);
    setAttr(original, key, value);
    const written = canonicalToken(key, value, tok.valueStart === -1 ? null : inner.slice(tok.valueStart, tok.valueEnd), inner.slice(tok.keyStart, tok.end));
    const k = at.get(key);
    if (k === undefined) {
      at.set(key, out.length);
      out.push(written);
    } else {
      out[k] = written;
    }
    i = tok.end;
  }
  const text = out.join(" ");
  const back = parseAttributes(text).attrs;
  const ka = Object.keys(original);
  const kb = Object.keys(back);
  if (ka.length !== kb.length) return null;
  for (let k = 0; k < ka.length; k++) if (ka[k] !== kb[k] || !Object.is(original[ka[k]!], back[kb[k]!])) return null;
  return text;
}

function canonicalToken(key: string, value: AttrValue, raw: string | null, asWritten: string): string {
  if (value === true) return key;
  if (value === false) return `${key}=false`;
  const f = formatAttr(key, value);
  if (f === "newline" || f === "both-quotes" || f === "not-finite") return asWritten;
  // A number whose canonical digits are not the ones written (1.10, 007, 1.0) keeps its token.
  if (typeof value === "number" && f !== `${key}=${raw}`) return asWritten;
  return f;
}

interface Mode {
  /** Rewrite fence, heading, quote and table lines (else only blank lines change). */
  lines: boolean;
}

class Formatter {
  /** Output lines: text, line break, and the input line each stands for (-1: a new line). */
  private readonly out: string[] = [];
  private readonly outEols: string[] = [];
  private readonly origins: number[] = [];
  private readonly lines: string[];
  private readonly eols: string[];
  private readonly eol: string;
  private readonly inCode: Uint8Array;
  private readonly isFence: Uint8Array;

  constructor(
    private readonly doc: NomaDocument,
    private readonly mode: Mode,
  ) {
    const { lines, lineStarts } = splitLines(doc.source);
    this.lines = lines;
    this.eols = lines.map((l, i) => doc.source.slice(lineStarts[i]! + l.length, lineStarts[i + 1]));
    this.eol = this.eols.find((e) => e.length > 0) ?? "\n";
    this.inCode = new Uint8Array(lines.length);
    this.isFence = new Uint8Array(lines.length);
    const mark = (nodes: readonly BlockNode[]): void => {
      for (const n of nodes) {
        if (n.type === "code") this.inCode.fill(1, n.pos.line - 1, n.endLine);
        else if (n.type === "directive") {
          this.isFence[n.pos.line - 1] = 1;
          if (n.closed) this.isFence[n.endLine - 1] = 1;
          mark(n.children);
        } else if (n.type === "section") mark(n.children);
      }
    };
    mark(doc.children);
  }

  private put(text: string, eol: string, origin: number): void {
    this.out.push(text);
    this.outEols.push(eol);
    this.origins.push(origin);
  }

  /** Original line i (0-based), as it is. */
  private keep(i: number): void {
    this.put(this.lines[i]!, this.eols[i]!, i);
  }

  /** Original line i rewritten as `text` (keeping its line break). */
  private rewrite(i: number, text: string): void {
    this.put(this.mode.lines ? text : this.lines[i]!, this.eols[i]!, i);
  }

  /** The blank lines [from, to) between two blocks become `want` empty lines, unless one of them holds other blank characters. */
  private gap(from: number, to: number, want: number): void {
    for (let i = from; i < to; i++) {
      if (!plainBlank(this.lines[i]!)) {
        for (let k = from; k < to; k++) this.keep(k);
        return;
      }
    }
    for (let k = 0; k < want; k++) {
      if (from + k < to && this.eols[from + k]!.length > 0) this.put("", this.eols[from + k]!, from + k);
      else this.put("", this.eol, -1);
    }
  }

  run(): { text: string; edits: LineEdit[] } {
    const doc = this.doc;
    let next = 0;
    if (doc.frontmatter !== undefined) {
      for (let i = 0; i < doc.frontmatter.endLine; i++) this.keep(i);
      next = doc.frontmatter.endLine;
    }
    const top: BlockNode[] = [];
    const flatten = (nodes: readonly BlockNode[]): void => {
      for (const n of nodes) {
        top.push(n);
        if (n.type === "section" && !n.nested) flatten(n.children);
      }
    };
    flatten(doc.children);
    for (let k = 0; k < top.length; k++) {
      const b = top[k]!;
      const start = b.pos.line - 1;
      if (k === 0 && doc.frontmatter === undefined) {
        // A thematic break moved up to line 1 could open frontmatter with a later `---` line.
        if (b.type === "thematic_break") for (let i = next; i < start; i++) this.keep(i);
        else this.gap(next, start, 0);
      } else {
        this.gap(next, start, 1);
      }
      this.block(b, 0, true);
      next = b.type === "section" ? b.pos.line : b.endLine;
    }
    this.gap(next, this.lines.length, 0);
    // Exactly one line break at the end.
    const last = this.outEols.length - 1;
    if (last >= 0 && this.outEols[last] === "") this.outEols[last] = this.eol;
    return { text: this.text(), edits: this.edits() };
  }

  private text(): string {
    let s = "";
    for (let k = 0; k < this.out.length; k++) s += this.out[k]! + this.outEols[k]!;
    return s;
  }

  /** The output as edits of the input: runs of input lines not kept as they were, and what stands in their place. */
  private edits(): LineEdit[] {
    const edits: LineEdit[] = [];
    let p = 0;
    let insert = "";
    const flush = (upTo: number): void => {
      if (upTo > p || insert.length > 0) edits.push({ line: p + 1, delete: upTo - p, insert });
      insert = "";
    };
    for (let k = 0; k < this.out.length; k++) {
      const o = this.origins[k]!;
      if (o >= p && this.out[k] === this.lines[o] && this.outEols[k] === this.eols[o]) {
        flush(o);
        p = o + 1;
      } else {
        insert += this.out[k]! + this.outEols[k]!;
      }
    }
    flush(this.lines.length);
    return edits;
  }

  /** `refence`: whether this directive's fences take their depth's colons. */
  private block(node: BlockNode, depth: number, refence: boolean): void {
    switch (node.type) {
      case "section":
        this.heading(node);
        return;
      case "directive":
        this.directive(node, depth, refence && (depth > 0 || this.refenceable(node)));
        return;
      case "quote":
        for (let i = node.pos.line - 1; i < node.endLine; i++) {
          const rest = this.lines[i]!.slice(1);
          const text = rest.charCodeAt(0) === 32 ? rest.slice(1) : rest;
          this.rewrite(i, text.length > 0 ? `> ${text}` : ">");
        }
        return;
      case "thematic_break":
        this.rewrite(node.pos.line - 1, trimEndSpaces(this.lines[node.pos.line - 1]!));
        return;
      case "table":
        this.table(node);
        return;
      default:
        for (let i = node.pos.line - 1; i < node.endLine; i++) this.keep(i);
    }
  }

  /** Whether every line inside `d` that reads as a fence is a fence of `d` or of a directive in it: then all of them can be re-fenced. */
  private refenceable(d: DirectiveNode): boolean {
    for (let i = d.pos.line; i < d.endLine - 1; i++) {
      const line = this.lines[i]!;
      if (this.isFence[i] === 1 || this.inCode[i] === 1 || line.charCodeAt(0) !== 58 || line.charCodeAt(1) !== 58) continue;
      if (classifyColonLine(line) !== null) return false;
    }
    return true;
  }

  private heading(node: SectionNode): void {
    const i = node.pos.line - 1;
    const h = parseHeadingLine(this.lines[i]!)!;
    const inner = h.inner !== undefined ? (canonicalAttributes(h.inner) ?? h.inner) : "";
    const hashes = "#".repeat(h.depth);
    const title = h.title;
    // Empty braces go, except after a title ending in `}`: without them, the title's own braces would read as attributes.
    const braces = inner.length > 0 || (h.inner !== undefined && title.endsWith("}"));
    this.rewrite(i, braces ? `${hashes} ${title.length > 0 ? `${title} ` : ""}{${inner}}` : `${hashes} ${title}`);
  }

  private directive(d: DirectiveNode, depth: number, refence: boolean): void {
    const open = d.pos.line - 1;
    const close = d.endLine - 1;
    const cl = classifyColonLine(this.lines[open]!)!;
    const colons = refence ? depth + 2 : cl.colons;
    const inner = cl.inner !== undefined ? (canonicalAttributes(cl.inner) ?? cl.inner) : "";
    this.rewrite(open, `${":".repeat(colons)}${cl.name}${inner.length > 0 ? `{${inner}}` : ""}`);
    if (RAW_BODY_DIRECTIVES.has(d.name)) {
      for (let i = open + 1; i < close; i++) this.keep(i);
    } else {
      let next = open + 1;
      for (let k = 0; k < d.children.length; k++) {
        const c = d.children[k]!;
        this.gap(next, c.pos.line - 1, k === 0 ? 0 : 1);
        this.block(c, depth + 1, refence);
        next = c.endLine;
      }
      this.gap(next, close, 0);
    }
    this.rewrite(close, ":".repeat(colons));
  }

  private table(t: TableNode): void {
    const first = t.pos.line - 1;
    const n = t.header.length;
    for (let i = first + 2; i < t.endLine; i++) {
      if (splitTableRow(this.lines[i]!).length > n) {
        for (let k = first; k < t.endLine; k++) this.keep(k);
        return;
      }
    }
    const widths: number[] = [];
    for (let c = 0; c < n; c++) {
      const al = t.align[c] ?? null;
      let w = 3 + (al === "left" || al === "center" ? 1 : 0) + (al === "right" || al === "center" ? 1 : 0);
      w = Math.max(w, width(t.header[c]!));
      for (const r of t.rows) w = Math.max(w, width(r[c]!));
      widths.push(w);
    }
    const row = (cells: readonly string[]): string => `| ${cells.map((cell, c) => cell + " ".repeat(widths[c]! - width(cell))).join(" | ")} |`;
    const sep: string[] = [];
    for (let c = 0; c < n; c++) {
      const w = widths[c]!;
      const al = t.align[c] ?? null;
      sep.push(al === "left" ? `:${"-".repeat(w - 1)}` : al === "right" ? `${"-".repeat(w - 1)}:` : al === "center" ? `:${"-".repeat(w - 2)}:` : "-".repeat(w));
    }
    // A separator row needs two cells to be one: a one-column table keeps a spare.
    const sepLine = sep.length >= 2 ? `| ${sep.join(" | ")} |` : `| ${sep[0]} | --- |`;
    this.rewrite(first, row(t.header));
    this.rewrite(first + 1, sepLine);
    for (let r = 0; r < t.rows.length; r++) this.rewrite(first + 2 + r, row(t.rows[r]!));
  }
}

function firstError(doc: NomaDocument): string | undefined {
  const p = doc.problems.find((x) => x.severity === "error");
  return p === undefined ? undefined : `line ${p.line}: ${p.message}`;
}

/** Format a document's text (see the module header). Pure. */
export function formatNoma(source: string): FormatResult {
  const doc = parseNoma(source);
  const error = firstError(doc);
  if (error !== undefined)
    return { text: source, changed: false, edits: [], skipped: `it has parse errors (${error}); fix them first (\`check\` reports them)` };
  let why = "";
  for (const mode of [{ lines: true }, { lines: false }]) {
    const { text, edits } = new Formatter(doc, mode).run();
    if (text === source) return { text: source, changed: false, edits: [] };
    const difference = meaningDifference(doc, parseNoma(text));
    if (difference === null)
      return why === ""
        ? { text, changed: true, edits }
        : { text, changed: true, edits, partial: `only blank lines were changed: the rest would change what it means (${why}); please report this` };
    if (why === "") why = difference;
  }
  return { text: source, changed: false, edits: [], skipped: `formatting would change what it means (${why}); please report this` };
}
