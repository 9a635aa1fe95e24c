/**
 * Node objects (`ast.ts`) from a block table: the tree callers walk, built only
 * when one asks for it. Strings are taken from the source here (titles, texts,
 * cells, attribute values). Sections come out childless and one line long
 * (top-level folding is `foldSections`), and without ids (the id index assigns them).
 */
import type { AttrValue, BlockNode, CodeNode, DirectiveNode, ListItemNode, ListNode, SectionNode, TableAlign, TableNode } from "./ast.js";
import { getAttr, NO_ALIASES, parseAttributeRange, splitAliases } from "./attributes.js";
import {
  type BlockTable,
  CLOSED,
  EXPLICIT_ID,
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
import { RowMap } from "./row-map.js";
import { separatorAlign, splitTableRow } from "./table-row.js";

export interface Materialized {
  /** Top-level blocks in order (sections unfolded). */
  flat: BlockNode[];
  /** The node of every row (list items included). */
  nodes: RowMap<BlockNode | ListItemNode>;
}

/** Section ids by row, when the table's ids are indexed (sections then get `id` and `explicitId`). */
export interface RowIds {
  /** Row → index into `ids`, or -1. */
  idSlot: Int32Array;
  ids: readonly string[];
}

export function materializeBlocks(table: BlockTable, src: string, starts: Int32Array, ends: Int32Array, ids?: RowIds): Materialized {
  const m = new RowMaterializer(table, src, starts, ends, ids);
  const flat: BlockNode[] = [];
  for (let b = 0; b < table.count; b = table.data[b * STRIDE + F_NEXT]!) flat.push(m.block(b));
  return { flat, nodes: m.nodes };
}

/** Attributes of a section or directive row (empty when it has no `{…}`). */
export function rowAttrs(table: BlockTable, src: string, b: number): Record<string, AttrValue> {
  const o = b * STRIDE;
  const from = table.data[o + F_A]!;
  return from === -1 ? {} : parseAttributeRange(src, from, table.data[o + F_B]!);
}

/** Builds the node of a row (and of its descendants) on demand. */
export class RowMaterializer {
  /** The nodes made so far, by row. */
  readonly nodes: RowMap<BlockNode | ListItemNode>;

  constructor(
    private readonly table: BlockTable,
    private readonly src: string,
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    private readonly ids?: RowIds,
  ) {
    this.nodes = new RowMap<BlockNode | ListItemNode>(table.count);
  }

  private line(i: number): string {
    return this.src.slice(this.starts[i], this.ends[i]);
  }

  /** Do lines [from, to) end in "\n" alone (but the last)? Then they are one slice of the source. */
  private lfBreaks(from: number, to: number): boolean {
    for (let i = from; i + 1 < to; i++) {
      const e = this.ends[i]!;
      if (this.starts[i + 1]! !== e + 1 || this.src.charCodeAt(e) !== 10) return false;
    }
    return true;
  }

  /** Lines [from, to) joined with "\n". */
  private text(from: number, to: number): string {
    if (to <= from) return "";
    if (this.lfBreaks(from, to)) return this.src.slice(this.starts[from], this.ends[to - 1]);
    const parts: string[] = [];
    for (let i = from; i < to; i++) parts.push(this.line(i));
    return parts.join("\n");
  }

  /** The children of row `b`: rows b+1 … up to its next sibling, sibling by sibling. */
  private children(b: number): BlockNode[] {
    const d = this.table.data;
    const stop = d[b * STRIDE + F_NEXT]!;
    const out: BlockNode[] = [];
    for (let c = b + 1; c < stop; c = d[c * STRIDE + F_NEXT]!) out.push(this.block(c));
    return out;
  }

  block(b: number): BlockNode {
    const d = this.table.data;
    const o = b * STRIDE;
    const word = d[o]!;
    const line = d[o + F_LINE]!;
    const endLine = d[o + F_END]!;
    let node: BlockNode;
    switch (word & KIND_MASK) {
      case K_SECTION: {
        const attrs = rowAttrs(this.table, this.src, b);
        const section: SectionNode = {
          type: "section",
          depth: level(word),
          title: this.src.slice(d[o + F_C]!, d[o + F_D]!),
          explicitId: false,
          attrs,
          aliases: aliasesOf(attrs),
          children: [],
          nested: (word & NESTED) !== 0,
          pos: { line: line + 1, column: 1 },
          endLine,
        };
        const slot = this.ids !== undefined ? this.ids.idSlot[b]! : -1;
        if (slot !== -1) {
          section.id = this.ids!.ids[slot]!;
          if ((word & EXPLICIT_ID) !== 0) section.explicitId = true;
        }
        node = section;
        break;
      }
      case K_DIRECTIVE: {
        const attrs = rowAttrs(this.table, this.src, b);
        const children = this.children(b);
        const directive: DirectiveNode = {
          type: "directive",
          name: this.table.names[d[o + F_C]!]!,
          colons: level(word),
          attrs,
          aliases: aliasesOf(attrs),
          children,
          closed: (word & CLOSED) !== 0,
          pos: { line: line + 1, column: 1 },
          endLine,
        };
        const id = getAttr(attrs, "id");
        if (typeof id === "string" && id.length > 0) directive.id = id;
        if (children.length === 1 && children[0]!.type === "paragraph") directive.body = children[0]!.text;
        node = directive;
        break;
      }
      case K_CODE: {
        const closed = (word & CLOSED) !== 0;
        const code: CodeNode = {
          type: "code",
          lang: this.src.slice(d[o + F_A]!, d[o + F_B]!),
          content: this.text(line + 1, closed ? endLine - 1 : endLine),
          closed,
          pos: { line: line + 1, column: 1 },
          endLine,
        };
        node = code;
        break;
      }
      case K_PARAGRAPH:
        node = { type: "paragraph", text: this.text(line, endLine), pos: { line: line + 1, column: 1 }, endLine };
        break;
      case K_LIST: {
        const items: ListItemNode[] = [];
        const stop = d[o + F_NEXT]!;
        for (let c = b + 1; c < stop; c++) items.push(this.item(c));
        const list: ListNode = { type: "list", ordered: (word & ORDERED) !== 0, children: items, pos: { line: line + 1, column: 1 }, endLine };
        node = list;
        break;
      }
      case K_QUOTE: {
        const parts: string[] = [];
        for (let j = line; j < endLine; j++) {
          const s = this.starts[j]!;
          const skip = s + 1 < this.ends[j]! && this.src.charCodeAt(s + 1) === 32 ? 2 : 1;
          parts.push(this.src.slice(s + skip, this.ends[j]));
        }
        node = { type: "quote", text: parts.join("\n"), pos: { line: line + 1, column: 1 }, endLine };
        break;
      }
      case K_TABLE:
        node = this.tableNode(line, endLine);
        break;
      default:
        node = { type: "thematic_break", pos: { line: line + 1, column: 1 }, endLine };
        break;
    }
    this.nodes.set(b, node);
    return node;
  }

  private item(c: number): ListItemNode {
    const d = this.table.data;
    const j = d[c * STRIDE + F_LINE]!;
    const markerLength = d[c * STRIDE + F_A]!;
    const s = this.starts[j]!;
    const item: ListItemNode = {
      type: "list_item",
      marker: this.src.slice(s, s + markerLength - 1),
      text: this.src.slice(s + markerLength, this.ends[j]),
      pos: { line: j + 1, column: 1 },
      endLine: j + 1,
    };
    this.nodes.set(c, item);
    return item;
  }

  private tableNode(line: number, endLine: number): TableNode {
    const header = splitTableRow(this.line(line));
    const width = header.length;
    const sepAlign = separatorAlign(this.line(line + 1))!;
    const align: TableAlign[] = [];
    for (let k = 0; k < width; k++) align.push(sepAlign[k] ?? null);
    const rows: string[][] = [];
    for (let j = line + 2; j < endLine; j++) {
      const cells = splitTableRow(this.line(j));
      if (cells.length > width) cells.length = width;
      while (cells.length < width) cells.push("");
      rows.push(cells);
    }
    return { type: "table", header, align, rows, pos: { line: line + 1, column: 1 }, endLine };
  }
}

function aliasesOf(attrs: Record<string, AttrValue>): readonly string[] {
  const v = getAttr(attrs, "aliases");
  return v === undefined ? NO_ALIASES : splitAliases(v);
}
