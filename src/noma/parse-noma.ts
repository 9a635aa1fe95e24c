/**
 * The Noma parser: source text → `NomaDocument` with exact Tier-1 spans.
 *
 * Parsing is line based. For each line, in order: directive open; bare close
 * (a stray one is a paragraph); heading; code fence; pipe table; thematic
 * break; quote; list; paragraph. Blank lines separate blocks. Sections fold
 * only at the top level; a heading inside a directive is a one-line section.
 *
 * Linear time by construction: code-fence regions are found in one pass (a
 * fence line toggles the state wherever it stands), every directive finds its
 * closing line by binary search in a per-colon-count index of close lines, and
 * no regular expression used here can backtrack more than a constant amount.
 * The parser never throws on text input: malformed input becomes recovered
 * nodes plus `problems`.
 */
import { parseDocument as parseYamlDocument } from "yaml";
import type {
  AttrToken,
  AttrValue,
  BlockNode,
  CodeNode,
  DirectiveNode,
  FrontmatterNode,
  ListItemNode,
  ListNode,
  NomaDocument,
  ParagraphNode,
  ParseProblem,
  QuoteNode,
  SectionNode,
  TableAlign,
  TableNode,
} from "./ast.js";
import { parseAttributes, splitAliases } from "./attributes.js";
import { splitLines } from "./split-lines.js";
import { slugify, SlugSuffixer } from "./slugify.js";
import { splitTableRow, isTableRow, separatorAlign } from "./table-row.js";

/** Directive fences longer than this are paragraphs. */
export const MAX_COLONS = 64;

export interface ParseOptions {
  /**
   * Extra aliases for the document's root section (the first top-level H1):
   * book mode attaches the chapter filename slug this way.
   */
  rootAliases?: string[];
}

interface ColonLine {
  kind: "open" | "close";
  colons: number;
  name?: string;
  /** Text between the braces, and the offset of its first character on the line. */
  inner?: string;
  innerOffset?: number;
}

const FRONTMATTER_FENCE = /^---[ \t]*$/;
const CODE_FENCE = /^```\w*[ \t]*$/;
const THEMATIC = /^(?:-{3,}|\*{3,}|_{3,})[ \t]*$/;
const ORDERED_ITEM = /^(\d+)\. /;

function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 12 && c !== 11 && c !== 0xa0 && c !== 0xfeff) return false;
  }
  return true;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || (c >= 48 && c <= 57) || c === 45;
}

/** Classify a line starting with `::` as a directive opener, a close line, or neither (null). */
export function classifyColonLine(line: string): ColonLine | null {
  const n = line.length;
  let m = 0;
  while (m < n && line.charCodeAt(m) === 58) m++;
  if (m < 2 || m > MAX_COLONS) return null;
  let i = m;
  while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  if (i === n) return { kind: "close", colons: m };
  if (!isNameStart(line.charCodeAt(i))) return null;
  const nameStart = i;
  i++;
  while (i < n && isNameChar(line.charCodeAt(i))) i++;
  while (i + 2 < n && line.charCodeAt(i) === 58 && line.charCodeAt(i + 1) === 58 && isNameStart(line.charCodeAt(i + 2))) {
    i += 3;
    while (i < n && isNameChar(line.charCodeAt(i))) i++;
  }
  const name = line.slice(nameStart, i);
  while (i < n && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  if (i === n) return { kind: "open", colons: m, name };
  if (line.charCodeAt(i) !== 123 /* { */) return null;
  const close = line.lastIndexOf("}");
  if (close < i) return null;
  for (let j = close + 1; j < n; j++) {
    const c = line.charCodeAt(j);
    if (c !== 32 && c !== 9) return null;
  }
  return { kind: "open", colons: m, name, inner: line.slice(i + 1, close), innerOffset: i + 1 };
}

export interface HeadingLine {
  depth: number;
  title: string;
  inner?: string;
  innerOffset?: number;
}

/** `#`×1–6, whitespace, title, optional trailing `{…}` (no `}` inside). */
export function parseHeadingLine(line: string): HeadingLine | null {
  let d = 0;
  while (d < line.length && d < 7 && line.charCodeAt(d) === 35) d++;
  if (d === 0 || d > 6) return null;
  const ws = line.charCodeAt(d);
  if (ws !== 32 && ws !== 9) return null;
  let rest = line.slice(d + 1).trimEnd();
  let start = d + 1;
  while (rest.length > 0 && (rest.charCodeAt(0) === 32 || rest.charCodeAt(0) === 9)) {
    rest = rest.slice(1);
    start++;
  }
  if (rest.endsWith("}")) {
    const body = rest.slice(0, -1);
    const lastClose = body.lastIndexOf("}");
    const open = body.indexOf("{", lastClose + 1);
    if (open !== -1) {
      return {
        depth: d,
        title: body.slice(0, open).trimEnd(),
        inner: body.slice(open + 1),
        innerOffset: start + open + 1,
      };
    }
  }
  return { depth: d, title: rest };
}

function unorderedMarker(line: string): boolean {
  const c = line.charCodeAt(0);
  return (c === 45 || c === 42) && line.charCodeAt(1) === 32;
}

class Parser {
  readonly lines: string[];
  readonly problems: ParseProblem[] = [];
  /** For a code-fence opening line: index of its closing line, or `lines.length` when unclosed; else -1. */
  private readonly fenceEnd: Int32Array;
  /** closesByColons[m]: ascending indexes of close lines with exactly m colons, outside code fences. */
  private readonly closesByColons: number[][] = [];

  constructor(lines: string[], bodyStart: number) {
    this.lines = lines;
    const n = lines.length;
    this.fenceEnd = new Int32Array(n).fill(-1);
    let openAt = -1;
    for (let i = bodyStart; i < n; i++) {
      const line = lines[i]!;
      const c = line.charCodeAt(0);
      if (openAt !== -1) {
        if (c === 96 && CODE_FENCE.test(line)) {
          this.fenceEnd[openAt] = i;
          openAt = -1;
        }
        continue;
      }
      if (c === 96) {
        if (CODE_FENCE.test(line)) openAt = i;
      } else if (c === 58 && line.charCodeAt(1) === 58) {
        const cl = classifyColonLine(line);
        if (cl !== null && cl.kind === "close") {
          (this.closesByColons[cl.colons] ??= []).push(i);
        }
      }
    }
    if (openAt !== -1) this.fenceEnd[openAt] = n;
  }

  /** First close line with exactly `colons` colons after `from`, before `end`; -1 if none. */
  private findClose(colons: number, from: number, end: number): number {
    const list = this.closesByColons[colons];
    if (list === undefined) return -1;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]! <= from) lo = mid + 1;
      else hi = mid;
    }
    if (lo < list.length && list[lo]! < end) return list[lo]!;
    return -1;
  }

  private isTableStart(i: number, end: number): boolean {
    return i + 1 < end && isTableRow(this.lines[i]!) && separatorAlign(this.lines[i + 1]!) !== null;
  }

  /** Does line `i` begin a block other than a paragraph, inside a directive of `depth` colons? */
  private startsBlock(i: number, end: number, depth: number): boolean {
    const line = this.lines[i]!;
    const c = line.charCodeAt(0);
    switch (c) {
      case 58: {
        const cl = classifyColonLine(line);
        return cl !== null && (cl.kind === "close" || cl.colons > depth);
      }
      case 35:
        return parseHeadingLine(line) !== null;
      case 96:
        return this.fenceEnd[i] !== -1;
      case 124:
        return this.isTableStart(i, end);
      case 45:
      case 42:
        return THEMATIC.test(line) || unorderedMarker(line);
      case 95:
        return THEMATIC.test(line);
      case 62:
        return true;
      default:
        return c >= 48 && c <= 57 && ORDERED_ITEM.test(line);
    }
  }

  /** Parse lines [start, end) inside a directive of `depth` colons (0 at the top level). */
  parseBlocks(start: number, end: number, depth: number): BlockNode[] {
    const lines = this.lines;
    const out: BlockNode[] = [];
    let i = start;
    while (i < end) {
      const line = lines[i]!;
      if (isBlank(line)) {
        i++;
        continue;
      }
      const c = line.charCodeAt(0);
      if (c === 96 && this.fenceEnd[i] !== -1) {
        i = this.parseCode(i, end, out);
        continue;
      }
      if (c === 58) {
        const cl = classifyColonLine(line);
        if (cl !== null && cl.kind === "open" && cl.colons > depth) {
          i = this.parseDirective(i, end, cl, out);
          continue;
        }
      } else if (c === 35) {
        const h = parseHeadingLine(line);
        if (h !== null) {
          out.push(this.makeSection(i, h, depth > 0));
          i++;
          continue;
        }
      } else if (c === 124) {
        if (this.isTableStart(i, end)) {
          i = this.parseTable(i, end, out);
          continue;
        }
      } else if (c === 45 || c === 42 || c === 95) {
        if (THEMATIC.test(line)) {
          out.push({ type: "thematic_break", pos: { line: i + 1, column: 1 }, endLine: i + 1 });
          i++;
          continue;
        }
        if (c !== 95 && unorderedMarker(line)) {
          i = this.parseList(i, end, false, out);
          continue;
        }
      } else if (c === 62) {
        i = this.parseQuote(i, end, out);
        continue;
      } else if (c >= 48 && c <= 57 && ORDERED_ITEM.test(line)) {
        i = this.parseList(i, end, true, out);
        continue;
      }
      i = this.parseParagraph(i, end, depth, out);
    }
    return out;
  }

  private parseCode(i: number, end: number, out: BlockNode[]): number {
    const lines = this.lines;
    const fenceClose = this.fenceEnd[i]!;
    const closed = fenceClose < end;
    const last = closed ? fenceClose : end - 1;
    const contentEnd = closed ? fenceClose : end;
    const lang = lines[i]!.slice(3).trim();
    const node: CodeNode = {
      type: "code",
      lang,
      content: lines.slice(i + 1, contentEnd).join("\n"),
      closed,
      pos: { line: i + 1, column: 1 },
      endLine: last + 1,
    };
    if (!closed) {
      this.problems.push({
        severity: "error",
        code: "unclosed-code-fence",
        message: "Code fence opened here is never closed; it runs to the end of its enclosing block.",
        line: i + 1,
        endLine: last + 1,
        column: 1,
      });
    }
    out.push(node);
    return last + 1;
  }

  private parseDirective(i: number, end: number, cl: ColonLine, out: BlockNode[]): number {
    const close = this.findClose(cl.colons, i, end);
    const closed = close !== -1;
    const interiorEnd = closed ? close : end;
    const children = this.parseBlocks(i + 1, interiorEnd, cl.colons);
    let attrs: Record<string, AttrValue>;
    let attrTokens: AttrToken[];
    if (cl.inner !== undefined) {
      const parsed = parseAttributes(cl.inner, cl.innerOffset);
      attrs = parsed.attrs;
      attrTokens = parsed.tokens;
    } else {
      attrs = Object.create(null) as Record<string, AttrValue>;
      attrTokens = [];
    }
    const idValue = attrs["id"];
    const node: DirectiveNode = {
      type: "directive",
      name: cl.name!,
      colons: cl.colons,
      attrs,
      attrTokens,
      aliases: splitAliases(attrs["aliases"]),
      children,
      closed,
      pos: { line: i + 1, column: 1 },
      endLine: closed ? close + 1 : end,
    };
    if (typeof idValue === "string" && idValue.length > 0) node.id = idValue;
    if (children.length === 1 && children[0]!.type === "paragraph") node.body = children[0]!.text;
    if (!closed) {
      this.problems.push({
        severity: "error",
        code: "unclosed-directive",
        message: `Directive "${cl.name}" opened with ${cl.colons} colons is never closed by a line of exactly ${cl.colons} colons; it runs to the end of its enclosing block.`,
        line: i + 1,
        endLine: end,
        column: 1,
      });
    }
    out.push(node);
    return closed ? close + 1 : end;
  }

  private makeSection(i: number, h: HeadingLine, nested: boolean): SectionNode {
    const attrs =
      h.inner !== undefined
        ? parseAttributes(h.inner, h.innerOffset).attrs
        : (Object.create(null) as Record<string, AttrValue>);
    return {
      type: "section",
      depth: h.depth,
      title: h.title,
      explicitId: false,
      attrs,
      aliases: splitAliases(attrs["aliases"]),
      children: [],
      nested,
      pos: { line: i + 1, column: 1 },
      endLine: i + 1,
    };
  }

  private parseTable(i: number, end: number, out: BlockNode[]): number {
    const lines = this.lines;
    const header = splitTableRow(lines[i]!);
    const width = header.length;
    const sepAlign = separatorAlign(lines[i + 1]!)!;
    const align: TableAlign[] = [];
    for (let k = 0; k < width; k++) align.push(sepAlign[k] ?? null);
    const rows: string[][] = [];
    let j = i + 2;
    while (j < end && isTableRow(lines[j]!)) {
      const cells = splitTableRow(lines[j]!);
      if (cells.length > width) cells.length = width;
      while (cells.length < width) cells.push("");
      rows.push(cells);
      j++;
    }
    const node: TableNode = { type: "table", header, align, rows, pos: { line: i + 1, column: 1 }, endLine: j };
    out.push(node);
    return j;
  }

  private parseList(i: number, end: number, ordered: boolean, out: BlockNode[]): number {
    const lines = this.lines;
    const items: ListItemNode[] = [];
    let j = i;
    while (j < end) {
      const line = lines[j]!;
      let marker: string;
      let text: string;
      if (ordered) {
        const m = ORDERED_ITEM.exec(line);
        if (m === null) break;
        marker = `${m[1]}.`;
        text = line.slice(m[0].length);
      } else {
        if (!unorderedMarker(line) || THEMATIC.test(line)) break;
        marker = line[0]!;
        text = line.slice(2);
      }
      items.push({ type: "list_item", marker, text, pos: { line: j + 1, column: 1 }, endLine: j + 1 });
      j++;
    }
    const node: ListNode = { type: "list", ordered, children: items, pos: { line: i + 1, column: 1 }, endLine: j };
    out.push(node);
    return j;
  }

  private parseQuote(i: number, end: number, out: BlockNode[]): number {
    const lines = this.lines;
    const parts: string[] = [];
    let j = i;
    while (j < end && lines[j]!.charCodeAt(0) === 62) {
      const line = lines[j]!;
      parts.push(line.charCodeAt(1) === 32 ? line.slice(2) : line.slice(1));
      j++;
    }
    const node: QuoteNode = { type: "quote", text: parts.join("\n"), pos: { line: i + 1, column: 1 }, endLine: j };
    out.push(node);
    return j;
  }

  private parseParagraph(i: number, end: number, depth: number, out: BlockNode[]): number {
    const lines = this.lines;
    let j = i + 1;
    while (j < end && !isBlank(lines[j]!) && !this.startsBlock(j, end, depth)) j++;
    const node: ParagraphNode = {
      type: "paragraph",
      text: j === i + 1 ? lines[i]! : lines.slice(i, j).join("\n"),
      pos: { line: i + 1, column: 1 },
      endLine: j,
    };
    out.push(node);
    return j;
  }
}

/** Fold top-level headings into sections: each holds what follows until a heading of the same or shallower depth. */
function foldSections(blocks: BlockNode[], lastLine: number): BlockNode[] {
  const result: BlockNode[] = [];
  const stack: SectionNode[] = [];
  for (const b of blocks) {
    if (b.type === "section") {
      while (stack.length > 0 && stack[stack.length - 1]!.depth >= b.depth) {
        stack.pop()!.endLine = b.pos.line - 1;
      }
      (stack.length > 0 ? stack[stack.length - 1]!.children : result).push(b);
      stack.push(b);
    } else {
      (stack.length > 0 ? stack[stack.length - 1]!.children : result).push(b);
    }
  }
  for (const s of stack) s.endLine = lastLine;
  return result;
}

function parseFrontmatter(lines: string[], problems: ParseProblem[]): FrontmatterNode | undefined {
  if (lines.length < 2 || !FRONTMATTER_FENCE.test(lines[0]!)) return undefined;
  let close = -1;
  for (let i = 1; i < lines.length; i++) {
    if (FRONTMATTER_FENCE.test(lines[i]!)) {
      close = i;
      break;
    }
  }
  if (close === -1) return undefined;
  const raw = lines.slice(1, close).join("\n");
  let data: unknown;
  try {
    const doc = parseYamlDocument(raw, { prettyErrors: false, uniqueKeys: true });
    if (doc.errors.length > 0) {
      for (const err of doc.errors) {
        const at = err.linePos?.[0];
        problems.push({
          severity: "error",
          code: "invalid-frontmatter",
          message: `Frontmatter is not valid YAML: ${err.message.split("\n")[0]}`,
          line: at !== undefined ? at.line + 1 : 2,
          column: at !== undefined ? at.col : 1,
        });
      }
    } else {
      data = doc.toJS({ maxAliasCount: 100 }) as unknown;
      if (data !== null && data !== undefined && (typeof data !== "object" || Array.isArray(data))) {
        problems.push({
          severity: "error",
          code: "invalid-frontmatter",
          message: `Frontmatter must be a YAML mapping; found ${Array.isArray(data) ? "a list" : `a ${typeof data}`}.`,
          line: 2,
          column: 1,
        });
        data = undefined;
      }
    }
  } catch (e) {
    problems.push({
      severity: "error",
      code: "invalid-frontmatter",
      message: `Frontmatter is not valid YAML: ${(e as Error).message.split("\n")[0]}`,
      line: 2,
      column: 1,
    });
    data = undefined;
  }
  return { type: "frontmatter", raw, data, pos: { line: 1, column: 1 }, endLine: close + 1 };
}

function frontmatterAliases(data: unknown): string[] {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return [];
  const value = (data as Record<string, unknown>)["aliases"];
  if (Array.isArray(value)) {
    return value.filter((v) => typeof v === "string" || typeof v === "number").map(String).filter((v) => v.length > 0);
  }
  if (typeof value === "string") return splitAliases(value);
  return [];
}

/** Assign canonical ids, register aliases, and index nodes by id (document-walk order). */
function indexIds(doc: NomaDocument, extraRootAliases: string[]): void {
  const suffixer = new SlugSuffixer();
  const fmAliases = doc.frontmatter !== undefined ? frontmatterAliases(doc.frontmatter.data) : [];
  const rootAliases = [...fmAliases, ...extraRootAliases];
  let root: SectionNode | undefined;

  const register = (node: SectionNode | DirectiveNode): void => {
    const id = node.id;
    if (id === undefined) return;
    doc.ids.push(id);
    const same = doc.nodesById.get(id);
    if (same === undefined) doc.nodesById.set(id, [node]);
    else same.push(node);
    if (node.aliases.length > 0) {
      const list = doc.aliasesById.get(id);
      if (list === undefined) doc.aliasesById.set(id, [...node.aliases]);
      else for (const a of node.aliases) if (!list.includes(a)) list.push(a);
      for (const a of node.aliases) if (!doc.aliasMap.has(a)) doc.aliasMap.set(a, id);
    }
  };

  const visit = (nodes: BlockNode[]): void => {
    for (const node of nodes) {
      if (node.type === "section") {
        const explicit = node.attrs["id"];
        if (typeof explicit === "string" && explicit.length > 0) {
          node.id = explicit;
          node.explicitId = true;
        } else {
          const slug = slugify(node.title);
          if (slug.length > 0) node.id = node.nested ? slug : suffixer.assign(slug);
        }
        if (!node.nested && node.depth === 1 && root === undefined) {
          root = node;
          if (rootAliases.length > 0) {
            for (const a of rootAliases) if (!node.aliases.includes(a)) node.aliases.push(a);
          }
        }
        register(node);
        visit(node.children);
      } else if (node.type === "directive") {
        register(node);
        visit(node.children);
      }
    }
  };
  visit(doc.children);

  if (root === undefined && fmAliases.length > 0) {
    doc.problems.push({
      severity: "warning",
      code: "frontmatter-aliases-unattached",
      message: `Frontmatter aliases (${fmAliases.join(", ")}) are ignored: the document has no top-level "# " heading to attach them to.`,
      line: 1,
      column: 1,
    });
  } else if (root !== undefined && root.id === undefined && rootAliases.length > 0) {
    doc.problems.push({
      severity: "warning",
      code: "frontmatter-aliases-unattached",
      message: `Aliases (${rootAliases.join(", ")}) are ignored: the first top-level heading has no id (its title gives an empty slug).`,
      line: root.pos.line,
      column: 1,
    });
  }
}

/** Parse Noma source text. Never throws; problems found on the way are in `doc.problems`. */
export function parseNoma(source: string, options: ParseOptions = {}): NomaDocument {
  const { lines, lineStarts } = splitLines(source);
  const problems: ParseProblem[] = [];
  const frontmatter = parseFrontmatter(lines, problems);
  const bodyStart = frontmatter !== undefined ? frontmatter.endLine : 0;
  const parser = new Parser(lines, bodyStart);
  const lastLine = Math.max(lines.length, 1);
  const flat = parser.parseBlocks(bodyStart, lines.length, 0);
  const doc: NomaDocument = {
    type: "document",
    source,
    lines,
    lineStarts,
    children: foldSections(flat, lastLine),
    problems: [...problems, ...parser.problems],
    ids: [],
    aliasesById: new Map(),
    aliasMap: new Map(),
    nodesById: new Map(),
    pos: { line: 1, column: 1 },
    endLine: lastLine,
  };
  if (frontmatter !== undefined) doc.frontmatter = frontmatter;
  indexIds(doc, options.rootAliases ?? []);
  doc.problems.sort((a, b) => a.line - b.line);
  return doc;
}
