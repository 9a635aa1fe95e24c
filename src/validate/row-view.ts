/**
 * Validation of a document read from its block table (no node tree built): the
 * facts of its blocks, id lookups and duplicate ids, with node objects made only
 * for what a rule or a diagnostic needs to see (a block holding a wikilink, a
 * directive whose children a rule reads, the target of a resolved reference).
 */
import type { AttrValue, BlockNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { getAttr, NO_ALIASES, splitAliases } from "../noma/attributes.js";
import { CLOSED, F_C, F_D, F_END, F_LINE, F_NEXT, K_CODE, K_DIRECTIVE, K_LIST_ITEM, K_PARAGRAPH, K_SECTION, K_THEMATIC_BREAK, KIND_MASK, STRIDE } from "../noma/block-table.js";
import { rowAttrs, RowMaterializer } from "../noma/materialize-blocks.js";
import { RowMap } from "../noma/row-map.js";
import { compactParse, MAX_COLONS, parseNoma, type CompactParse } from "../noma/parse-noma.js";
import { keepShape } from "../noma/keep-shape.js";
import { collectLineLinks, collectProse, type Facts } from "./collect-facts.js";
import type { DirectiveFact } from "./directive-fact.js";

/** Directives nest at most this deep (one colon more per level). */
const MAX_DEPTH = MAX_COLONS;
/** Wikilinks of paragraph lines are counted from line 0: their `rel` is their line number. */
const LINE_ZERO = { pos: { line: 0 } };

/** A directive row, read in place. Attributes, aliases and children are read on first use. */
export class RowDirective implements DirectiveFact {
  readonly type = "directive" as const;
  private parsedAttrs: Record<string, AttrValue> | undefined;
  private parsedAliases: readonly string[] | undefined;

  constructor(
    private readonly view: RowView,
    readonly row: number,
    readonly name: string,
    readonly id: string | undefined,
    private readonly line: number,
    readonly endLine: number,
    readonly closed: boolean,
  ) {}

  get pos(): { line: number; column: number } {
    return { line: this.line, column: 1 };
  }

  get attrs(): Record<string, AttrValue> {
    return (this.parsedAttrs ??= this.view.attrs(this.row));
  }

  attr(key: string): AttrValue | undefined {
    return this.parsedAttrs !== undefined ? getAttr(this.parsedAttrs, key) : this.view.attrValue(this.row, key);
  }

  attrValues(keys: readonly string[], out: Array<AttrValue | undefined>): void {
    for (let k = 0; k < keys.length; k++) out[k] = this.attr(keys[k]!);
  }

  get aliases(): readonly string[] {
    if (this.parsedAliases === undefined) {
      const v = getAttr(this.attrs, "aliases");
      this.parsedAliases = v === undefined ? NO_ALIASES : splitAliases(v);
    }
    return this.parsedAliases;
  }

  get children(): readonly BlockNode[] {
    return this.view.children(this.row);
  }
}

export class RowView {
  private readonly nodes: RowMaterializer;
  /** The fact of each directive row, once made. */
  private readonly directives: RowMap<RowDirective>;
  /** Directive rows by name index, and the facts of the names asked for. */
  private readonly rowsByName: number[][] = [];
  private readonly factsByName = new Map<string, DirectiveFact[]>();

  constructor(
    private readonly doc: NomaDocument,
    private readonly c: CompactParse,
  ) {
    this.nodes = new RowMaterializer(c.table, doc.source, c.index.starts, c.index.ends, { idSlot: c.idSlot, ids: doc.ids });
    this.directives = new RowMap<RowDirective>(c.table.count);
  }

  attrs(row: number): Record<string, AttrValue> {
    return rowAttrs(this.c.table, this.doc.source, row);
  }

  /** Attribute `key` of directive row `row`, from the tokens the parse kept. */
  attrValue(row: number, key: string): AttrValue | undefined {
    const first = this.c.table.data[row * STRIDE + F_D]!;
    return first === -1 ? undefined : this.c.tokens.value(this.doc.source, first, key);
  }

  /** The node of `row` (and its subtree), made once. */
  node(row: number): BlockNode {
    return (this.nodes.nodes.get(row) as BlockNode | undefined) ?? this.nodes.block(row);
  }

  children(row: number): readonly BlockNode[] {
    const n = this.node(row);
    return n.type === "directive" ? n.children : [];
  }

  /** A directive row's fact, a section row's node. */
  private target(row: number): DirectiveFact | SectionNode {
    return (this.c.table.data[row * STRIDE]! & KIND_MASK) === K_DIRECTIVE ? this.fact(row) : (this.node(row) as SectionNode);
  }

  /** The fact of directive row `row` (made once). */
  private fact(row: number): RowDirective {
    const known = this.directives.get(row);
    if (known !== undefined) return known;
    const d = this.c.table.data;
    const o = row * STRIDE;
    const word = d[o]!;
    const slot = this.c.idSlot[row]!;
    const fact = new RowDirective(this, row, this.c.table.names[d[o + F_C]!]!, slot === -1 ? undefined : this.doc.ids[slot], d[o + F_LINE]! + 1, d[o + F_END]!, (word & CLOSED) !== 0);
    this.directives.set(row, fact);
    return fact;
  }

  /** Is `target` a canonical id or an alias? */
  resolves(target: string): boolean {
    return this.c.rowById.has(target) || this.doc.aliasMap.has(target);
  }

  /** The block `target` names (canonical id first, then alias). */
  resolve(target: string): DirectiveFact | SectionNode | undefined {
    let row = this.c.rowById.get(target);
    if (row === undefined) {
      const canonical = this.doc.aliasMap.get(target);
      if (canonical !== undefined) row = this.c.rowById.get(canonical);
    }
    return row === undefined ? undefined : this.target(row);
  }

  /** Ids carried by more than one block, with every such block in order. */
  *duplicates(): Iterable<[string, Array<DirectiveFact | SectionNode>]> {
    for (const [id, rows] of this.c.duplicateRows) yield [id, rows.map((r) => this.target(r))];
  }

  /**
   * References and wikilinks in walk order (the table's row order), and which rows
   * carry each directive name. A paragraph's wikilinks are read off its lines; other
   * blocks whose source holds "[[" are made into nodes to read theirs. Directive facts
   * are made only for what needs one: a reference's source, a wikilink's owner, a
   * directive a rule asks for by name.
   */
  collect(sink: Facts): void {
    const { table, index } = this.c;
    const d = table.data;
    const src = this.doc.source;
    const byName = this.rowsByName;
    for (let k = 0; k < table.names.length; k++) byName.push([]);
    // Enclosing directives: rows and where their subtrees end.
    const owners = new Int32Array(MAX_DEPTH + 2);
    const ownerEnds = new Int32Array(MAX_DEPTH + 2);
    let depth = 0;
    for (const ref of this.c.refs) sink.refs.push({ attr: ref.attr, target: ref.target, node: this.fact(ref.row) });
    let link = src.indexOf("[[");
    for (let b = 0; b < table.count; b++) {
      while (depth > 0 && ownerEnds[depth - 1]! <= b) depth--;
      const o = b * STRIDE;
      const word = d[o]!;
      const kind = word & KIND_MASK;
      if (kind === K_DIRECTIVE) {
        byName[d[o + F_C]!]!.push(b);
        owners[depth] = b;
        ownerEnds[depth++] = d[o + F_NEXT]!;
        continue;
      }
      if (link === -1 || kind === K_LIST_ITEM || kind === K_CODE || kind === K_THEMATIC_BREAK) continue;
      const line = d[o + F_LINE]!;
      // A section's wikilinks are in its title; any other block's in its lines.
      const end = kind === K_SECTION ? line + 1 : d[o + F_END]!;
      if (link < index.starts[line]!) {
        link = src.indexOf("[[", index.starts[line]!);
        if (link === -1) continue;
      }
      if (link >= index.ends[end - 1]!) continue;
      const owner = depth > 0 ? this.fact(owners[depth - 1]!) : null;
      if (kind !== K_PARAGRAPH) {
        collectProse(sink, this.node(b), owner);
        continue;
      }
      for (let j = line; j < end && link !== -1; j++) {
        if (link >= index.ends[j]!) continue;
        if (link >= index.starts[j]!) collectLineLinks(sink, src.slice(index.starts[j], index.ends[j]), LINE_ZERO, j + 1, owner);
        link = src.indexOf("[[", index.starts[j + 1]!);
      }
    }
  }

  /** The names of the directives collected, in first-seen order. */
  names(): string[] {
    const out: string[] = [];
    for (let k = 0; k < this.rowsByName.length; k++) if (this.rowsByName[k]!.length > 0) out.push(this.c.table.names[k]!);
    return out;
  }

  /** The directives named `name`, in walk order (after `collect`). */
  named(name: string): DirectiveFact[] {
    let list = this.factsByName.get(name);
    if (list === undefined) {
      const rows = this.rowsByName[this.c.table.names.indexOf(name)] ?? [];
      list = rows.map((r) => this.fact(r));
      this.factsByName.set(name, list);
    }
    return list;
  }

  /** Does any directive named `name` carry attribute `key`? */
  anyWithAttr(name: string, key: string): boolean {
    const { table } = this.c;
    const nameIndex = table.names.indexOf(name);
    if (nameIndex === -1) return false;
    const d = table.data;
    for (let b = 0; b < table.count; b++) {
      const o = b * STRIDE;
      if ((d[o]! & KIND_MASK) === K_DIRECTIVE && d[o + F_C] === nameIndex && getAttr(this.attrs(b), key) !== undefined) return true;
    }
    return false;
  }
}

keepShape((() => {
  const doc = parseNoma("::a{id=x for=x}\n[[x]]\n::");
  const view = new RowView(doc, compactParse(doc)!);
  view.collect({ directives: [], refs: [], wikilinks: [] });
  for (const d of view.named("a")) void (d.attr!("id"), d.attrs, d.aliases);
  return view;
})());
