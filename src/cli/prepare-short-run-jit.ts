/**
 * Short CLI runs and V8's optimizing compiler.
 *
 * A one-shot command (`check`, `patch`, …) parses and validates a document once:
 * most of its JavaScript runs before V8 has optimized it, and on a 5 MB document
 * TurboFan spends more CPU compiling the parser's and the validator's functions
 * (each with its callees inlined into it: big graphs) than the optimized code then
 * saves. Without inlining each function compiles in a fraction of the time; the
 * optimized code is ~20% slower in a steady state, which a one-shot run never
 * reaches. Measured on the bench's 5 MB document (fresh process, read + parse +
 * validate): ~30% less CPU and ~25% less wall time (bench/oneshot.bench.mjs has
 * the row with and without).
 *
 * Only the CLI calls this, for commands that finish after one pass over their
 * documents; a long-lived process (the MCP server) and the library keep V8's
 * defaults. `NOMA_RECONCILE_JIT=default` turns it off (a test checks the output is
 * the same either way).
 *
 * Only when there is enough text to parse: changing a V8 flag at run time costs
 * 3–5 ms and makes V8 reject Node's code cache for the internal modules loaded
 * afterwards (measured: loading node:crypto, zlib, http… took 2.5× longer), which a
 * commit of small documents (the pre-commit hook) would pay for nothing. From
 * ≈ 256 KB of text the flag already wins (check of a 256 KB document: −7%).
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

/** Characters of documents about to be parsed from which the flag is set. */
export const SHORT_RUN_JIT_MIN_CHARS = 128 * 1024;

/** Ask V8 for cheaper optimized code for the rest of this process; true when applied now. */
export function prepareShortRunJit(env: NodeJS.ProcessEnv = process.env): boolean {
  if (shortRunJitApplied() || env["NOMA_RECONCILE_JIT"] === "default") return false;
  // node:v8 on first use only: most runs never set the flag.
  (createRequire(import.meta.url)("node:v8") as typeof import("node:v8")).setFlagsFromString("--no-turbo-inlining");
  (globalThis as Record<symbol, unknown>)[APPLIED] = true;
  return true;
}

/**
 * A `beforeParse` hook for one-shot commands: sets the flag (through `apply`) once the
 * documents about to be parsed add up to `SHORT_RUN_JIT_MIN_CHARS`.
 */
export function shortRunJitBeforeParse(env: NodeJS.ProcessEnv = process.env, apply: (env: NodeJS.ProcessEnv) => unknown = prepareShortRunJit): (chars: number) => void {
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
