/**
 * renderNoma: source-to-source rendering of a parsed document (Annex C.3).
 *
 * Blocks are joined by one blank line and the output ends with exactly one
 * newline. Frontmatter is kept raw; headings carry `{id=…}` when the id is not
 * the title's plain slug; lists are renumbered from
 * 1; quotes are `> `; tables are re-aligned; directives are re-fenced by
 * nesting depth with their attributes in source order.
 *
 * The output is a fixed point: render(parse(render(parse(x)))) equals
 * render(parse(x)). Where re-fencing would change how a line reads (a
 * paragraph line inside a directive that looks like a fence), the line is
 * indented by one space so it stays a paragraph line.
 */
import type { AttrValue, BlockNode, DirectiveNode, NomaDocument, SectionNode, TableAlign, TableNode } from "./ast.js";
import { formatAttr, getAttr, isWrittenForm, parseAttributeRange } from "./attributes.js";
import { IdIndexBuilder } from "./id-index-builder.js";
import {
  CLOSED,
  F_A,
  F_B,
  F_C,
  F_D,
  F_END,
  F_LINE,
  F_NEXT,
  K_CODE,
  K_DIRECTIVE,
  K_LIST,
  K_PARAGRAPH,
  K_QUOTE,
  K_SECTION,
  K_TABLE,
  KIND_MASK,
  level,
  NESTED,
  ORDERED,
  STRIDE,
} from "./block-table.js";
import { rowAttrs } from "./materialize-blocks.js";
import { compactParse } from "./compact-parse.js";
import { classifyColonLine, type ScannedNoma } from "./parse-noma.js";
import { separatorAlign, splitTableRow } from "./table-row.js";
import { slugify, SlugSuffixer } from "./slugify.js";

function renderAttrValue(key: string, value: AttrValue): string {
  const written = formatAttr(key, value);
  if (written !== "newline" && written !== "both-quotes" && written !== "not-finite") return written;
  // Unreachable for parsed input except an unquoted value holding both quote kinds: keep it unquoted.
  const s = String(value).replace(/[\r\n]+/g, " ");
  return /\s/.test(s) ? `${key}="${s.replace(/"/g, "'")}"` : `${key}=${s}`;
}

function renderAttrBlock(attrs: Record<string, AttrValue>, skipId: boolean): string {
  const parts: string[] = [];
  for (const key of Object.keys(attrs)) {
    if (skipId && key === "id") continue;
    parts.push(renderAttrValue(key, attrs[key]!));
  }
  return parts.length > 0 ? `{${parts.join(" ")}}` : "";
}

function columnWidth(table: Pick<TableNode, "header" | "rows">, col: number, align: TableAlign): number {
  let w = 3 + (align === "left" || align === "center" ? 1 : 0) + (align === "right" || align === "center" ? 1 : 0);
  const h = table.header[col] ?? "";
  if (h.length > w) w = h.length;
  for (const row of table.rows) {
    const c = row[col] ?? "";
    if (c.length > w) w = c.length;
  }
  return w;
}

function separatorCell(width: number, align: TableAlign): string {
  switch (align) {
    case "left":
      return `:${"-".repeat(width - 1)}`;
    case "right":
      return `${"-".repeat(width - 1)}:`;
    case "center":
      return `:${"-".repeat(width - 2)}:`;
    default:
      return "-".repeat(width);
  }
}

function renderTable(table: Pick<TableNode, "header" | "align" | "rows">): string {
  const n = table.header.length;
  const widths: number[] = [];
  for (let c = 0; c < n; c++) widths.push(columnWidth(table, c, table.align[c] ?? null));
  const row = (cells: string[]): string => `| ${cells.map((cell, c) => cell.padEnd(widths[c]!)).join(" | ")} |`;
  const sep: string[] = [];
  for (let c = 0; c < n; c++) sep.push(separatorCell(widths[c]!, table.align[c] ?? null));
  // A separator needs at least two cells to be read as one; a one-column table gets a spare.
  while (sep.length < 2) sep.push("---");
  const lines = [row(table.header), `| ${sep.join(" | ")} |`];
  for (const r of table.rows) lines.push(row(r));
  return lines.join("\n");
}

class Renderer {
  private readonly suffixer = new SlugSuffixer();
  private firstBlock: boolean;

  constructor(hasFrontmatter: boolean) {
    this.firstBlock = !hasFrontmatter;
  }

  blocks(nodes: BlockNode[], depth: number, out: string[]): void {
    for (const node of nodes) this.block(node, depth, out);
  }

  private push(out: string[], text: string): void {
    out.push(text);
    this.firstBlock = false;
  }

  private block(node: BlockNode, depth: number, out: string[]): void {
    switch (node.type) {
      case "section":
        this.section(node, depth, out);
        return;
      case "directive":
        this.push(out, this.directive(node, depth));
        return;
      case "paragraph":
        this.push(out, depth > 0 ? escapeFenceLikeLines(node.text) : node.text);
        return;
      case "code":
        this.push(out, node.content.length > 0 ? `\`\`\`${node.lang}\n${node.content}\n\`\`\`` : `\`\`\`${node.lang}\n\`\`\``);
        return;
      case "list":
        this.push(out, node.children.map((item, i) => (node.ordered ? `${i + 1}. ${item.text}` : `- ${item.text}`)).join("\n"));
        return;
      case "quote":
        this.push(
          out,
          node.text
            .split("\n")
            .map((l) => (l.length > 0 ? `> ${l}` : ">"))
            .join("\n"),
        );
        return;
      case "thematic_break":
        // `---` as the very first line could be read back as a frontmatter fence.
        this.push(out, this.firstBlock ? "***" : "---");
        return;
      case "table":
        this.push(out, renderTable(node));
        return;
    }
  }

  /**
   * A heading carries `{id=…}` whenever its id differs from the title's plain slug (§B; a
   * collision suffix too). An id equal to the slug is left to the parser, unless an earlier
   * heading left implicit already took that slug (only in documents with duplicate ids):
   * then it is written, so the re-parse gives every heading its id again.
   */
  private headingIdNeeded(node: SectionNode): boolean {
    if (node.id === undefined) return false;
    const slug = slugify(node.title);
    if (node.id !== slug) return true;
    if (node.nested) return false;
    if (this.suffixer.peek(slug) === slug) {
      this.suffixer.assign(slug);
      return false;
    }
    return true;
  }

  private section(node: SectionNode, depth: number, out: string[]): void {
    const needId = this.headingIdNeeded(node);
    let attrs = renderAttrBlock(node.attrs, true);
    if (needId) {
      const idToken = renderAttrValue("id", node.id!);
      attrs = attrs.length > 0 ? `{${idToken} ${attrs.slice(1)}` : `{${idToken}}`;
    }
    this.push(out, `${"#".repeat(node.depth)} ${node.title}${attrs.length > 0 ? ` ${attrs}` : ""}`);
    this.blocks(node.children, depth, out);
  }

  private directive(node: DirectiveNode, depth: number): string {
    const fence = ":".repeat(depth + 2);
    const head = `${fence}${node.name}${renderAttrBlock(node.attrs, false)}`;
    const inner: string[] = [];
    this.blocks(node.children, depth + 1, inner);
    return inner.length > 0 ? `${head}\n${inner.join("\n\n")}\n${fence}` : `${head}\n${fence}`;
  }
}

function frontmatterText(raw: string): string {
  return raw.length > 0 ? `---\n${raw}\n---` : "---\n---";
}

/** Inside a directive, a paragraph line that reads as a fence would change meaning once re-fenced. */
function escapeFenceLikeLines(text: string): string {
  if (!text.includes("::")) return text;
  return text
    .split("\n")
    .map((line) => (line.startsWith("::") && classifyColonLine(line) !== null ? ` ${line}` : line))
    .join("\n");
}

/**
 * The same rendering read off the block table of a document nothing has built into nodes
 * yet (a fresh parse): no node is made, a paragraph or a code block is a slice of the source,
 * attributes are read from the rows' attribute text. Property-tested against the tree's
 * rendering over random documents.
 */
class RowRenderer {
  private readonly suffixer = new SlugSuffixer();
  /** Hands out headings' implicit ids as the id index does (IdIndexBuilder.slugId): the table may come without one. */
  private readonly ids = new SlugSuffixer();
  private firstBlock: boolean;
  private readonly src: string;
  private readonly d: Int32Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  /** The rendering since the last chunk was handed out. */
  private acc = "";

  constructor(
    private readonly doc: Pick<ScannedNoma, "source" | "frontmatter" | "table" | "index">,
    /** Takes the rendering in chunks of about CHUNK characters, in order. */
    private readonly sink: (chunk: string) => void,
  ) {
    this.firstBlock = doc.frontmatter === undefined;
    this.src = doc.source;
    this.d = doc.table.data;
    this.starts = doc.index.starts;
    this.ends = doc.index.ends;
  }

  /** The document: frontmatter, then the top-level rows (sections unfolded), a blank line between each two. */
  render(): void {
    const d = this.d;
    const n = this.doc.table.count;
    let after = false;
    if (this.doc.frontmatter !== undefined) {
      this.acc = frontmatterText(this.doc.frontmatter.raw);
      after = true;
    }
    for (let b = 0; b < n; b = d[b * STRIDE + F_NEXT]!) {
      if (after) this.acc += "\n\n";
      after = true;
      this.block(b, 0);
      // Handed out block by block: what is rendered never piles up (nor survives a collection).
      if (this.acc.length >= CHUNK) {
        this.sink(this.acc);
        this.acc = "";
      }
    }
    if (after) this.sink(`${this.acc}\n`);
  }

  /** Lines [from, to) joined with "\n": one slice of the source when they end in "\n" alone. */
  private text(from: number, to: number): string {
    if (to <= from) return "";
    const { src, starts, ends } = this;
    let lf = true;
    for (let i = from; i + 1 < to && lf; i++) lf = starts[i + 1] === ends[i]! + 1 && src.charCodeAt(ends[i]!) === 10;
    if (lf) return src.slice(starts[from], ends[to - 1]);
    const parts: string[] = [];
    for (let i = from; i < to; i++) parts.push(src.slice(starts[i], ends[i]));
    return parts.join("\n");
  }

  private attrs(b: number): Record<string, AttrValue> {
    return rowAttrs(this.doc.table, this.src, b);
  }

  /** A directive's attribute block as renderAttrBlock writes it: its source when that is already the written form. */
  private directiveAttrs(o: number): string {
    const from = this.d[o + F_A]!;
    if (from === -1) return "";
    const to = this.d[o + F_B]!;
    if (isWrittenForm(this.src, from, to)) return this.src.slice(from - 1, to + 1);
    return renderAttrBlock(parseAttributeRange(this.src, from, to), false);
  }

  /** Add one block's rendering (a directive's with its children). */
  private block(b: number, depth: number): void {
    const { d, src } = this;
    const o = b * STRIDE;
    const word = d[o]!;
    const line = d[o + F_LINE]!;
    const end = d[o + F_END]!;
    switch (word & KIND_MASK) {
      case K_SECTION:
        this.acc += this.section(b, word);
        break;
      case K_DIRECTIVE: {
        const fence = ":".repeat(depth + 2);
        this.acc += `${fence}${this.doc.table.names[d[o + F_C]!]!}${this.directiveAttrs(o)}\n`;
        const next = d[o + F_NEXT]!;
        // The children are rendered before the directive counts as added (as the tree's renderer does).
        for (let k = b + 1; k < next; k = d[k * STRIDE + F_NEXT]!) {
          if (k > b + 1) this.acc += "\n\n";
          this.block(k, depth + 1);
        }
        this.acc += next > b + 1 ? `\n${fence}` : fence;
        break;
      }
      case K_PARAGRAPH: {
        const text = this.text(line, end);
        this.acc += depth > 0 ? escapeFenceLikeLines(text) : text;
        break;
      }
      case K_CODE: {
        const lang = src.slice(d[o + F_A], d[o + F_B]);
        const content = this.text(line + 1, (word & CLOSED) !== 0 ? end - 1 : end);
        this.acc += content.length > 0 ? `\`\`\`${lang}\n${content}\n\`\`\`` : `\`\`\`${lang}\n\`\`\``;
        break;
      }
      case K_LIST: {
        const ordered = (word & ORDERED) !== 0;
        const next = d[o + F_NEXT]!;
        for (let k = b + 1; k < next; k++) {
          const j = d[k * STRIDE + F_LINE]!;
          const item = src.slice(this.starts[j]! + d[k * STRIDE + F_A]!, this.ends[j]);
          this.acc += `${k > b + 1 ? "\n" : ""}${ordered ? `${k - b}. ` : "- "}${item}`;
        }
        break;
      }
      case K_QUOTE:
        for (let j = line; j < end; j++) {
          const s = this.starts[j]!;
          const e = this.ends[j]!;
          const skip = s + 1 < e && src.charCodeAt(s + 1) === 32 ? 2 : 1;
          this.acc += `${j > line ? "\n" : ""}${s + skip < e ? `> ${src.slice(s + skip, e)}` : ">"}`;
        }
        break;
      case K_TABLE:
        this.acc += renderTable(this.tableOf(line, end));
        break;
      default:
        // `---` as the very first line could be read back as a frontmatter fence.
        this.acc += this.firstBlock ? "***" : "---";
        break;
    }
    this.firstBlock = false;
  }

  /** A heading (see Renderer.headingIdNeeded), its id as the id index gives it (index-row-ids.ts). */
  private section(b: number, word: number): string {
    const o = b * STRIDE;
    const title = this.src.slice(this.d[o + F_C], this.d[o + F_D]);
    const attrs = this.d[o + F_A] === -1 ? undefined : this.attrs(b);
    const nested = (word & NESTED) !== 0;
    const slug = slugify(title);
    const id =
      IdIndexBuilder.explicitId(attrs === undefined ? undefined : getAttr(attrs, "id")) ??
      (slug.length === 0 ? undefined : nested ? slug : this.ids.assign(slug));
    let needId = false;
    if (id !== undefined) {
      if (id !== slug) needId = true;
      else if (!nested) {
        if (this.suffixer.peek(slug) === slug) this.suffixer.assign(slug);
        else needId = true;
      }
    }
    let rendered = attrs === undefined ? "" : renderAttrBlock(attrs, true);
    if (needId) {
      const idToken = renderAttrValue("id", id!);
      rendered = rendered.length > 0 ? `{${idToken} ${rendered.slice(1)}` : `{${idToken}}`;
    }
    return `${"#".repeat(level(word))} ${title}${rendered.length > 0 ? ` ${rendered}` : ""}`;
  }

  /** A table's cells as the parse reads them (see RowMaterializer.tableNode). */
  private tableOf(line: number, end: number): Pick<TableNode, "header" | "align" | "rows"> {
    const row = (j: number): string => this.src.slice(this.starts[j], this.ends[j]);
    const header = splitTableRow(row(line));
    const width = header.length;
    const sepAlign = separatorAlign(row(line + 1))!;
    const align: TableAlign[] = [];
    for (let k = 0; k < width; k++) align.push(sepAlign[k] ?? null);
    const rows: string[][] = [];
    for (let j = line + 2; j < end; j++) {
      const cells = splitTableRow(row(j));
      if (cells.length > width) cells.length = width;
      while (cells.length < width) cells.push("");
      rows.push(cells);
    }
    return { header, align, rows };
  }
}

/** Characters of rendering handed out at a time by renderNomaChunks (at block boundaries, so a few more). */
const CHUNK = 64 * 1024;

/**
 * renderNoma's text, handed to `sink` in chunks (of about 64 Ki characters, in order) as it
 * is made, for a caller that writes it out: a large rendering is never held whole.
 */
export function renderNomaChunks(doc: NomaDocument | ScannedNoma, sink: (chunk: string) => void): void {
  if (!("type" in doc)) {
    new RowRenderer(doc, sink).render();
    return;
  }
  const compact = compactParse(doc);
  if (compact !== undefined) new RowRenderer({ source: doc.source, frontmatter: doc.frontmatter, table: compact.table, index: compact.index }, sink).render();
  else {
    const text = renderNoma(doc);
    if (text.length > 0) sink(text);
  }
}

/** Render a parsed document back to Noma source (normalised, see module header). */
export function renderNoma(doc: NomaDocument): string {
  const compact = compactParse(doc);
  if (compact !== undefined) {
    const chunks: string[] = [];
    new RowRenderer({ source: doc.source, frontmatter: doc.frontmatter, table: compact.table, index: compact.index }, (chunk) => chunks.push(chunk)).render();
    return chunks.join("");
  }
  const out: string[] = [];
  const r = new Renderer(doc.frontmatter !== undefined);
  if (doc.frontmatter !== undefined) out.push(frontmatterText(doc.frontmatter.raw));
  const body: string[] = [];
  r.blocks(doc.children, 0, body);
  out.push(...body);
  return out.length > 0 ? `${out.join("\n\n")}\n` : "";
}
