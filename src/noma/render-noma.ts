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
import { formatAttr } from "./attributes.js";
import { classifyColonLine } from "./parse-noma.js";
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

function columnWidth(table: TableNode, col: number, align: TableAlign): number {
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

function renderTable(table: TableNode): string {
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

/** Inside a directive, a paragraph line that reads as a fence would change meaning once re-fenced. */
function escapeFenceLikeLines(text: string): string {
  if (!text.includes("::")) return text;
  return text
    .split("\n")
    .map((line) => (line.startsWith("::") && classifyColonLine(line) !== null ? ` ${line}` : line))
    .join("\n");
}

/** Render a parsed document back to Noma source (normalised, see module header). */
export function renderNoma(doc: NomaDocument): string {
  const out: string[] = [];
  const r = new Renderer(doc.frontmatter !== undefined);
  if (doc.frontmatter !== undefined) {
    out.push(doc.frontmatter.raw.length > 0 ? `---\n${doc.frontmatter.raw}\n---` : "---\n---");
  }
  const body: string[] = [];
  r.blocks(doc.children, 0, body);
  out.push(...body);
  return out.length > 0 ? `${out.join("\n\n")}\n` : "";
}
