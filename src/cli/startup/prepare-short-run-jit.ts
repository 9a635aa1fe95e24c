/**
 * Short CLI runs and V8's optimizing compiler and garbage collector.
 *
 * A one-shot command (`check`, `patch`, …) parses and validates a document once:
 * most of its JavaScript runs before V8 has optimized it, and on a large document
 * TurboFan spends more CPU compiling the parser's and the validator's functions
 * (each with its callees inlined into it: big graphs) than the optimized code then
 * saves. Without inlining each function compiles in a fraction of the time; the
 * optimized code is slower in a steady state, which a one-shot run never reaches.
 * For the same reason the optimizations whose compile time a short run does not
 * earn back are left out too (loop peeling and loop variable analysis, load
 * elimination, escape analysis, control-flow optimization, splitting: each read
 * when a function is compiled). What each part gains: docs/perf/check.md.
 *
 * The collector's defaults suit a long-lived process, not a run that keeps most of what it
 * allocates (the parse's tables, ids, facts) and then exits: they grow the young generation
 * (fresh pages, each first touch a page fault), start incremental marking and finish with a
 * mark-compact the run does not need, and split each scavenge of a small young generation
 * over threads that mostly wait on each other. So, for the rest of the run:
 * - `--semi-space-growth-factor=1`: the young generation keeps its size (V8 reads the factor
 *   each time it would grow it; the lower bound of 2 is applied only at start-up);
 * - `--no-incremental-marking`: no marking starts at a soft limit; a full collection happens
 *   only when an allocation in the old space finds the old generation at its limit, and then
 *   in one atomic pause (what a scavenge promotes never starts one: see opListCollector);
 * - `--no-parallel-scavenge`: each scavenge runs on the main thread (V8 reads this per
 *   scavenge).
 * Each is read where V8 uses it, so setting it mid-run is safe (unlike, say,
 * `--single-threaded-gc`, which aborts the process when changed after start-up).
 *
 * Only the CLI calls this, for commands that finish after one pass over their
 * documents; a long-lived process (the MCP server) and the library keep V8's
 * defaults. `NOMA_RECONCILE_JIT=default` turns it off (a test checks the output is
 * the same either way).
 *
 * Only when there is enough text to parse (SHORT_RUN_JIT_MIN_CHARS): changing a V8 flag
 * at run time has a cost of its own and makes V8 reject Node's code cache for the internal
 * modules loaded afterwards, which a commit of small documents (the pre-commit hook) would
 * pay for nothing. What each part gains, measured: docs/perf/check.md.
 */
import { createRequire } from "node:module";

/**
 * The flag is process-wide, and so is the note that it is set: the bin (dist/cli.cjs) and a
 * command body bundled on its own (dist/bodies/*.cjs, load-cached-body.ts) each carry a copy
 * of this module, and the second must neither set it again nor believe it unset.
 */
const APPLIED = Symbol.for("noma-reconcile.short-run-jit");

/** Whether this process has set the flag. */
export function shortRunJitApplied(): boolean {
  return (globalThis as Record<symbol, unknown>)[APPLIED] === true;
}

/** Process-wide too: how many times this process has changed V8's flags. */
const CHANGES = Symbol.for("noma-reconcile.v8-flag-changes");

/**
 * How many times this process has changed V8's flags (the short-run flags, then `--expose-gc`
 * for an op list's collections): code compiled, and the cache V8 makes of it, holds under the
 * flags of its time only.
 */
export function v8FlagChanges(): number {
  return ((globalThis as Record<symbol, unknown>)[CHANGES] as number | undefined) ?? 0;
}

const BEFORE_CHANGE = Symbol.for("noma-reconcile.before-v8-flag-change");

/**
 * Run `step` once, right before the next change of V8's flags (if there is one): what a command
 * body compiled under the current flags does to save its code cache while V8 still accepts it
 * (load-cached-body.ts). Kept on a global symbol, as the count: the bin and each body bundle
 * their own copy of this module.
 */
export function beforeV8FlagChange(step: () => void): void {
  const g = globalThis as Record<symbol, unknown>;
  ((g[BEFORE_CHANGE] ??= []) as Array<() => void>).push(step);
}

/** Set V8 flags for the rest of this process, counted (v8FlagChanges): code cached afterwards holds under them only. */
export function setV8Flags(flags: string): void {
  const pending = (globalThis as Record<symbol, unknown>)[BEFORE_CHANGE] as Array<() => void> | undefined;
  if (pending !== undefined) for (const step of pending.splice(0)) step();
  // node:v8 on first use only: most runs never set a flag.
  (createRequire(import.meta.url)("node:v8") as typeof import("node:v8")).setFlagsFromString(flags);
  (globalThis as Record<symbol, unknown>)[CHANGES] = v8FlagChanges() + 1;
}

/** The V8 flags a short run sets (see above). */
export const SHORT_RUN_V8_FLAGS = [
  "--no-turbo-inlining",
  "--no-turbo-load-elimination",
  "--no-turbo-escape",
  "--no-turbo-loop-peeling",
  "--no-turbo-loop-variable",
  "--no-turbo-cf-optimization",
  "--no-turbo-splitting",
  "--semi-space-growth-factor=1",
  "--no-incremental-marking",
  "--no-parallel-scavenge",
] as const;

/** Characters of documents about to be parsed from which the flag is set. */
export const SHORT_RUN_JIT_MIN_CHARS = 128 * 1024;

/** Ask V8 for cheaper optimized code and a collector fit for a short run, for the rest of this process; true when applied now. */
export function prepareShortRunJit(env: NodeJS.ProcessEnv = process.env): boolean {
  if (shortRunJitApplied() || env["NOMA_RECONCILE_JIT"] === "default") return false;
  setV8Flags(SHORT_RUN_V8_FLAGS.join(" "));
  (globalThis as Record<symbol, unknown>)[APPLIED] = true;
  return true;
}

/**
 * A `beforeParse` hook for one-shot commands: sets the flag (through `apply`) once the
 * documents about to be parsed add up to `SHORT_RUN_JIT_MIN_CHARS`.
 */
export function shortRunJitBeforeParse(
  env: NodeJS.ProcessEnv = process.env,
  apply: (env: NodeJS.ProcessEnv) => unknown = prepareShortRunJit,
): (chars: number) => void {
  let total = 0;
  let done = env["NOMA_RECONCILE_JIT"] === "default";
  return (chars) => {
    if (done) return;
    total += chars;
    if (total < SHORT_RUN_JIT_MIN_CHARS) return;
    done = true;
    apply(env);
  };
}

/**
 * Full collections between the ops of a list, for a run under the short-run flags.
 *
 * Each op of a list makes the document's next text, which the next op edits and then drops:
 * a document of garbage per op, with the re-parse's leftovers. The texts end in the old
 * generation (a long one is an external string, which V8 makes there; a shorter one is
 * promoted by the scavenge that runs while it is in use), and with incremental marking off
 * nothing starts a full collection as they pile up: a scavenge's promotions never do, and
 * external strings' bytes only past a fixed allowance many documents large. The CLI's peak
 * memory grew with the number of ops (docs/perf/patch.md).
 *
 * So a list run under the short-run flags collects between its ops: after an op, once the
 * heap with the external strings' bytes has doubled since the last collection (since the
 * first op, at first), one full collection. The decision reads sizes, never a clock, so the
 * peak does not move with the machine's load: about twice what a collection keeps (the
 * document's parse, the process's own) plus the transcript, whatever the number of ops
 * (test/patch/op-list-memory.test.ts). A list too short to double the heap is never
 * collected. Not V8's own scheduling: incremental marking runs on a clock-driven schedule,
 * alongside ops that pile up texts meanwhile, so the peak would grow with the number of ops
 * (what was tried and measured: docs/perf/patch.md).
 *
 * Collecting needs V8's `gc` function: `--expose-gc` set when the first collection is due
 * (a flag set at run time makes V8 refuse code cached under the others: see v8FlagChanges) and
 * the function taken from a new context, which is made with it. A process on V8's defaults
 * (NOMA_RECONCILE_JIT=default, a small document) has its incremental marking and needs none.
 *
 * Returns what to call after each op of a list of `opCount` (with the op's index), or undefined.
 */
export function opListCollector(opCount: number): ((index: number) => void) | undefined {
  if (opCount < 2 || !shortRunJitApplied()) return undefined;
  const require = createRequire(import.meta.url);
  const v8 = require("node:v8") as typeof import("node:v8");
  const size = (): number => {
    const h = v8.getHeapStatistics();
    return h.used_heap_size + h.external_memory;
  };
  let kept: number | undefined;
  let gc: (() => void) | undefined;
  return () => {
    const now = size();
    if (kept === undefined) kept = now;
    else if (now >= 2 * kept) {
      gc ??= exposedGc(require);
      gc();
      kept = size();
    }
  };
}

/** V8's `gc` function (see opListCollector). */
function exposedGc(require: NodeJS.Require): () => void {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === "function") return own as () => void;
  setV8Flags("--expose-gc");
  return (require("node:vm") as typeof import("node:vm")).runInNewContext("gc") as () => void;
}
