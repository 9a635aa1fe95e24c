/**
 * The Noma validator (§4): a parsed document → Diagnostic[].
 *
 * One pass collects directives, references and wikilinks; the rules then run
 * over those collections, so validation stays linear in the document size.
 * Pure: the clock and dataset-file lookups are injected through options.
 *
 * Suppression: a directive carrying `noverify` silences every diagnostic about
 * itself and its own prose (child directives are blocks of their own);
 * `ignoreRules` silences codes for the whole run (unknown codes produce one
 * `unknown-ignore-rule` info each).
 */
import type { BlockNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { directiveInterior } from "../noma/directive-interior.js";
import { type CompactParse, compactParse } from "../noma/compact-parse.js";
import { sharedWalk, walkBlocks } from "../noma/parse-memo.js";
import { spliceArray } from "../noma/splice-array.js";
import { datasetColumns } from "../noma/dataset-columns.js";
import { compareDiagnostics, type Diagnostic, type Severity } from "./diagnostic.js";
import { parseFormula } from "./parse-formula.js";
import { CONFIDENCE_PROFILES, declaredProfiles, directiveDomain, KNOWN_PROFILES, outOfProfileNames } from "./profiles.js";
import { isRuleCode, RULES, type RuleCode } from "./rule-catalog.js";
import { attrOf, type DirectiveFact } from "./directive-fact.js";
import { collectBlock, type Facts, type Reference, type Wikilink } from "./collect-facts.js";
import { checkDirective, isCheckedDirective } from "./check-directive.js";
import { EvidenceIndex } from "./evidence-index.js";
import { has, isNoverify, parseDate, str } from "./rule-values.js";
import { RowView } from "./row-view.js";
import { keepShape } from "../noma/keep-shape.js";
import { parseNoma } from "../noma/parse-noma.js";
import { firstAfterLine } from "../noma/line-search.js";
import { DEFAULT_STALE_DAYS } from "./default-stale-days.js";

export interface ValidateOptions {
  /** Profile to validate against; overrides the frontmatter's `profile:`/`profiles:`. */
  profile?: string;
  /** Rule codes to silence for this run. */
  ignoreRules?: readonly string[];
  /** Default stale window for citations, in days (documents and blocks may set their own). Default DEFAULT_STALE_DAYS (365). */
  staleDays?: number;
  /** "Now", for stale-citation. Default: the current time. */
  now?: Date;
  /** claim-without-evidence is on unless this is false. */
  requireEvidenceForClaims?: boolean;
  /** Whether a ::dataset's src= can be loaded; when absent, dataset-src-missing is not checked. */
  datasetSrcExists?: (src: string) => boolean;
  /**
   * Remember what this document's blocks contribute (directives, references, wikilinks), so
   * a later validation with `previous: <this document>` takes them over. Costs a little;
   * the diagnostics are the same either way.
   */
  cacheBlockFacts?: boolean;
  /**
   * An earlier state of this document, validated with `cacheBlockFacts`, that shares nodes
   * with it (an incremental re-parse, as the patch engine does): facts of the shared head and
   * tail of the walk are taken over, only the blocks between them are read again.
   */
  previous?: NomaDocument;
  /**
   * Where a reference or wikilink target this document does not define is looked up next
   * (a chapter's book: its other chapters, §2.3): `true` when it resolves there (no
   * broken-reference), else words that finish the broken-reference message after "does
   * not exist" (e.g. " in book.noma.yml"). Asked once per target that does not resolve.
   */
  resolveOutside?: (target: string) => true | string;
}

const DAY_MS = 86_400_000;

/** The document's blocks in walk order, top-level sections taken apart (each followed by what it folds). */
function walkOrder(nodes: readonly BlockNode[], out: BlockNode[]): BlockNode[] {
  for (const n of nodes) {
    out.push(n);
    if (n.type === "section") walkOrder(n.children, out);
  }
  return out;
}

/**
 * The facts of a validated document, with where each block's facts start, so a later
 * document re-parsed from it (sharing a head and a tail of its walk order: `sharedWalk`)
 * takes them over and collects only from the blocks in between.
 */
interface FactsIndex extends Facts {
  /** Blocks in the walk order. */
  count: number;
  /** For block i, the index of its first directive / reference / wikilink (one extra entry: the totals). */
  dirAt: Int32Array;
  refAt: Int32Array;
  linkAt: Int32Array;
  /** Directives by name, once a validation built it. */
  byName?: Map<string, DirectiveFact[]>;
  /** Indexes of the references and wikilinks that do not resolve against these id maps. */
  unresolved?: Unresolved;
  /** How this index was taken over from an earlier one, when it was. */
  splice?: FactsSplice;
  /** Directives with findings of their own (indexes into `directives`), for the options in `key` (see directiveChecks). */
  local?: { key: string; flagged: number[] };
  /** Claims and what targets them (see research). */
  evidence?: EvidenceIndex;
  /** A later index took this one over and may have reused its arrays: nothing in it holds any more. */
  spent: boolean;
}

/** One run of a facts list replaced: [from, oldTo) of the earlier list became [from, newTo). */
interface Run {
  from: number;
  oldTo: number;
  newTo: number;
}

/** What changed between an earlier index and the one taken over from it. */
interface FactsSplice {
  dirs: Run;
  refs: Run;
  links: Run;
  /** The earlier directives of the replaced run. */
  gone: DirectiveFact[];
  /** Whether the earlier index is spent, its state handed over to this one (else it is only read). */
  reused: boolean;
  /** The earlier index's unresolved references, findings of single directives, and evidence index. */
  unresolved: Unresolved | undefined;
  local: FactsIndex["local"];
  evidence: EvidenceIndex | undefined;
}

interface Unresolved {
  nodeById: ReadonlyMap<string, unknown>;
  aliasMap: ReadonlyMap<string, string>;
  refs: number[];
  links: number[];
}

const FACTS = new WeakMap<NomaDocument, FactsIndex>();

/** The facts remembered for `doc`, unless a later index took them over. */
function factsOf(doc: NomaDocument): FactsIndex | undefined {
  const f = FACTS.get(doc);
  return f !== undefined && !f.spent ? f : undefined;
}

/** Offsets of `count` blocks: the earlier ones of the shared head and tail (shifted by `shift`), `mid` between. */
function spliceOffsets(at: Int32Array, count: number, head: number, tail: number, mid: readonly number[], shift: number, reuse: boolean): Int32Array {
  const n = head + mid.length + tail;
  const from = count - tail;
  if (reuse && n === count) {
    for (let k = 0; k < mid.length; k++) at[head + k] = mid[k]!;
    if (shift !== 0) for (let i = from; i <= n; i++) at[i]! += shift;
    return at;
  }
  const out = new Int32Array(n + 1);
  out.set(at.subarray(0, head));
  for (let k = 0; k < mid.length; k++) out[head + k] = mid[k]!;
  for (let k = 0; k <= tail; k++) out[n - tail + k] = at[from + k]! + shift;
  return out;
}

/**
 * The facts of `doc`: those of `previous` for the blocks `doc` shares with it (`shared`),
 * collected anew for the blocks between. With `reuse`, `previous`'s arrays are changed in
 * place where that is cheap (it is spent afterwards).
 */
function indexFacts(doc: NomaDocument, previous: FactsIndex | undefined, shared: { head: number; tail: number } | undefined, reuse: boolean): FactsIndex {
  const blocks = walkBlocks(doc) ?? walkOrder(doc.children, []);
  const n = blocks.length;
  if (previous === undefined || shared === undefined || shared.head + shared.tail > Math.min(n, previous.count)) {
    const out: FactsIndex = {
      count: n,
      directives: [],
      refs: [],
      wikilinks: [],
      dirAt: new Int32Array(n + 1),
      refAt: new Int32Array(n + 1),
      linkAt: new Int32Array(n + 1),
      spent: false,
    };
    for (let i = 0; i < n; i++) {
      out.dirAt[i] = out.directives.length;
      out.refAt[i] = out.refs.length;
      out.linkAt[i] = out.wikilinks.length;
      collectBlock(out, blocks[i]!, null);
    }
    out.dirAt[n] = out.directives.length;
    out.refAt[n] = out.refs.length;
    out.linkAt[n] = out.wikilinks.length;
    return out;
  }
  const { head, tail } = shared;
  const from = previous.count - tail;
  const d0 = previous.dirAt[head]!;
  const r0 = previous.refAt[head]!;
  const l0 = previous.linkAt[head]!;
  // The blocks between, collected with absolute offsets.
  const mid: Facts = { directives: [], refs: [], wikilinks: [] };
  const dirMid: number[] = [];
  const refMid: number[] = [];
  const linkMid: number[] = [];
  for (let i = head; i < n - tail; i++) {
    dirMid.push(d0 + mid.directives.length);
    refMid.push(r0 + mid.refs.length);
    linkMid.push(l0 + mid.wikilinks.length);
    collectBlock(mid, blocks[i]!, null);
  }
  const dirs: Run = { from: d0, oldTo: previous.dirAt[from]!, newTo: d0 + mid.directives.length };
  const refs: Run = { from: r0, oldTo: previous.refAt[from]!, newTo: r0 + mid.refs.length };
  const links: Run = { from: l0, oldTo: previous.linkAt[from]!, newTo: l0 + mid.wikilinks.length };
  const gone = previous.directives.slice(dirs.from, dirs.oldTo);
  const take = <T>(list: T[]): T[] => (reuse ? list : list.slice());
  const out: FactsIndex = {
    count: n,
    directives: spliceArray(take(previous.directives), dirs.from, dirs.oldTo, mid.directives),
    refs: spliceArray(take(previous.refs), refs.from, refs.oldTo, mid.refs),
    wikilinks: spliceArray(take(previous.wikilinks), links.from, links.oldTo, mid.wikilinks),
    dirAt: spliceOffsets(previous.dirAt, previous.count, head, tail, dirMid, dirs.newTo - dirs.oldTo, reuse),
    refAt: spliceOffsets(previous.refAt, previous.count, head, tail, refMid, refs.newTo - refs.oldTo, reuse),
    linkAt: spliceOffsets(previous.linkAt, previous.count, head, tail, linkMid, links.newTo - links.oldTo, reuse),
    splice: { dirs, refs, links, gone, reused: reuse, unresolved: previous.unresolved, local: previous.local, evidence: previous.evidence },
    spent: false,
  };
  if (previous.byName !== undefined) out.byName = spliceByName(previous.byName, gone, mid.directives, out.directives, dirs.from, reuse);
  if (reuse) previous.spent = true;
  return out;
}

/**
 * The earlier name lists with the directives of the changed blocks replaced: the lists of
 * names that occur there (`gone`, `added`) are spliced, every other list is unchanged.
 * In a list, the directives of the shared head come first (`directives[0, head)`: the
 * head's directives, whose lines lie above every other directive's), then the replaced
 * ones, then the shared tail's.
 */
function spliceByName(
  earlier: Map<string, DirectiveFact[]>,
  gone: readonly DirectiveFact[],
  added: readonly DirectiveFact[],
  directives: readonly DirectiveFact[],
  head: number,
  reuse: boolean,
): Map<string, DirectiveFact[]> {
  const byName = reuse ? earlier : new Map(earlier);
  if (gone.length === 0 && added.length === 0) return byName;
  // Lines at or below this one belong to the head.
  const lastHeadLine = head > 0 ? directives[head - 1]!.pos.line : 0;
  const names = new Set<string>();
  for (const d of gone) names.add(d.name);
  for (const d of added) names.add(d.name);
  for (const name of names) {
    const old = byName.get(name) ?? [];
    const lo = firstAfterLine(old, lastHeadLine);
    let removed = 0;
    for (const d of gone) if (d.name === name) removed++;
    const mine: DirectiveFact[] = [];
    for (const d of added) if (d.name === name) mine.push(d);
    const list = spliceArray(reuse ? old : old.slice(), lo, lo + removed, mine);
    if (list.length > 0) byName.set(name, list);
    else byName.delete(name);
  }
  return byName;
}

class Validation {
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
      if (this.options.cacheBlockFacts === true) FACTS.set(this.doc, facts);
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

function parseProblems(v: Validation): void {
  for (const p of v.doc.problems) {
    if (!isRuleCode(p.code)) continue;
    if ((v.options.ignoreRules ?? []).includes(p.code)) continue;
    const d: Diagnostic = { severity: p.severity, code: p.code, message: p.message, pos: { line: p.line, column: p.column ?? 1 } };
    if (p.endLine !== undefined && p.endLine !== p.line) d.endLine = p.endLine;
    v.out.push(d);
  }
}

/**
 * Which references and wikilinks do not resolve, in order. Resolution depends on the
 * targets and on the id maps alone: when this document kept the id maps of the state its
 * facts were taken over from (an incremental re-parse that left every id as it was), the
 * shared head and tail keep their answers and only the blocks between are looked up.
 */
/** Indexes of the references and wikilinks in [refFrom, refTo) and [linkFrom, linkTo) that do not resolve, appended. */
function lookUp(v: Validation, out: Pick<Unresolved, "refs" | "links">, refFrom: number, refTo: number, linkFrom: number, linkTo: number): void {
  for (let k = refFrom; k < refTo; k++) if (!v.resolves(v.refs[k]!.target)) out.refs.push(k);
  for (let k = linkFrom; k < linkTo; k++) if (!v.resolves(v.wikilinks[k]!.target)) out.links.push(k);
}

function unresolvedIndexes(v: Validation): Pick<Unresolved, "refs" | "links"> {
  const { nodeById, aliasMap } = v.doc;
  const facts = v.facts;
  if (facts?.unresolved !== undefined && facts.unresolved.nodeById === nodeById && facts.unresolved.aliasMap === aliasMap) return facts.unresolved;
  const out: Unresolved = { nodeById, aliasMap, refs: [], links: [] };
  const splice = facts?.splice;
  const prev = splice?.unresolved;
  if (splice !== undefined && prev !== undefined && prev.nodeById === nodeById && prev.aliasMap === aliasMap) {
    // Indexes before the replaced run keep their answers, those after it move with it.
    const keep = (old: readonly number[], run: Run, into: number[], head: boolean): void => {
      const shift = run.newTo - run.oldTo;
      for (const k of old) {
        if (head && k < run.from) into.push(k);
        else if (!head && k >= run.oldTo) into.push(k + shift);
      }
    };
    keep(prev.refs, splice.refs, out.refs, true);
    keep(prev.links, splice.links, out.links, true);
    lookUp(v, out, splice.refs.from, splice.refs.newTo, splice.links.from, splice.links.newTo);
    keep(prev.refs, splice.refs, out.refs, false);
    keep(prev.links, splice.links, out.links, false);
  } else {
    lookUp(v, out, 0, v.refs.length, 0, v.wikilinks.length);
  }
  if (facts !== undefined) facts.unresolved = out;
  return out;
}

function duplicateIds(v: Validation): void {
  for (const [id, nodes] of v.duplicates()) {
    const second = nodes[1]!;
    const lines = nodes.map((n) => n.pos.line).join(", ");
    v.report("duplicate-id", `Two or more nodes carry the same canonical id "${id}" (lines ${lines}).`, second);
  }
}

function brokenReferences(v: Validation): void {
  const reported = new Set<string>();
  let brokenRefs: readonly Reference[];
  let brokenLinks: readonly Wikilink[];
  if (v.rows !== undefined) {
    ({ brokenRefs, brokenLinks } = v.rows);
  } else {
    const unresolved = unresolvedIndexes(v);
    brokenRefs = unresolved.refs.map((k) => v.refs[k]!);
    brokenLinks = unresolved.links.map((k) => v.wikilinks[k]!);
  }
  // Each target is looked up outside at most once (a book lookup may parse other chapters).
  const outside = v.options.resolveOutside;
  const elsewhere = new Map<string, true | string>();
  const where = (target: string): true | string => {
    if (outside === undefined) return "";
    let w = elsewhere.get(target);
    if (w === undefined) elsewhere.set(target, (w = outside(target)));
    return w;
  };
  for (const ref of brokenRefs) {
    if (reported.has(ref.target)) continue;
    if (isNoverify(ref.node) || (v.options.ignoreRules ?? []).includes("broken-reference")) continue;
    const w = where(ref.target);
    if (w === true) continue;
    reported.add(ref.target);
    v.report("broken-reference", `${ref.attr}="${ref.target}" on ::${ref.node.name} points at an id that does not exist${w}.`, ref.node);
  }
  for (const link of brokenLinks) {
    if (reported.has(link.target) || isNoverify(link.owner) || (v.options.ignoreRules ?? []).includes("broken-reference")) continue;
    const w = where(link.target);
    if (w === true) continue;
    reported.add(link.target);
    v.report("broken-reference", `[[${link.target}]] points at an id that does not exist${w}.`, null, link.owner, link.anchor.pos.line + link.rel, link.column);
  }
}

function unknownProfiles(v: Validation, declared: string[]): void {
  for (const p of declared) {
    if (!KNOWN_PROFILES.includes(p)) {
      v.report(
        "unknown-profile",
        `Unknown profile "${p}" (known: ${KNOWN_PROFILES.join(", ")}).`,
        null,
        null,
        v.doc.frontmatter !== undefined && v.options.profile === undefined ? 1 : undefined,
      );
    }
  }
}

function outOfProfile(v: Validation, declared: string[]): void {
  const known = declared.filter((p) => KNOWN_PROFILES.includes(p));
  if (known.length === 0) return;
  const excluded = outOfProfileNames(known);
  for (const name of v.names()) {
    if (!excluded.has(name)) continue;
    const what = `::${name} belongs to ${directiveDomain(name)} documents, outside the ${known.join("/")} profile${known.length > 1 ? "s" : ""}.`;
    for (const d of v.named(name)) v.report("out-of-profile-directive", what, d);
  }
}

/**
 * The one-directive rules (check-directive.ts). With a facts index, the directives that had
 * findings are remembered (as indexes into its directives); a validation that took the
 * facts over from an earlier one checks again only those and the directives it collected
 * anew: every other directive is the same node, and its findings (none) the same.
 */
function directiveChecks(v: Validation, declared: readonly string[]): void {
  const needConfidence = declared.some((p) => CONFIDENCE_PROFILES.has(p));
  const facts = v.facts;
  if (v.rows !== undefined) {
    // The checks keep nothing of a directive: one fact object is moved from row to row.
    for (const name of v.names()) if (isCheckedDirective(name)) v.rows.eachNamed(name, (d) => checkDirective(v, d, needConfidence));
    return;
  }
  if (facts === undefined) {
    for (const name of v.names()) if (isCheckedDirective(name)) for (const d of v.named(name)) checkDirective(v, d, needConfidence);
    return;
  }
  const key = JSON.stringify([needConfidence, [...new Set(v.options.ignoreRules ?? [])].sort()]);
  const dirs = facts.directives;
  const flagged: number[] = [];
  const check = (k: number): void => {
    const before = v.out.length;
    checkDirective(v, dirs[k]!, needConfidence);
    if (v.out.length > before) flagged.push(k);
  };
  const splice = facts.splice;
  if (facts.local !== undefined && facts.local.key === key) {
    for (const k of facts.local.flagged) check(k);
  } else if (splice !== undefined && splice.local !== undefined && splice.local.key === key) {
    const { from, oldTo, newTo } = splice.dirs;
    const shift = newTo - oldTo;
    const earlier = splice.local.flagged;
    for (const k of earlier) if (k < from) check(k);
    for (let k = from; k < newTo; k++) check(k);
    for (const k of earlier) if (k >= oldTo) check(k + shift);
  } else {
    for (let k = 0; k < dirs.length; k++) check(k);
  }
  facts.local = { key, flagged };
}

/**
 * claim-without-evidence, as EvidenceIndex defines it. With a facts index the index is kept
 * with the facts and updated from the earlier one's when the facts were taken over (and
 * the ids with them); from the block table, RowView reads the same answer off the parse's
 * references; otherwise an index is built for this validation.
 */
function research(v: Validation): void {
  if (v.options.requireEvidenceForClaims === false) return;
  const report = (c: DirectiveFact): void =>
    v.report("claim-without-evidence", `::claim${c.id !== undefined ? ` "${c.id}"` : ""} has no ::evidence or ::counterevidence pointing at it with for=.`, c);
  const aliasMap = v.doc.aliasMap;
  const facts = v.facts;
  if (v.rows !== undefined) {
    for (const c of v.rows.unsupportedClaims()) report(c);
    return;
  }
  if (facts === undefined) {
    for (const c of EvidenceIndex.build(aliasMap, [...v.named("evidence"), ...v.named("counterevidence")], v.named("claim")).unsupported) report(c);
    return;
  }
  let index = facts.evidence;
  if (index === undefined || index.aliasMap !== aliasMap) {
    const splice = facts.splice;
    const earlier = splice?.evidence;
    if (splice?.reused && earlier !== undefined && earlier.aliasMap === aliasMap) {
      earlier.update(splice.gone, facts.directives.slice(splice.dirs.from, splice.dirs.newTo));
      index = earlier;
    } else {
      index = EvidenceIndex.build(aliasMap, [...v.named("evidence"), ...v.named("counterevidence")], v.named("claim"));
    }
    facts.evidence = index;
  }
  for (const c of index.unsupported) report(c);
}

function staleCitations(v: Validation): void {
  const now = (v.options.now ?? new Date()).getTime();
  const fm = v.doc.frontmatter?.data;
  const fmDays = fm !== null && typeof fm === "object" && !Array.isArray(fm) ? (fm as Record<string, unknown>)["stale_citation_days"] : undefined;
  const docDays = typeof fmDays === "number" ? fmDays : (v.options.staleDays ?? DEFAULT_STALE_DAYS);
  const citations = v.named("citation");
  for (let k = 0; k < citations.length; k++) {
    const c = citations[k]!;
    const accessed = str(attrOf(c, "accessed"));
    if (accessed === undefined) continue;
    const t = parseDate(accessed);
    if (t === null) continue;
    const own = attrOf(c, "stale_after_days");
    const days = typeof own === "number" ? own : docDays;
    const age = Math.floor((now - t) / DAY_MS);
    if (age > days) {
      v.report("stale-citation", `::citation accessed=${accessed} is ${age} days old (stale after ${days} days).`, c);
    }
  }
}

function formulaOf(v: Validation, node: DirectiveFact): string | undefined {
  const attr = attrOf(node, "formula");
  if (attr !== undefined && typeof attr !== "boolean") return String(attr);
  for (const line of directiveInterior(v.doc, node)) {
    const m = /^\s*formula:\s*(.*)$/.exec(line);
    if (m !== null) return m[1]!.trim();
  }
  return undefined;
}

function computed(v: Validation): void {
  const computedNodes = [...v.named("computed_metric"), ...v.named("computed_plot")];
  if (computedNodes.length === 0) return;
  // A formula names a control or a computed block by its id or an alias (§2.2), or by the
  // id with `-` written `_` (a formula identifier cannot hold `-`); `name.attr` names an
  // attribute of the block `name`.
  const controlIds = new Set<string>();
  const computedIds = new Map<string, DirectiveFact>();
  const names = (d: DirectiveFact): string[] => {
    const out = d.id !== undefined ? [d.id, ...d.aliases] : [...d.aliases];
    return [...out, ...out.filter((n) => n.includes("-")).map((n) => n.replace(/-/g, "_"))];
  };
  for (const c of v.named("control")) for (const n of names(c)) controlIds.add(n);
  for (const c of computedNodes) for (const n of names(c)) if (!computedIds.has(n)) computedIds.set(n, c);
  const deps = new Map<DirectiveFact, DirectiveFact[]>();
  for (const node of computedNodes) {
    const formula = formulaOf(v, node);
    if (formula === undefined) {
      v.report("computed-missing-formula", `::${node.name} has no formula= attribute or formula: body line.`, node);
      continue;
    }
    const parsed = parseFormula(formula);
    if (!parsed.ok) {
      v.report("formula-parse-error", `::${node.name} formula "${formula}" is invalid: ${parsed.error}.`, node);
      continue;
    }
    const domain = new Set<string>();
    if (node.name === "computed_plot") {
      // The plot's variable: var= (or variable=, domain_var=, x_var=), a domain="t: 0..10"'s name, else x.
      const domainName = /^\s*([A-Za-z_]\w*)\s*(?:[:=]|in\b)/.exec(str(attrOf(node, "domain")) ?? "")?.[1];
      const declared =
        str(attrOf(node, "var")) ?? str(attrOf(node, "variable")) ?? str(attrOf(node, "domain_var")) ?? str(attrOf(node, "x_var")) ?? domainName ?? "x";
      for (const d of declared.split(/[\s,]+/)) if (d.length > 0) domain.add(d);
    }
    const mine: DirectiveFact[] = [];
    for (const full of parsed.names) {
      const head = full.split(".")[0]!;
      const name = controlIds.has(full) || computedIds.has(full) || domain.has(full) ? full : head;
      if (controlIds.has(name) || domain.has(name)) continue;
      const other = computedIds.get(name);
      if (other !== undefined) {
        mine.push(other);
        continue;
      }
      v.report(
        "computed-unknown-dependency",
        `::${node.name} formula uses "${full}", which is not a ::control, a computed block or a plot-domain variable.`,
        node,
      );
    }
    deps.set(node, mine);
  }
  // Chain depth over computed dependencies, with cycle detection (iterative, no recursion limits).
  const depth = new Map<DirectiveFact, number>();
  const inCycle = new Set<DirectiveFact>();
  const state = new Map<DirectiveFact, 1 | 2>();
  for (const start of deps.keys()) {
    if (state.has(start)) continue;
    const stack: Array<{ node: DirectiveFact; i: number }> = [{ node: start, i: 0 }];
    const path: DirectiveFact[] = [start];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const children = deps.get(top.node) ?? [];
      if (top.i < children.length) {
        const child = children[top.i++]!;
        const s = state.get(child);
        if (s === 1) {
          for (let k = path.indexOf(child); k < path.length; k++) inCycle.add(path[k]!);
        } else if (s === undefined) {
          state.set(child, 1);
          stack.push({ node: child, i: 0 });
          path.push(child);
        }
      } else {
        let d = 0;
        for (const c of children) d = Math.max(d, (depth.get(c) ?? 0) + 1);
        depth.set(top.node, d);
        state.set(top.node, 2);
        stack.pop();
        path.pop();
      }
    }
  }
  for (const node of deps.keys()) {
    if (inCycle.has(node)) {
      v.report("computed-chain-too-deep", `::${node.name} is part of a cycle of computed dependencies.`, node);
    } else if ((depth.get(node) ?? 0) > 2) {
      v.report("computed-chain-too-deep", `::${node.name} depends on a computed chain ${depth.get(node)} levels deep (at most 2).`, node);
    }
  }
}

/** Plots (their datasets are other blocks) and dataset files (read through a callback). */
function plots(v: Validation): void {
  const columnsOf = new Map<DirectiveFact, string[] | null>();
  for (const p of v.named("plot")) {
    const dataset = str(attrOf(p, "dataset"));
    if (!has(p, "data") && dataset === undefined) {
      v.report("plot-missing-data", "::plot has neither data= nor dataset=.", p);
    }
    if (dataset !== undefined) {
      const target = v.resolve(dataset);
      if (target === undefined || target.type !== "directive" || target.name !== "dataset") {
        v.report("plot-unknown-dataset", `::plot dataset="${dataset}" does not name a ::dataset block.`, p);
      } else {
        const column = str(attrOf(p, "column"));
        if (column !== undefined) {
          // Several plots often read one dataset: its columns are read once.
          let columns = columnsOf.get(target);
          if (columns === undefined) columnsOf.set(target, (columns = datasetColumns(directiveInterior(v.doc, target), str(attrOf(target, "format")))));
          if (columns !== null && !columns.includes(column)) {
            v.report("plot-unknown-column", `::plot column="${column}" is not a column of dataset "${dataset}" (columns: ${columns.join(", ")}).`, p);
          }
        }
      }
    }
    const data = str(attrOf(p, "data"));
    const labels = str(attrOf(p, "xlabels"));
    if (data !== undefined && labels !== undefined) {
      const style = (s: string): "comma" | "space" | null => (s.includes(",") ? "comma" : /\S\s+\S/.test(s.trim()) ? "space" : null);
      const a = style(data);
      const b = style(labels);
      if (a !== null && b !== null && a !== b) {
        v.report("plot-mixed-delimiters", "::plot mixes comma-separated and space-separated values in data= and xlabels=; use commas throughout.", p);
      }
    }
  }
  const exists = v.options.datasetSrcExists;
  if (exists !== undefined) {
    for (const d of v.named("dataset")) {
      const src = str(attrOf(d, "src"));
      if (src !== undefined && !exists(src)) v.report("dataset-src-missing", `::dataset src="${src}" cannot be loaded.`, d);
    }
  }
}

/** Wikilinks inside a ::memory block must point at ::memory blocks. */
function memoryLinks(v: Validation): void {
  if (v.named("memory").length === 0) return;
  for (const link of v.rows !== undefined ? v.rows.memoryLinks : v.wikilinks) {
    if (link.owner === null || link.owner.name !== "memory") continue;
    const target = v.resolve(link.target);
    if (target !== undefined && !(target.type === "directive" && target.name === "memory")) {
      v.report(
        "memory-wikilink-non-memory-target",
        `[[${link.target}]] inside a ::memory block points at a ${target.type === "directive" ? `::${target.name}` : "section"}, not a ::memory block.`,
        null,
        link.owner,
        link.anchor.pos.line + link.rel,
        link.column,
      );
    }
  }
}

keepShape(new Validation(parseNoma("::a\n::"), {}));

/** Validate a parsed document. Diagnostics come back sorted by position. */
export function validateNoma(doc: NomaDocument, options: ValidateOptions = {}): Diagnostic[] {
  const v = new Validation(doc, options);
  v.collect();
  const declared = declaredOf(doc, options);
  parseProblems(v);
  duplicateIds(v);
  brokenReferences(v);
  unknownProfiles(v, declared);
  outOfProfile(v, declared);
  directiveChecks(v, declared);
  research(v);
  staleCitations(v);
  computed(v);
  plots(v);
  memoryLinks(v);
  return finishDiagnostics(v.out, options);
}

function declaredOf(doc: NomaDocument, options: ValidateOptions): string[] {
  return options.profile !== undefined ? [options.profile] : declaredProfiles(doc.frontmatter?.data);
}

/**
 * The diagnostics of `doc` that its parse and frontmatter decide alone, whatever its blocks
 * hold: the parse's problems, duplicate ids and unknown profiles (unsorted; see
 * RULE_READS). Nothing is collected from the blocks.
 */
export function documentLevelDiagnostics(doc: NomaDocument, options: ValidateOptions = {}): Diagnostic[] {
  const v = new Validation(doc, options);
  parseProblems(v);
  duplicateIds(v);
  unknownProfiles(v, declaredOf(doc, options));
  return v.out;
}

/** A validation's diagnostics in their order: sorted by position, the notes on ignored codes this validator does not know first. */
export function finishDiagnostics(out: Diagnostic[], options: ValidateOptions): Diagnostic[] {
  out.sort(compareDiagnostics);
  for (const code of new Set(options.ignoreRules ?? [])) {
    if (!isRuleCode(code)) {
      out.unshift({ severity: "info", code: "unknown-ignore-rule", message: `--ignore-rule "${code}" is not a rule this validator knows; it has no effect.` });
    }
  }
  return out;
}

/**
 * Whether validating `doc` reads the clock: only stale-citation does, for a ::citation
 * with an accessed= date. When false, the diagnostics depend on the document and the
 * (clock-free) options alone.
 */
export function validationReadsClock(doc: NomaDocument): boolean {
  const facts = factsOf(doc);
  const compact = facts === undefined ? compactParse(doc) : undefined;
  if (compact !== undefined) return new RowView(doc, compact).anyWithAttr("citation", "accessed");
  const directives =
    facts?.byName !== undefined
      ? (facts.byName.get("citation") ?? [])
      : facts !== undefined
        ? facts.directives
        : (() => {
            const sink: Facts = { directives: [], refs: [], wikilinks: [] };
            for (const node of walkOrder(doc.children, [])) collectBlock(sink, node, null);
            return sink.directives;
          })();
  return directives.some((d) => d.name === "citation" && attrOf(d, "accessed") !== undefined);
}
