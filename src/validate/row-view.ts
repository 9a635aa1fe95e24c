/**
 * Validation of a document read from its block table (no node tree built): the
 * facts of its blocks, id lookups and duplicate ids, with node objects made only
 * for what a rule or a diagnostic needs to see (a block holding a wikilink, a
 * directive whose children a rule reads, the target of a resolved reference).
 */
import type { AttrValue, BlockNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { getAttr, NO_ALIASES, splitAliases } from "../noma/attributes.js";
import {
  CLOSED,
  F_A,
  F_C,
  F_D,
  F_END,
  F_LINE,
  F_NEXT,
  K_CODE,
  K_DIRECTIVE,
  K_LIST,
  K_LIST_ITEM,
  K_QUOTE,
  K_SECTION,
  K_TABLE,
  K_THEMATIC_BREAK,
  KIND_MASK,
  STRIDE,
} from "../noma/block-table.js";
import { rowAttrs, RowMaterializer } from "../noma/materialize-blocks.js";
import { RowMap } from "../noma/row-map.js";
import { compactParse, type CompactParse } from "../noma/compact-parse.js";
import { MAX_COLONS, parseNoma } from "../noma/parse-noma.js";
import { keepShape } from "../noma/keep-shape.js";
import { IdTable } from "../noma/id-table.js";
import { collectProse, scanLineLinks, type Facts, type Reference, type Wikilink } from "./collect-facts.js";
import type { DirectiveFact } from "./directive-fact.js";

/** Directives nest at most this deep (one colon more per level). */
const MAX_DEPTH = MAX_COLONS;
/** Wikilinks of paragraph lines are counted from line 0: their `rel` is their line number. */
const LINE_ZERO = { pos: { line: 0 } };
/** Target ranges found on a line (scanLineLinks), reused. */
const LINKS: number[] = [];

/** A directive row, read in place. Attributes, aliases and children are read on first use. */
export class RowDirective implements DirectiveFact {
  readonly type = "directive" as const;
  private parsedAttrs: Record<string, AttrValue> | undefined;
  private parsedAliases: readonly string[] | undefined;

  constructor(
    private readonly view: RowView,
    private at: number,
    private theName: string,
    private theId: string | undefined,
    private line: number,
    private end: number,
    private isClosed: boolean,
  ) {}

  /** Read row `row` from now on (a cursor: see `RowView.eachNamed`). */
  moveTo(row: number, name: string, id: string | undefined, line: number, endLine: number, closed: boolean): void {
    this.at = row;
    this.theName = name;
    this.theId = id;
    this.line = line;
    this.end = endLine;
    this.isClosed = closed;
    this.parsedAttrs = undefined;
    this.parsedAliases = undefined;
  }

  get row(): number {
    return this.at;
  }

  get name(): string {
    return this.theName;
  }

  get id(): string | undefined {
    return this.theId;
  }

  get endLine(): number {
    return this.end;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  get pos(): { line: number; column: number } {
    return { line: this.line, column: 1 };
  }

  get attrs(): Record<string, AttrValue> {
    return (this.parsedAttrs ??= this.view.attrs(this.at));
  }

  attr(key: string): AttrValue | undefined {
    return this.parsedAttrs !== undefined ? getAttr(this.parsedAttrs, key) : this.view.attrValue(this.at, key);
  }

  attrValues(keys: readonly string[], out: Array<AttrValue | undefined>): void {
    for (let k = 0; k < keys.length; k++) out[k] = this.attr(keys[k]!);
  }

  get aliases(): readonly string[] {
    if (this.parsedAliases === undefined) {
      const v = this.attr("aliases");
      this.parsedAliases = v === undefined ? NO_ALIASES : splitAliases(v);
    }
    return this.parsedAliases;
  }

  get children(): readonly BlockNode[] {
    return this.view.children(this.at);
  }
}

export class RowView {
  private readonly nodes: RowMaterializer;
  /** The fact of each directive row, once made. */
  private readonly directives: RowMap<RowDirective>;
  /** Directive rows by name index, and the facts of the names asked for. */
  private readonly rowsByName: number[][] = [];
  private readonly factsByName = new Map<string, DirectiveFact[]>();
  /** References and wikilinks that do not resolve, in walk order (after `collect`). */
  readonly brokenRefs: Reference[] = [];
  readonly brokenLinks: Wikilink[] = [];
  /** Wikilinks inside ::memory blocks, resolved or not, in walk order (after `collect`). */
  readonly memoryLinks: Wikilink[] = [];
  /** Where `eachNamed` reads its rows. */
  private cursor: RowDirective | undefined;

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

  /** The id of row `row`, if it has one. */
  private idOf(row: number): string | undefined {
    const slot = this.c.idSlot[row]!;
    return slot === -1 ? undefined : this.doc.ids[slot];
  }

  /** The fact of directive row `row` (made once). */
  private fact(row: number): RowDirective {
    const known = this.directives.get(row);
    if (known !== undefined) return known;
    const d = this.c.table.data;
    const o = row * STRIDE;
    const fact = new RowDirective(this, row, this.c.table.names[d[o + F_C]!]!, this.idOf(row), d[o + F_LINE]! + 1, d[o + F_END]!, (d[o]! & CLOSED) !== 0);
    this.directives.set(row, fact);
    return fact;
  }

  /** Is `target` a canonical id or an alias? */
  resolves(target: string): boolean {
    return this.c.rowById.has(target) || this.doc.aliasMap.has(target);
  }

  /** Is `source[from, to)` a canonical id or an alias? (A string is made only to look up an alias.) */
  private resolvesRange(from: number, to: number): boolean {
    return (
      this.c.rowById.indexOfRange(this.doc.source, from, to) !== -1 || (this.doc.aliasMap.size > 0 && this.doc.aliasMap.has(this.doc.source.slice(from, to)))
    );
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

  /** Keep a wikilink found in a block made into a node: when it does not resolve, or sits in a ::memory block. */
  private keep(link: Wikilink): void {
    if (!this.resolves(link.target)) this.brokenLinks.push(link);
    if (link.owner !== null && link.owner.name === "memory") this.memoryLinks.push(link);
  }

  /**
   * One pass over the rows in walk order: which rows carry each directive name, the
   * references and wikilinks that do not resolve, and the wikilinks inside ::memory
   * blocks — what the rules read of references and wikilinks. The wikilinks of sections,
   * paragraphs, lists and quotes are read off their lines and looked up in place; a table
   * whose source holds "[[" is made into a node to read its rows. Facts and wikilink objects are made only for what a
   * rule reports or reads further.
   */
  collect(): void {
    const { table, index } = this.c;
    const d = table.data;
    const src = this.doc.source;
    const byName = this.rowsByName;
    for (let k = 0; k < table.names.length; k++) byName.push([]);
    const memory = table.names.indexOf("memory");
    // Enclosing directives: rows and where their subtrees end.
    const owners = new Int32Array(MAX_DEPTH + 2);
    const ownerEnds = new Int32Array(MAX_DEPTH + 2);
    let depth = 0;
    // Indexed loops over arrays on this path: a for-of in code V8 has not optimized yet (most
    // of a one-shot run) makes an iterator result object per element.
    const refs = this.c.refs;
    for (let r = 0; r < refs.length; r++) {
      const ref = refs[r]!;
      if (!this.resolves(ref.target)) this.brokenRefs.push({ attr: ref.attr, target: ref.target, node: this.fact(ref.row) });
    }
    const found = LINKS;
    let link = src.indexOf("[[");
    // The first backtick at or after the line being read (a cursor, as `link`).
    let tick = src.indexOf("`");
    // The block being read: its nearest enclosing directive's row (-1: none), and whether that is a ::memory.
    let ownerRow = -1;
    let inMemory = false;
    // The text a node of the block would hold, one line at a time: a section's title, a
    // list item's text after its marker, a quote line after "> ", a paragraph line.
    // Columns count from where that text starts on the line, as they do on the node's text.
    const read = (from: number, to: number, lineNo: number): void => {
      if (tick !== -1 && tick < from) tick = src.indexOf("`", from);
      const n = scanLineLinks(src, from, to, tick, found);
      for (let k = 0; k < n; k += 2) {
        const resolved = this.resolvesRange(found[k]!, found[k + 1]!);
        if (resolved && !inMemory) continue;
        const w: Wikilink = {
          target: src.slice(found[k], found[k + 1]),
          anchor: LINE_ZERO,
          rel: lineNo,
          column: found[k]! - from - 1,
          owner: ownerRow === -1 ? null : this.fact(ownerRow),
        };
        if (!resolved) this.brokenLinks.push(w);
        if (inMemory) this.memoryLinks.push(w);
      }
    };
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
      ownerRow = depth > 0 ? owners[depth - 1]! : -1;
      if (kind === K_TABLE) {
        // A table's wikilinks are read off its rows joined cell by cell (collectProse).
        const sink: Facts = { directives: [], refs: [], wikilinks: [] };
        collectProse(sink, this.node(b), ownerRow === -1 ? null : this.fact(ownerRow));
        for (const w of sink.wikilinks) this.keep(w);
        continue;
      }
      inMemory = ownerRow !== -1 && d[ownerRow * STRIDE + F_C] === memory;
      if (kind === K_SECTION) {
        read(d[o + F_C]!, d[o + F_D]!, line + 1);
        link = src.indexOf("[[", index.starts[line + 1]!);
        continue;
      }
      if (kind === K_LIST) {
        const stop = d[o + F_NEXT]!;
        for (let c = b + 1; c < stop && link !== -1; c++) {
          const j = d[c * STRIDE + F_LINE]!;
          if (link >= index.ends[j]!) continue;
          read(index.starts[j]! + d[c * STRIDE + F_A]!, index.ends[j]!, j + 1);
          link = src.indexOf("[[", index.starts[j + 1]!);
        }
        continue;
      }
      for (let j = line; j < end && link !== -1; j++) {
        const from = index.starts[j]!;
        const to = index.ends[j]!;
        if (link >= to) continue;
        // A quote line's text starts after ">" and one space.
        read(kind === K_QUOTE ? from + (from + 1 < to && src.charCodeAt(from + 1) === 32 ? 2 : 1) : from, to, j + 1);
        link = src.indexOf("[[", index.starts[j + 1]!);
      }
    }
  }

  /**
   * Call `fn` on every directive named `name`, in walk order, with one fact object moved
   * from row to row: for rules that keep nothing of what they are given (the
   * one-directive checks report a diagnostic and let go of the fact).
   */
  eachNamed(name: string, fn: (d: DirectiveFact) => void): void {
    const rows = this.rowsByName[this.c.table.names.indexOf(name)] ?? [];
    const d = this.c.table.data;
    const cursor = (this.cursor ??= new RowDirective(this, -1, name, undefined, 0, 0, false));
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r]!;
      const o = row * STRIDE;
      cursor.moveTo(row, name, this.idOf(row), d[o + F_LINE]! + 1, d[o + F_END]!, (d[o]! & CLOSED) !== 0);
      fn(cursor);
    }
  }

  /**
   * The claims no ::evidence or ::counterevidence points at with for= (by the claim's
   * id or one of its aliases; a for= naming an alias also targets the canonical id), in
   * walk order: EvidenceIndex's answer (the rule's definition), read off the references the
   * parse collected, so that no fact is made for a supported claim.
   */
  unsupportedClaims(): DirectiveFact[] {
    const { table } = this.c;
    const d = table.data;
    const aliasMap = this.doc.aliasMap;
    const evidence = table.names.indexOf("evidence");
    const counter = table.names.indexOf("counterevidence");
    // Targets are strings the parse made: an IdTable hashes them without V8's runtime call (see id-table.ts).
    const targeted = new IdTable<true>();
    const refs = this.c.refs;
    for (let r = 0; r < refs.length; r++) {
      const ref = refs[r]!;
      if (ref.attr !== "for") continue;
      const name = d[ref.row * STRIDE + F_C];
      if (name !== evidence && name !== counter) continue;
      targeted.add(ref.target, true);
      const canonical = aliasMap.size > 0 ? aliasMap.get(ref.target) : undefined;
      if (canonical !== undefined) targeted.add(canonical, true);
    }
    const out: DirectiveFact[] = [];
    const claims = this.rowsByName[table.names.indexOf("claim")] ?? [];
    for (let r = 0; r < claims.length; r++) {
      const row = claims[r]!;
      const id = this.idOf(row);
      if (id !== undefined && targeted.has(id)) continue;
      const claim = this.fact(row);
      if (id === undefined || !claim.aliases.some((a) => targeted.has(a))) out.push(claim);
    }
    return out;
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

keepShape(
  (() => {
    const doc = parseNoma("::a{id=x for=x}\n[[x]]\n::");
    const view = new RowView(doc, compactParse(doc)!);
    view.collect();
    const touch = (d: { attr(k: string): unknown; attrs: unknown; aliases: unknown }): void => {
      void d.attr("id");
      void d.attrs;
      void d.aliases;
    };
    for (const d of view.named("a")) touch(d as never);
    view.eachNamed("a", (d) => touch(d as never));
    view.unsupportedClaims();
    return view;
  })(),
);
