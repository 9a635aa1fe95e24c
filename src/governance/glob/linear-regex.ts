/**
 * A regular expression matcher whose time is linear in the input, whatever the expression:
 * the expression's automaton (regex-automaton.ts) is run over the input once, all its
 * possible states at a time (never one guess, then another), with the sets of states met so
 * far kept as the states of a deterministic automaton built as it is needed (so the next
 * input walking the same states costs one table look-up per character). A look-around is
 * answered at a position by trying its short body from there, or — for a body with no bound
 * on its length — for every position by one pass over the input. So each character of the
 * input costs at most a fixed amount of work that depends only on the expression.
 *
 * `steps` counts that work (states visited, edges tried, characters read, assertions
 * answered); the tests bound it, since time cannot be asserted.
 *
 * Same answers as V8's `RegExp.prototype.test` (flags: none) for every expression without a
 * backreference — test/governance/glob/linear-regex.test.ts compares them on generated expressions.
 */
import type { CharSet } from "./char-set.js";
import { type Assertion, type Automaton, compileProgram, type Program } from "./regex-automaton.js";
import { parseRegex } from "./regex-syntax.js";

export interface LinearRegex {
  /** Whether the expression matches somewhere in `input` (`RegExp.prototype.test`). */
  test(input: string): boolean;
  /** The work done by every `test` so far (see the module comment). */
  readonly steps: number;
}

/** States of one deterministic automaton kept before it is started afresh (memory stays bounded). */
const MAX_CACHED_STATES = 4096;
/** Assertions one state may depend on and still be cached by their answers (a bit each). */
const MAX_CONTEXT_BITS = 24;

/** A set of automaton states: the deterministic automaton's state. */
class DState {
  /** Its closures by the answers of `asserts` (a bit each) at the position. */
  readonly closures: (Closure | undefined)[] | Map<number, Closure>;
  constructor(
    readonly nodes: Int32Array,
    /** The assertions its empty edges may need, ascending. */
    readonly asserts: Int32Array,
  ) {
    this.closures = asserts.length <= 6 ? new Array(1 << asserts.length).fill(undefined) : new Map();
  }
}

/** The states reachable by empty edges under given assertion answers. */
class Closure {
  readonly ascii: (DState | undefined)[] = new Array(128);
  other: Map<number, DState> | null = null;
  constructor(
    readonly accept: boolean,
    /** The states with a reading edge. */
    readonly reads: Int32Array,
  ) {}
}

/** The deterministic automaton of one automaton, run with or without re-entering its start at every position. */
class Dfa {
  states = new Map<string, DState>();
  initial: DState;
  readonly marks: Int32Array;
  gen = 0;

  constructor(
    readonly auto: Automaton,
    /** Re-enter the start state at every position (an unanchored search; the sweep of a look-around). */
    readonly inject: boolean,
    private readonly engine: Engine,
  ) {
    this.marks = new Int32Array(auto.size);
    this.initial = this.intern(Int32Array.of(auto.start));
  }

  intern(nodes: Int32Array): DState {
    const key = nodes.join(",");
    let st = this.states.get(key);
    if (st === undefined) {
      if (this.states.size >= MAX_CACHED_STATES) {
        this.states = new Map();
        this.initial = new DState(Int32Array.of(this.auto.start), this.reachableAsserts(Int32Array.of(this.auto.start)));
        this.states.set(String(this.auto.start), this.initial);
      }
      st = new DState(nodes, this.reachableAsserts(nodes));
      this.states.set(key, st);
    }
    return st;
  }

  /** The assertions on empty edges reachable from `nodes` (whatever their answers). */
  reachableAsserts(nodes: Int32Array): Int32Array {
    const a = this.auto;
    const gen = ++this.gen;
    const stack = Array.from(nodes);
    const found = new Set<number>();
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (this.marks[s] === gen) continue;
      this.marks[s] = gen;
      this.engine.steps++;
      for (let e = a.epsOff[s]!; e < a.epsOff[s + 1]!; e++) {
        if (a.epsAssert[e]! >= 0) found.add(a.epsAssert[e]!);
        stack.push(a.epsTo[e]!);
      }
    }
    return Int32Array.from([...found].sort((x, y) => x - y));
  }

  /** `holds(k)`: the answer of `st.asserts[k]`. */
  closure(st: DState, holds: (k: number) => boolean): Closure {
    const a = this.auto;
    const gen = ++this.gen;
    const stack = Array.from(st.nodes);
    let accept = false;
    const reads: number[] = [];
    while (stack.length > 0) {
      const s = stack.pop()!;
      if (this.marks[s] === gen) continue;
      this.marks[s] = gen;
      this.engine.steps++;
      if (s === a.accept) accept = true;
      if (a.chrOff[s]! < a.chrOff[s + 1]!) reads.push(s);
      for (let e = a.epsOff[s]!; e < a.epsOff[s + 1]!; e++) {
        const need = a.epsAssert[e]!;
        if (need >= 0 && !holds(st.asserts.indexOf(need))) continue;
        stack.push(a.epsTo[e]!);
      }
    }
    return new Closure(accept, Int32Array.from(reads));
  }

  next(cl: Closure, c: number): DState {
    const cached = c < 128 ? cl.ascii[c] : cl.other?.get(c);
    if (cached !== undefined) return cached;
    const a = this.auto;
    const sets = this.engine.sets;
    const gen = ++this.gen;
    const targets: number[] = [];
    for (let k = 0; k < cl.reads.length; k++) {
      const s = cl.reads[k]!;
      for (let e = a.chrOff[s]!; e < a.chrOff[s + 1]!; e++) {
        this.engine.steps++;
        const t = a.chrTo[e]!;
        if (this.marks[t] !== gen && sets[a.chrSet[e]!]!.has(c)) {
          this.marks[t] = gen;
          targets.push(t);
        }
      }
    }
    if (this.inject && this.marks[a.start] !== gen) targets.push(a.start);
    targets.sort((x, y) => x - y);
    const st = this.intern(Int32Array.from(targets));
    if (c < 128) cl.ascii[c] = st;
    else (cl.other ??= new Map()).set(c, st);
    return st;
  }
}

const BOL = 0;
const EOL = 1;
const WORD_BOUNDARY = 2;
const NOT_WORD_BOUNDARY = 3;
const LOOK_SINGLE = 4;
const LOOK_PROBE = 5;
const LOOK_SWEEP = 6;

class Engine implements LinearRegex {
  steps = 0;
  readonly sets: readonly CharSet[];
  private readonly assertions: readonly Assertion[];
  /** Per assertion: how it is answered (the constants above). */
  private readonly kinds: Uint8Array;
  private readonly probes: (Dfa | null)[];
  private readonly ahead: Uint8Array;
  private readonly negate: Uint8Array;
  private readonly empty: Uint8Array;
  private readonly firsts: (CharSet | null)[];
  private readonly sweeps: (Dfa | null)[];
  private readonly main: Dfa;
  private readonly perInput: boolean;
  private input = "";
  private n = 0;
  /** Per input: the sweep of each unbounded look-around; the answers of each nested one (0 unknown, 1 false, 2 true). */
  private tables: (Uint8Array | null)[] = [];
  private memos: (Uint8Array | null)[] = [];

  constructor(private readonly program: Program) {
    this.sets = program.sets;
    this.assertions = program.assertions;
    const k = program.assertions.length;
    this.kinds = new Uint8Array(k);
    this.probes = new Array(k).fill(null);
    this.sweeps = new Array(k).fill(null);
    this.ahead = Uint8Array.from(program.assertions, (a) => (a.ahead ? 1 : 0));
    this.negate = Uint8Array.from(program.assertions, (a) => (a.negate ? 1 : 0));
    this.empty = Uint8Array.from(program.assertions, (a) => (a.matchesEmpty ? 1 : 0));
    this.firsts = program.assertions.map((a) => a.single ?? a.first);
    program.assertions.forEach((a, id) => {
      if (a.kind === "look") {
        this.kinds[id] = a.single !== null ? LOOK_SINGLE : a.bounded ? LOOK_PROBE : LOOK_SWEEP;
        if (a.bounded) this.probes[id] = new Dfa(a.probe!, false, this);
        else this.sweeps[id] = new Dfa(a.sweep!, true, this);
      } else this.kinds[id] = a.kind === "bol" ? BOL : a.kind === "eol" ? EOL : a.kind === "word-boundary" ? WORD_BOUNDARY : NOT_WORD_BOUNDARY;
    });
    this.main = new Dfa(program.main, !program.anchored, this);
    this.perInput = program.assertions.some((a) => a.kind === "look" && (!a.bounded || a.nested));
  }

  test(input: string): boolean {
    const p = this.program;
    this.steps++;
    if (p.exact !== null) return input === p.exact;
    if (p.prefix.length > 0 && !input.startsWith(p.prefix)) return false;
    this.input = input;
    this.n = input.length;
    if (this.perInput) {
      this.tables = new Array(this.assertions.length).fill(null);
      this.memos = new Array(this.assertions.length).fill(null);
    }
    return this.run(this.main, 0, 1, null);
  }

  /**
   * Runs `dfa` from `from` in direction `dir` (1: reads input[pos], -1: reads input[pos-1]).
   * With `table`: marks every position where it accepts and runs to the end; else returns at
   * the first accepting position (false when it dies or reaches the end without one).
   */
  private run(dfa: Dfa, from: number, dir: 1 | -1, table: Uint8Array | null): boolean {
    const input = this.input;
    const n = this.n;
    let pos = from;
    let st = dfa.initial;
    for (;;) {
      this.steps++;
      const cl = this.closureAt(dfa, st, pos);
      if (cl.accept) {
        if (table === null) return true;
        table[pos] = 1;
      }
      if (dir === 1 ? pos === n : pos === 0) return false;
      st = dfa.next(cl, input.charCodeAt(dir === 1 ? pos : pos - 1));
      if (st.nodes.length === 0) return false;
      pos += dir;
    }
  }

  private closureAt(dfa: Dfa, st: DState, pos: number): Closure {
    const asserts = st.asserts;
    if (asserts.length > MAX_CONTEXT_BITS) {
      const answers = Array.from(asserts, (id) => this.holds(id, pos));
      return dfa.closure(st, (k) => answers[k]!);
    }
    let bits = 0;
    for (let k = 0; k < asserts.length; k++) if (this.holds(asserts[k]!, pos)) bits |= 1 << k;
    const closures = st.closures;
    let cl = Array.isArray(closures) ? closures[bits] : closures.get(bits);
    if (cl === undefined) {
      cl = dfa.closure(st, (k) => ((bits >>> k) & 1) === 1);
      if (Array.isArray(closures)) closures[bits] = cl;
      else closures.set(bits, cl);
    }
    return cl;
  }

  /** Whether assertion `id` holds at `pos` of the current input. */
  private holds(id: number, pos: number): boolean {
    this.steps++;
    const input = this.input;
    switch (this.kinds[id]) {
      case BOL:
        return pos === 0;
      case EOL:
        return pos === this.n;
      case WORD_BOUNDARY:
        return isWordAt(input, pos - 1) !== isWordAt(input, pos);
      case NOT_WORD_BOUNDARY:
        return isWordAt(input, pos - 1) === isWordAt(input, pos);
      default:
        break;
    }
    const at = this.ahead[id] === 1 ? pos : pos - 1; // the unit the body reads first
    const unit = at >= 0 && at < this.n ? input.charCodeAt(at) : -1;
    let found: boolean;
    if (this.kinds[id] === LOOK_SINGLE) found = unit >= 0 && this.firsts[id]!.has(unit);
    else if (this.empty[id] === 0 && (unit < 0 || !this.firsts[id]!.has(unit))) found = false;
    else if (this.assertions[id]!.nested) {
      const memo = (this.memos[id] ??= new Uint8Array(this.n + 1));
      if (memo[pos] === 0) memo[pos] = this.look(id, pos) ? 2 : 1;
      found = memo[pos] === 2;
    } else found = this.look(id, pos);
    return found !== (this.negate[id] === 1);
  }

  /** Whether the look-around's body matches from `pos`. */
  private look(id: number, pos: number): boolean {
    const ahead = this.ahead[id] === 1;
    if (this.kinds[id] === LOOK_PROBE) return this.run(this.probes[id]!, pos, ahead ? 1 : -1, null);
    let table = this.tables[id];
    if (table === null || table === undefined) {
      table = new Uint8Array(this.n + 1);
      // Every position where a match of the body starts (lookahead: the reversed body swept from
      // the end) or ends (lookbehind: the body swept from the start).
      this.run(this.sweeps[id]!, ahead ? this.n : 0, ahead ? -1 : 1, table);
      this.tables[id] = table;
    }
    return table[pos] === 1;
  }
}

function isWordAt(s: string, i: number): boolean {
  if (i < 0 || i >= s.length) return false;
  const c = s.charCodeAt(i);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** A linear matcher for `source` (an expression V8 accepts, no flags). Throws UnsupportedRegexError on a backreference. */
export function compileLinearRegex(source: string): LinearRegex {
  return new Engine(compileProgram(parseRegex(source)));
}
