/**
 * A regular expression's tree as automata without backtracking (Thompson's construction):
 * states joined by edges that read one code unit of a set, by empty edges, and by empty
 * edges that hold only where an assertion holds (`^`, `$`, `\b`, a look-around). Each
 * look-around's body is an automaton of its own, kept both ways round (a lookahead is
 * tried forward from a position, or answered for every position by one backward pass).
 */
import { CharSet } from "./char-set.js";
import { type RegexNode, UnsupportedRegexError } from "./regex-syntax.js";

/** States an expression may compile to (`a{1000}{1000}` would be a million); more is refused. */
export const MAX_AUTOMATON_STATES = 200_000;

/** Edges in compressed rows: state s's empty edges are epsTo[epsOff[s] .. epsOff[s+1]). */
export interface Automaton {
  readonly size: number;
  readonly start: number;
  readonly accept: number;
  readonly epsOff: Int32Array;
  readonly epsTo: Int32Array;
  /** The assertion an empty edge needs, or -1. */
  readonly epsAssert: Int32Array;
  readonly chrOff: Int32Array;
  readonly chrTo: Int32Array;
  readonly chrSet: Int32Array;
}

export type AssertionKind = "bol" | "eol" | "word-boundary" | "not-word-boundary" | "look";

export interface Assertion {
  readonly kind: AssertionKind;
  readonly ahead: boolean;
  readonly negate: boolean;
  /** Look-arounds: the body read away from the position (forward for a lookahead, backward for a lookbehind). */
  readonly probe: Automaton | null;
  /** Look-arounds: the body read the other way, for the pass answering every position. */
  readonly sweep: Automaton | null;
  /** Whether the body matches at most `MAX_PROBE` units: then it is probed where asked, else swept once per input. */
  readonly bounded: boolean;
  /** Whether it sits inside another look-around (then its answers are kept per position). */
  nested: boolean;
  /** Look-arounds whose body is one character of a set: that set (answered without running the body). */
  readonly single: CharSet | null;
  /**
   * Look-arounds: the units the body's first read may take (whatever its assertions answer), and
   * whether it may match nothing; when it may not and the next unit is not one of them, the body
   * does not match there (most positions of a path, for the look-arounds of a glob).
   */
  readonly first: CharSet | null;
  readonly matchesEmpty: boolean;
}

/** Longest body a look-around is tried from each position; a longer one is answered by a sweep. */
export const MAX_PROBE = 16;

export interface Program {
  readonly main: Automaton;
  readonly sets: readonly CharSet[];
  readonly assertions: readonly Assertion[];
  /** The expression starts with `^`: it is tried from position 0 only. */
  readonly anchored: boolean;
  /** Units every match starting at 0 begins with (anchored expressions), for a quick refusal. */
  readonly prefix: string;
  /** When the whole expression is `^literal$`: that literal. */
  readonly exact: string | null;
}

/** A growable list of 32-bit integers. */
class IntList {
  data = new Int32Array(64);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
}

class Builder {
  private states = 0;
  private readonly epsFrom = new IntList();
  private readonly epsTo = new IntList();
  private readonly epsArg = new IntList();
  private readonly chrFrom = new IntList();
  private readonly chrTo = new IntList();
  private readonly chrArg = new IntList();

  constructor(private readonly budget: { left: number }) {}

  state(): number {
    if (--this.budget.left < 0) throw new UnsupportedRegexError(`more than ${MAX_AUTOMATON_STATES} automaton states`);
    return this.states++;
  }

  empty(from: number, to: number, assertion = -1): void {
    this.epsFrom.push(from);
    this.epsTo.push(to);
    this.epsArg.push(assertion);
  }

  read(from: number, set: number, to: number): void {
    this.chrFrom.push(from);
    this.chrTo.push(to);
    this.chrArg.push(set);
  }

  /** The automaton; reversed: every edge turned round, start and accept swapped. */
  freeze(start: number, accept: number, reversed: boolean): Automaton {
    const n = this.states;
    const rows = (fromL: IntList, toL: IntList, argL: IntList): [Int32Array, Int32Array, Int32Array] => {
      const m = fromL.length;
      const from = reversed ? toL.data : fromL.data;
      const target = reversed ? fromL.data : toL.data;
      const off = new Int32Array(n + 1);
      for (let k = 0; k < m; k++) off[from[k]! + 1]!++;
      for (let s = 0; s < n; s++) off[s + 1]! += off[s]!;
      const to = new Int32Array(m);
      const arg = new Int32Array(m);
      const fill = off.slice(0, n);
      for (let k = 0; k < m; k++) {
        const at = fill[from[k]!]!++;
        to[at] = target[k]!;
        arg[at] = argL.data[k]!;
      }
      return [off, to, arg];
    };
    const [epsOff, epsTo, epsAssert] = rows(this.epsFrom, this.epsTo, this.epsArg);
    const [chrOff, chrTo, chrSet] = rows(this.chrFrom, this.chrTo, this.chrArg);
    return { size: n, start: reversed ? accept : start, accept: reversed ? start : accept, epsOff, epsTo, epsAssert, chrOff, chrTo, chrSet };
  }
}

/** The longest input `node` can match (Infinity when unbounded). */
function maxLength(node: RegexNode): number {
  switch (node.t) {
    case "set":
      return 1;
    case "seq":
      return node.items.reduce((sum, item) => sum + maxLength(item), 0);
    case "alt":
      return Math.max(...node.alts.map(maxLength));
    case "rep": {
      const body = maxLength(node.body);
      if (body === 0 || node.max === 0) return 0;
      return node.max === Number.POSITIVE_INFINITY ? Number.POSITIVE_INFINITY : body * node.max;
    }
    default:
      return 0;
  }
}

/** The units an automaton's first read may take and whether it may accept before reading, its assertions aside. */
function firstReads(a: Automaton, sets: readonly CharSet[]): { first: CharSet; matchesEmpty: boolean } {
  const seen = new Uint8Array(a.size);
  const stack = [a.start];
  let first = CharSet.empty();
  let matchesEmpty = false;
  while (stack.length > 0) {
    const s = stack.pop()!;
    if (seen[s] === 1) continue;
    seen[s] = 1;
    if (s === a.accept) matchesEmpty = true;
    for (let e = a.chrOff[s]!; e < a.chrOff[s + 1]!; e++) first = first.union(sets[a.chrSet[e]!]!);
    for (let e = a.epsOff[s]!; e < a.epsOff[s + 1]!; e++) stack.push(a.epsTo[e]!);
  }
  return { first, matchesEmpty };
}

/** Compiles a tree (from parseRegex). */
export function compileProgram(tree: RegexNode): Program {
  const sets: CharSet[] = [];
  const setIds = new Map<CharSet, number>();
  const assertions: Assertion[] = [];
  const simple = new Map<AssertionKind, number>();
  const looks = new Map<string, number>();
  const budget = { left: MAX_AUTOMATON_STATES };

  const simpleAssertion = (kind: AssertionKind): number => {
    let id = simple.get(kind);
    if (id === undefined) {
      id = assertions.length;
      assertions.push({
        kind,
        ahead: true,
        negate: false,
        probe: null,
        sweep: null,
        bounded: true,
        nested: false,
        single: null,
        first: null,
        matchesEmpty: true,
      });
      simple.set(kind, id);
    }
    return id;
  };

  const automaton = (node: RegexNode, depth: number): { forward: Automaton; backward: Automaton } => {
    const b = new Builder(budget);
    const emit = (n: RegexNode, from: number): number => {
      switch (n.t) {
        case "set": {
          const to = b.state();
          let id = setIds.get(n.set);
          if (id === undefined) {
            id = sets.push(n.set) - 1;
            setIds.set(n.set, id);
          }
          b.read(from, id, to);
          return to;
        }
        case "seq": {
          let at = from;
          for (const item of n.items) at = emit(item, at);
          return at;
        }
        case "alt": {
          const to = b.state();
          for (const alt of n.alts) {
            const s = b.state();
            b.empty(from, s);
            b.empty(emit(alt, s), to);
          }
          return to;
        }
        case "rep": {
          let at = from;
          for (let k = 0; k < n.min; k++) at = emit(n.body, at);
          if (n.max === Number.POSITIVE_INFINITY) {
            const loop = b.state();
            b.empty(at, loop);
            const end = b.state();
            b.empty(loop, end);
            const s = b.state();
            b.empty(loop, s);
            b.empty(emit(n.body, s), loop);
            return end;
          }
          const end = b.state();
          for (let k = n.min; k < n.max; k++) {
            b.empty(at, end);
            const s = b.state();
            b.empty(at, s);
            at = emit(n.body, s);
          }
          b.empty(at, end);
          return end;
        }
        case "bol":
        case "eol": {
          const to = b.state();
          b.empty(from, to, simpleAssertion(n.t));
          return to;
        }
        case "word-boundary": {
          const to = b.state();
          b.empty(from, to, simpleAssertion(n.negate ? "not-word-boundary" : "word-boundary"));
          return to;
        }
        case "look": {
          let id = looks.get(n.key);
          if (id !== undefined && depth > 0) assertions[id]!.nested = true;
          if (id === undefined) {
            const body = automaton(n.body, depth + 1);
            const bounded = maxLength(n.body) <= MAX_PROBE;
            const probe = n.ahead ? body.forward : body.backward;
            const entry = firstReads(probe, sets);
            id = assertions.length;
            assertions.push({
              kind: "look",
              ahead: n.ahead,
              negate: n.negate,
              probe,
              sweep: n.ahead ? body.backward : body.forward,
              bounded,
              nested: depth > 0,
              single: n.body.t === "set" ? n.body.set : null,
              first: entry.first,
              matchesEmpty: entry.matchesEmpty,
            });
            looks.set(n.key, id);
          }
          const to = b.state();
          b.empty(from, to, id);
          return to;
        }
      }
    };
    const start = b.state();
    const accept = emit(node, start);
    return { forward: b.freeze(start, accept, false), backward: b.freeze(start, accept, true) };
  };

  const main = automaton(tree, 0).forward;
  const anchored = (tree.t === "seq" ? tree.items : [tree])[0]?.t === "bol";
  const { prefix, exact } = literalStart(tree);
  return { main, sets, assertions, anchored, prefix, exact };
}

/**
 * For an expression starting with `^`: the units every match begins with (`^` then literal
 * units, through non-capturing groups of one branch), and, when the whole expression is
 * `^literal$`, that literal; for any other expression, "" and null.
 */
export function literalStart(tree: RegexNode): { prefix: string; exact: string | null } {
  const items = tree.t === "seq" ? tree.items : [tree];
  let prefix = "";
  let exact: string | null = null;
  if (items[0]?.t !== "bol") return { prefix, exact };
  const flat: RegexNode[] = [];
  const flatten = (n: RegexNode): void => {
    if (n.t === "seq") for (const item of n.items) flatten(item);
    else flat.push(n);
  };
  for (const item of items.slice(1)) flatten(item);
  let k = 0;
  while (k < flat.length) {
    const n = flat[k]!;
    if (n.t !== "set" || n.set.only() < 0) break;
    prefix += String.fromCharCode(n.set.only());
    k++;
  }
  if (k === flat.length - 1 && flat[k]!.t === "eol") exact = prefix;
  return { prefix, exact };
}
