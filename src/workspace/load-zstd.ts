/**
 * Zstandard for the archive, loaded on first use. `node:zlib` has zstd only from
 * Node 22.15, and we support Node 20, so this is `@bokuweb/zstd-wasm`: zstd compiled
 * to WebAssembly, no native build and no download at install (its .wasm ships in the
 * package: dist/vendor/zstd.cjs reads dist/vendor/zstd.wasm from beside it). It
 * writes one frame with the content size in its header, which GNU tar's `--zstd`
 * (the system `zstd`) reads; its decoder needs that size, so it reads the archives we
 * write, not arbitrary multi-frame or streamed zstd files.
 */

import { pathToFileURL } from "node:url";
import { isBundled, vendoredPath } from "../vendored.js";

export interface Zstd {
  compress(data: Uint8Array, level?: number): Uint8Array;
  decompress(data: Uint8Array): Uint8Array;
}

interface ZstdModule {
  init(path?: string): Promise<void>;
  compress(buf: Uint8Array, level?: number): Uint8Array;
  decompress(buf: Uint8Array): Uint8Array;
}

let loading: Promise<Zstd> | undefined;

export function loadZstd(): Promise<Zstd> {
  loading ??= (async () => {
    // Imported (not required) as before: it loads asynchronously anyway, and the module loader sees it (test/workspace/start-up.test.ts).
    const mod = (await (isBundled() ? import(pathToFileURL(vendoredPath("zstd.cjs")).href) : import("@bokuweb/zstd-wasm"))) as ZstdModule & {
      default?: ZstdModule;
    };
    // A CommonJS module: its exports object is the default export (the named ones are only what Node's scan found).
    const m = mod.default !== undefined && typeof mod.default.init === "function" ? mod.default : mod;
    await m.init();
    return { compress: (d, level = 3) => m.compress(d, level), decompress: (d) => m.decompress(d) };
  })();
  return loading;
}
