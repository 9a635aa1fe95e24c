/**
 * One run of the validator (validate-noma.ts) over one document: its options, the facts the
 * rules read (from the facts index, from the block table read in place, or collected from
 * the tree), how ids resolve, and where the rules (rules/) report.
 *
 * Suppression: a directive carrying `noverify` silences every diagnostic about itself and
 * its own prose (child directives are blocks of their own); `ignoreRules` silences codes for
 * the whole run.
 */
import type { NomaDocument, SectionNode } from "../noma/ast.js";
import { type CompactParse, compactParse } from "../noma/compact-parse.js";
import { sharedWalk, walkBlocks } from "../noma/parse-memo.js";
import { keepShape } from "../noma/keep-shape.js";
import { parseNoma } from "../noma/parse-noma.js";
import type { Diagnostic, Severity } from "./diagnostic.js";
import { RULES, type RuleCode } from "./rule-catalog.js";
import type { DirectiveFact } from "./directive-fact.js";
import { collectBlock, type Reference, type Wikilink } from "./collect-facts.js";
import { isNoverify } from "./rule-values.js";
import { RowView } from "./row-view.js";
import { type FactsIndex, factsOf, indexFacts, rememberFacts } from "./facts-index.js";
import type { ValidateOptions } from "./validate-options.js";
import { walkOrder } from "./walk-order.js";

export class Validation {
  readonly out: Diagnostic[] = [];
  directives: DirectiveFact[] = [];
  byName = new Map<string, DirectiveFact[]>();
  /** The facts index this validation reads (remembered facts only). */
  facts: FactsIndex | undefined;
  refs: Reference[] = [];
  wikilinks: Wikilink[] = [];
  /** The block table read in place (a fresh parse, no tree built, no facts to remember). */
  readonly compact: CompactParse | undefined;
  private rowView: RowView | undefined;
  private readonly ignored: Set<string>;

  constructor(
    readonly doc: NomaDocument,
    readonly options: ValidateOptions,
  ) {
    this.ignored = new Set(options.ignoreRules ?? []);
    this.compact = options.previous === undefined && options.cacheBlockFacts !== true ? compactParse(doc) : undefined;
  }

  /** Reading the block table in place, when the validation does (made on first use). */
  get rows(): RowView | undefined {
    return this.compact === undefined ? undefined : (this.rowView ??= new RowView(this.doc, this.compact));
  }

  report(
    code: RuleCode,
    message: string,
    node: DirectiveFact | SectionNode | null,
    owner: DirectiveFact | null = node?.type === "directive" ? node : null,
    line?: number,
    column?: number,
  ): void {
    if (this.ignored.has(code) || isNoverify(owner)) return;
    const d: Diagnostic = { severity: RULES[code].severity as Severity, code, message };
    const l = line ?? node?.pos.line;
    if (l !== undefined) d.pos = { line: l, column: column ?? 1 };
    if (node !== null) {
      if (node.id !== undefined) d.nodeId = node.id;
      if (line === undefined && node.endLine !== node.pos.line) d.endLine = node.endLine;
    }
    this.out.push(d);
  }

  /** Is `target` a canonical id or an alias? */
  resolves(target: string): boolean {
    if (this.rows !== undefined) return this.rows.resolves(target);
    return this.doc.nodeById.has(target) || this.doc.aliasMap.has(target);
  }

  /** The node `target` names (canonical id first, then alias). */
  resolve(target: string): SectionNode | DirectiveFact | undefined {
    if (this.rows !== undefined) return this.rows.resolve(target);
    const direct = this.doc.nodeById.get(target);
    if (direct !== undefined) return direct;
    const canonical = this.doc.aliasMap.get(target);
    return canonical !== undefined ? this.doc.nodeById.get(canonical) : undefined;
  }

  collect(): void {
    const from = this.options.previous;
    let facts: FactsIndex | undefined;
    if (from !== undefined && from === this.doc) {
      // The same document again: everything it holds is as collected.
      facts = factsOf(from);
    }
    if (facts === undefined && (this.options.cacheBlockFacts === true || from !== undefined)) {
      const earlier = from !== undefined && from !== this.doc ? factsOf(from) : undefined;
      const shared = earlier !== undefined ? sharedWalk(this.doc, from!) : undefined;
      // The earlier facts are taken over in place only when these are remembered instead.
      facts = indexFacts(this.doc, earlier, shared, this.options.cacheBlockFacts === true);
      if (this.options.cacheBlockFacts === true) rememberFacts(this.doc, facts);
    }
    this.facts = facts;
    if (facts === undefined && this.rows !== undefined) {
      this.rows.collect();
      return;
    }
    if (facts === undefined) {
      for (const node of walkBlocks(this.doc) ?? walkOrder(this.doc.children, [])) collectBlock(this, node, null);
    } else {
      this.directives = facts.directives;
      this.refs = facts.refs;
      this.wikilinks = facts.wikilinks;
      if (facts.byName !== undefined) {
        this.byName = facts.byName;
        return;
      }
      facts.byName = this.byName;
    }
    for (const node of this.directives) {
      const list = this.byName.get(node.name);
      if (list === undefined) this.byName.set(node.name, [node]);
      else list.push(node);
    }
  }

  /** Ids carried by more than one block, with every such block in order. */
  duplicates(): Iterable<[string, ReadonlyArray<DirectiveFact | SectionNode>]> {
    if (this.compact !== undefined && this.compact.duplicateRows.size === 0) return [];
    return this.rows !== undefined ? this.rows.duplicates() : this.doc.duplicateIds;
  }

  /** The names of the document's directives. */
  names(): Iterable<string> {
    return this.rows !== undefined ? this.rows.names() : this.byName.keys();
  }

  named(name: string): DirectiveFact[] {
    if (this.rows !== undefined) return this.rows.named(name);
    return this.byName.get(name) ?? [];
  }
}

keepShape(new Validation(parseNoma("::a\n::"), {}));
