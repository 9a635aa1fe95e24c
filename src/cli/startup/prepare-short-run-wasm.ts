/**
 * Short CLI runs and WebAssembly tiering.
 *
 * Once any SQL ran, sql.js makes a process stall at exit while V8 finishes
 * optimising the SQLite module in the background. Compiling it with
 * `--liftoff-only` (baseline code only) removes the stall without slowing our
 * few queries — but the same flag makes BLAKE3 several times slower (figures:
 * docs/perf/reconcile.md). V8 decides per
 * module at compile time, so a short run first compiles BLAKE3 (normal
 * tiering), then sets the flag, then lets sql.js compile.
 *
 * Only the CLI calls this, and only for commands that finish quickly; a
 * long-lived process (the MCP server) keeps normal tiering.
 * `NOMA_RECONCILE_WASM_TIERING=default` turns it off.
 */
import { loadBlake3 } from "../../cache/blake3.js";
import { setV8Flags } from "./prepare-short-run-jit.js";

let applied = false;

/** Prepare WASM compilation for a short run; `hashing` loads BLAKE3 first so it keeps full speed. */
export async function prepareShortRunWasm(options: { hashing: boolean; env?: NodeJS.ProcessEnv }): Promise<boolean> {
  const env = options.env ?? process.env;
  if (applied || env["NOMA_RECONCILE_WASM_TIERING"] === "default") return false;
  if (options.hashing) {
    // Compile (by calling) both hashing paths before the flag, so they keep optimised code.
    const b3 = await loadBlake3();
    b3.hashHex(new Uint8Array(64));
    const h = b3.createHasher();
    h.update(new Uint8Array(64));
    h.digestHex();
  }
  // Counted (v8FlagChanges): a command body compiled before it must not save its code cache after it.
  setV8Flags("--liftoff-only");
  applied = true;
  return true;
}
