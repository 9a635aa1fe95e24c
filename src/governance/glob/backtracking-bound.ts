/**
 * Which glob expressions V8's backtracking engine runs in time linear in the path: a bound,
 * computed from the expression's tree (regex-syntax.ts: what V8 will run, whatever glob
 * text built it), on the number of ways its search can reach one point of the expression at
 * one position of the input. A backtracking engine that fails explores every such way once
 * (a success stops sooner); each costs it a fixed amount of work (a character compared, a
 * choice pushed or popped, a look-around of bounded length answered). So when every point of
 * the expression is reached at every input position by at most `B` ways, a test costs at most
 * c · B · |expression| · (n + 1) for a path of n characters: linear in the path.
 *
 * The bound follows the search through the tree with four figures for the positions reached
 * at a point, over every input (a "run" is a stretch of the input with no `/` in it, so the
 * positions p ≤ i are in one run when input[p..i) holds no `/`):
 *   paths     the most ways to reach one position
 *   perRun    the most positions reached within one run
 *   runs      the most runs holding a reached position
 *   runStarts every reached position is 0 or follows a `/` (so one per run)
 * and the rules, per node (∞ = unbounded):
 *   one character of a set without `/`  every position moves on by one, within its run: the same figures
 *   `/` alone                            only positions after a `/`: perRun 1, runStarts
 *   a set with `/` and more              perRun + 1, runs × 2 (a run gains the start of the next)
 *   `^` / `$`                            position 0 / position n only: perRun 1, runs 1
 *   a look-around                        only picomatch's four, each a fixed test of at most four
 *                                        characters (atomic in V8: nothing inside is retried); others: outside
 *   a sequence                           the rules in turn
 *   an alternation                       the ways add up (paths, perRun and runs summed; one per
 *                                        run if every branch ends at run starts); when every branch is a
 *                                        fixed string of slash-free sets and no two can match at one
 *                                        position, one branch at most matches from each position, so a
 *                                        position is reached from at most min(distinct widths, perRun)
 *                                        positions: paths × that, perRun and runs unchanged
 *   `x?`, `x{m,n}` (n ≤ 8)               the alternation of the unrolled copies
 *   `s*`, `s+` of a slash-free set s     a position is reached from every reached position
 *                                        before it in its run: paths × perRun, perRun ∞; needs perRun finite
 *   `(?:(?!…).)*` and other repeated     from every reached position before it: paths × perRun × runs,
 *   one-character sets with `/`          perRun and runs ∞; needs both finite
 *   anything else repeated               outside (extglobs `*(…)`, `+(…)`: repeated groups)
 * The bound B is the largest `paths` met anywhere; an expression is in the subset when B ≤
 * MAX_BACKTRACKING_PATHS.
 *
 * What this admits and refuses, in glob terms: a segment holds at most one `*` (`*a*b` has a
 * second star reached from every position of the run: n² ways); the whole glob at most one
 * `**` (a second one is reached from every position of the path); brace alternations and
 * classes multiply the ways by at most their distinct widths, and the product must stay ≤ the
 * maximum (`{a,ba}*`… repeated over segments doubles per segment: refused past five); no
 * extglob, no negated extglob, no `!` negation (their look-arounds are not among the four).
 * Why the rules are sound, and measurements with names of 100,000 characters:
 * docs/perf/glob.md.
 */
import type { CharSet } from "./char-set.js";
import type { RegexNode } from "./regex-syntax.js";

/** The most ways one point of the expression may be reached at one input position. */
export const MAX_BACKTRACKING_PATHS = 32;

/** picomatch's look-arounds for a glob without extglobs or negation (dot: true), by source text. */
const BOUNDED_LOOKS = new Set(["(?!(?:^|\\/)\\.{1,2}(?:\\/|$))", "(?!\\.{1,2}(?:\\/|$))", "(?!\\.{0,1}(?:\\/|$))", "(?=.)"]);

/** The longest finitely bounded repetition unrolled. */
const MAX_UNROLL = 8;

const SLASH = 0x2f;

interface Reach {
  paths: number;
  perRun: number;
  runs: number;
  runStarts: boolean;
  /** Every reached position is n (after a `$`). */
  atEnd: boolean;
}

/**
 * The bound B of the module comment for `tree` (an expression V8 runs without flags), or
 * Infinity when the expression is outside the subset.
 */
export function backtrackingBound(tree: RegexNode): number {
  let peak = 1;
  const seen = (r: Reach): Reach => {
    if (r.paths > peak) peak = r.paths;
    return r;
  };

  const go = (node: RegexNode, r: Reach): Reach | null => {
    switch (node.t) {
      case "set": {
        // After `$` nothing is read: the (empty) set of positions stays "at the end".
        if (!node.set.has(SLASH)) return { ...r, runStarts: false };
        if (node.set.only() === SLASH) return { ...r, perRun: 1, runStarts: true };
        return { paths: r.paths, perRun: r.perRun + 1, runs: r.runs * 2, runStarts: false, atEnd: r.atEnd };
      }
      case "bol":
        return { paths: r.paths, perRun: 1, runs: 1, runStarts: true, atEnd: false };
      case "eol":
        return { paths: r.paths, perRun: 1, runs: 1, runStarts: false, atEnd: true };
      case "word-boundary":
        return r;
      case "look":
        return BOUNDED_LOOKS.has(node.key) ? r : null;
      case "seq": {
        let cur: Reach | null = r;
        for (const item of node.items) {
          cur = go(item, cur);
          if (cur === null) return null;
          seen(cur);
        }
        return cur;
      }
      case "alt":
        return alternation(node.alts, r);
      case "rep":
        return repetition(node, r);
    }
  };

  const alternation = (alts: readonly RegexNode[], r: Reach): Reach | null => {
    const fixed = fixedBranches(alts);
    if (fixed !== null) {
      const paths = r.paths * Math.min(fixed.endings, r.perRun * fixed.sameWidth);
      return seen({ paths, perRun: r.perRun * fixed.fanOut, runs: r.runs, runStarts: false, atEnd: false });
    }
    let paths = 0;
    let perRun = 0;
    let runs = 0;
    let starts = 0;
    let ends = 0;
    for (const alt of alts) {
      const out = go(alt, r);
      if (out === null) return null;
      seen(out);
      paths += out.paths;
      runs += out.runs;
      // Positions at run starts are one per run, however many branches reach them; position n is one.
      if (out.runStarts) starts = 1;
      else if (out.atEnd) ends = 1;
      else perRun += out.perRun;
    }
    return seen({ paths, perRun: perRun + starts + ends, runs, runStarts: perRun + ends === 0, atEnd: perRun + starts === 0 });
  };

  const repetition = (node: Extract<RegexNode, { t: "rep" }>, r: Reach): Reach | null => {
    if (node.max !== Number.POSITIVE_INFINITY) {
      if (node.max > MAX_UNROLL) return null;
      // x{m,n}: m copies, then n − m optional copies in turn (more ways than the engine's nested choices: an upper bound).
      let cur: Reach | null = r;
      for (let k = 0; k < node.max && cur !== null; k++) cur = k < node.min ? go(node.body, cur) : alternation([{ t: "seq", items: [] }, node.body], cur);
      return cur === null ? null : seen(cur);
    }
    if (node.min > 1) return null;
    const set = oneCharacterSet(node.body);
    if (set === null) return null;
    if (!set.has(SLASH)) {
      if (r.perRun === Number.POSITIVE_INFINITY) return null;
      return seen({ paths: r.paths * r.perRun, perRun: Number.POSITIVE_INFINITY, runs: r.runs, runStarts: false, atEnd: r.atEnd });
    }
    const reached = r.perRun * r.runs;
    if (reached === Number.POSITIVE_INFINITY) return null;
    return seen({ paths: r.paths * reached, perRun: Number.POSITIVE_INFINITY, runs: Number.POSITIVE_INFINITY, runStarts: false, atEnd: r.atEnd });
  };

  const out = go(tree, { paths: 1, perRun: 1, runs: 1, runStarts: true, atEnd: false });
  return out === null ? Number.POSITIVE_INFINITY : peak;
}

/** The set a repeated body reads, when the body reads exactly one character (beside bounded look-arounds), else null. */
function oneCharacterSet(body: RegexNode): CharSet | null {
  if (body.t === "set") return body.set;
  if (body.t !== "seq") return null;
  let set: CharSet | null = null;
  for (const item of body.items) {
    if (item.t === "look" && BOUNDED_LOOKS.has(item.key)) continue;
    if (item.t !== "set" || set !== null) return null;
    set = item.set;
  }
  return set;
}

/**
 * When every branch is a non-empty sequence of slash-free one-character sets (a brace
 * alternation of literals, a class beside its literal text): how many branches may end at one
 * position (`endings`: per width, one when the branches of that width are pairwise apart — some
 * place where their sets share nothing — else their count; summed over widths), the most of
 * one width (`sameWidth`), and how many positions one start may reach (`fanOut`: one when all
 * branches are pairwise apart, else the number of widths). Else null.
 */
function fixedBranches(alts: readonly RegexNode[]): { endings: number; sameWidth: number; fanOut: number } | null {
  const byWidth = new Map<number, CharSet[][]>();
  for (const alt of alts) {
    const items = alt.t === "seq" ? alt.items : [alt];
    if (items.length === 0) return null;
    const sets: CharSet[] = [];
    for (const item of items) {
      if (item.t !== "set" || item.set.has(SLASH)) return null;
      sets.push(item.set);
    }
    const same = byWidth.get(sets.length);
    if (same === undefined) byWidth.set(sets.length, [sets]);
    else same.push(sets);
  }
  let endings = 0;
  let sameWidth = 0;
  for (const branches of byWidth.values()) {
    const n = pairwiseApart(branches) ? 1 : branches.length;
    endings += n;
    sameWidth = Math.max(sameWidth, n);
  }
  return { endings, sameWidth, fanOut: pairwiseApart([...byWidth.values()].flat()) ? 1 : byWidth.size };
}

/** No two of the sequences can both match from one position: each pair has a place (within both) where their sets share nothing. */
function pairwiseApart(branches: readonly (readonly CharSet[])[]): boolean {
  for (let a = 0; a < branches.length; a++)
    for (let b = a + 1; b < branches.length; b++) {
      const x = branches[a]!;
      const y = branches[b]!;
      let apart = false;
      for (let k = 0; k < Math.min(x.length, y.length) && !apart; k++) apart = !intersects(x[k]!, y[k]!);
      if (!apart) return false;
    }
  return true;
}

function intersects(a: CharSet, b: CharSet): boolean {
  const x = a.ranges;
  const y = b.ranges;
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i + 1]! < y[j]!) i += 2;
    else if (y[j + 1]! < x[i]!) j += 2;
    else return true;
  }
  return false;
}
