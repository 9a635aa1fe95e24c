/**
 * BLAKE3 through blake3-wasm, loaded on first use only (a file of its own beside the
 * bundle, dist/vendor/blake3.cjs, and loading it compiles WebAssembly). Hashes are lowercase hex of the 32-byte
 * digest, identical to NotarAI's for the same bytes.
 */
import { requireVendored } from "../vendored.js";

export interface Blake3 {
  /** Hex digest of `bytes`. */
  hashHex(bytes: Uint8Array): string;
  /** An incremental hasher for large inputs. */
  createHasher(): { update(bytes: Uint8Array): void; digestHex(): string; dispose(): void };
}

interface Blake3Module {
  hash(input: Uint8Array): Buffer;
  createHash(): { update(b: Uint8Array): unknown; digest(enc: "hex"): string; dispose(): void };
}

/** The package's WebAssembly binding (what `hash` calls after copying its input and allocating the digest). */
interface Blake3Binding {
  hash(input: Uint8Array, out: Uint8Array): void;
  /** The instance's exports (wasm-bindgen's nodejs target exposes them). */
  __wasm?: Blake3Exports;
}

/** The raw exports `hash` goes through: the input is moved into the module (it frees it), the digest written into `out`, which stays ours. */
interface Blake3Exports {
  memory: { buffer: ArrayBuffer };
  hash(inPtr: number, inLen: number, outPtr: number, outLen: number): void;
  __wbindgen_malloc(size: number): number;
}

/**
 * One-shot hashing straight through the module's exports: the digest goes to one region
 * allocated once (the binding allocates, copies out and frees one per call), and is read as
 * hex from a Buffer over the module's memory (renewed when the memory grows).
 */
function rawHashHex(w: Blake3Exports): (bytes: Uint8Array) => string {
  const outPtr = w.__wbindgen_malloc(32);
  let mem = Buffer.from(w.memory.buffer);
  return (bytes) => {
    const n = bytes.length;
    const p = w.__wbindgen_malloc(n);
    if (mem.buffer !== w.memory.buffer) mem = Buffer.from(w.memory.buffer);
    mem.set(bytes, p);
    w.hash(p, n, outPtr, 32);
    if (mem.buffer !== w.memory.buffer) mem = Buffer.from(w.memory.buffer);
    return mem.toString("hex", outPtr, outPtr + 32);
  };
}

let loaded: Promise<Blake3> | undefined;

/** Load blake3-wasm (once per process). */
export function loadBlake3(): Promise<Blake3> {
  loaded ??= (async () => {
    // Through require: the ESM loader would scan the CommonJS module for its exports first. The
    // package's public functions and its WebAssembly binding, from one module instance.
    const { b3, binding } = requireVendored("blake3.cjs", (require) => ({
      b3: require("blake3-wasm") as Blake3Module,
      binding: require("blake3-wasm/dist/wasm/nodejs/blake3_js.js") as Blake3Binding,
    }));
    // One-shot hashes skip the wrapper: on a small file its conversions and allocations cost
    // as much as the hash (docs/perf/hashing.md). Straight through the module's exports (one digest region),
    // else the binding with one reused digest buffer, else the public function: each checked
    // against the public function at load (any difference — another package layout — keeps
    // the next one).
    const pub = (bytes: Uint8Array): string => b3.hash(bytes).toString("hex");
    let hashHex = pub;
    const agrees = (f: (bytes: Uint8Array) => string): boolean => {
      for (const probe of [Buffer.from("noma-reconcile blake3 probe"), new Uint8Array(0), Buffer.alloc(3000, 7)]) if (f(probe) !== pub(probe)) return false;
      return true;
    };
    try {
      const out = Buffer.alloc(32);
      const viaBinding = (bytes: Uint8Array): string => {
        binding.hash(bytes, out);
        return out.toString("hex");
      };
      const raw =
        binding.__wasm !== undefined && typeof binding.__wasm.hash === "function" && typeof binding.__wasm.__wbindgen_malloc === "function"
          ? rawHashHex(binding.__wasm)
          : undefined;
      if (raw !== undefined && agrees(raw)) hashHex = raw;
      else if (agrees(viaBinding)) hashHex = viaBinding;
    } catch {
      /* the public function it is */
    }
    return {
      hashHex,
      createHasher: () => {
        const h = b3.createHash();
        return {
          update: (bytes) => void h.update(bytes),
          digestHex: () => h.digest("hex"),
          dispose: () => h.dispose(),
        };
      },
    };
  })();
  return loaded;
}

/** Lowercase hex BLAKE3 of `bytes`. */
export async function blake3Hex(bytes: Uint8Array): Promise<string> {
  return (await loadBlake3()).hashHex(bytes);
}
