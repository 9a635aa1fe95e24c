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
 */
import { setFlagsFromString } from "node:v8";

let applied = false;

/** Ask V8 for cheaper optimized code for the rest of this process; true when applied now. */
export function prepareShortRunJit(env: NodeJS.ProcessEnv = process.env): boolean {
  if (applied || env["NOMA_RECONCILE_JIT"] === "default") return false;
  setFlagsFromString("--no-turbo-inlining");
  applied = true;
  return true;
}
