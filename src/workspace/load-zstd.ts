/**
 * Zstandard for the archive, loaded on first use. `node:zlib` has zstd only from
 * Node 22.15, and we support Node 20, so this is `@bokuweb/zstd-wasm`: zstd compiled
 * to WebAssembly, no native build and no download at install (its .wasm ships in the
 * package; it stays external to the bundle and is read from beside its module). It
 * writes one frame with the content size in its header, which GNU tar's `--zstd`
 * (the system `zstd`) reads; its decoder needs that size, so it reads the archives we
 * write, not arbitrary multi-frame or streamed zstd files.
 */

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
    const mod = (await import("@bokuweb/zstd-wasm")) as unknown as ZstdModule & { default?: ZstdModule };
    const m = typeof mod.init === "function" ? mod : mod.default!;
    await m.init();
    return { compress: (d, level = 3) => m.compress(d, level), decompress: (d) => m.decompress(d) };
  })();
  return loading;
}
