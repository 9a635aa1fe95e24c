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

let loaded: Promise<Blake3> | undefined;

/** Load blake3-wasm (once per process). */
export function loadBlake3(): Promise<Blake3> {
  loaded ??= (async () => {
    // Through require: the ESM loader would scan the CommonJS module for its exports first (~10 ms).
    const b3 = createRequire(import.meta.url)("blake3-wasm") as Blake3Module;
    return {
      hashHex: (bytes) => b3.hash(bytes).toString("hex"),
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
