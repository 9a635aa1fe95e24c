/**
 * The incremental facts index of the validator: what each block of a validated document
 * contributes (directives, references, wikilinks), with where each block's facts start, and
 * what the rules derived from them (directives by name, unresolved references, findings of
 * single directives, the evidence index). A document re-parsed from a remembered one takes
 * the facts of their shared head and tail over and collects only the blocks between
 * (ValidateOptions' `cacheBlockFacts` and `previous`).
 */
import type { NomaDocument } from "../noma/ast.js";
import { walkBlocks } from "../noma/parse-memo.js";
import { spliceArray } from "../noma/splice-array.js";
import { firstAfterLine } from "../noma/line-search.js";
import type { DirectiveFact } from "./directive-fact.js";
import { collectBlock, type Facts } from "./collect-facts.js";
import type { EvidenceIndex } from "./evidence-index.js";
import { walkOrder } from "./walk-order.js";

/**
 * The facts of a validated document, with where each block's facts start, so a later
 * document re-parsed from it (sharing a head and a tail of its walk order: `sharedWalk`)
 * takes them over and collects only from the blocks in between.
 */
export interface FactsIndex extends Facts {
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
  /** Directives with findings of their own (indexes into `directives`), for the options in `key` (see rules/directive-checks.ts). */
  local?: { key: string; flagged: number[] };
  /** Claims and what targets them (see rules/claims-without-evidence.ts). */
  evidence?: EvidenceIndex;
  /** A later index took this one over and may have reused its arrays: nothing in it holds any more. */
  spent: boolean;
}

/** One run of a facts list replaced: [from, oldTo) of the earlier list became [from, newTo). */
export interface Run {
  from: number;
  oldTo: number;
  newTo: number;
}

/** What changed between an earlier index and the one taken over from it. */
export interface FactsSplice {
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

export interface Unresolved {
  nodeById: ReadonlyMap<string, unknown>;
  aliasMap: ReadonlyMap<string, string>;
  refs: number[];
  links: number[];
}

const FACTS = new WeakMap<NomaDocument, FactsIndex>();

/** The facts remembered for `doc`, unless a later index took them over. */
export function factsOf(doc: NomaDocument): FactsIndex | undefined {
  const f = FACTS.get(doc);
  return f !== undefined && !f.spent ? f : undefined;
}

/** Remember `facts` for `doc`, for a later validation of it or of a document re-parsed from it. */
export function rememberFacts(doc: NomaDocument, facts: FactsIndex): void {
  FACTS.set(doc, facts);
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
export function indexFacts(
  doc: NomaDocument,
  previous: FactsIndex | undefined,
  shared: { head: number; tail: number } | undefined,
  reuse: boolean,
): FactsIndex {
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
