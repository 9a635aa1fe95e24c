/**
 * BLAKE3 through blake3-wasm, loaded on first use only (it is external to the
 * bundle and costs ~20 ms to load). Hashes are lowercase hex of the 32-byte
 * digest, identical to NotarAI's for the same bytes.
 */
import { createRequire } from "node:module";

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
}

let loaded: Promise<Blake3> | undefined;

/** Load blake3-wasm (once per process). */
export function loadBlake3(): Promise<Blake3> {
  loaded ??= (async () => {
    // Through require: the ESM loader would scan the CommonJS module for its exports first (~10 ms).
    const require = createRequire(import.meta.url);
    const b3 = require("blake3-wasm") as Blake3Module;
    // One-shot hashes go to the binding with one reused digest buffer: per 1 KB file the
    // wrapper's conversions and allocations cost about as much as the hash. Checked against
    // the public function once; any difference (another package layout) keeps the public one.
    let hashHex = (bytes: Uint8Array): string => b3.hash(bytes).toString("hex");
    try {
      const binding = require("blake3-wasm/dist/wasm/nodejs/blake3_js.js") as Blake3Binding;
      const out = Buffer.alloc(32);
      const direct = (bytes: Uint8Array): string => {
        binding.hash(bytes, out);
        return out.toString("hex");
      };
      const probe = Buffer.from("noma-reconcile blake3 probe");
      if (direct(probe) === hashHex(probe) && direct(new Uint8Array(0)) === hashHex(new Uint8Array(0))) hashHex = direct;
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
