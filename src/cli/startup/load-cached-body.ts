/**
 * Command bodies with a compile cache, on every Node version.
 *
 * A one-shot `check` or `patch` spends a good part of its time compiling JavaScript: each
 * module's source when it loads, then each function the first time it runs (V8 compiles
 * lazily), and the parser and validator are a few hundred functions. Node ≥ 22.1 can keep
 * that work between runs (`module.enableCompileCache`, which main.ts turns on); Node 20 cannot
 * for ES modules. So the build also writes the hot commands as one CommonJS file each
 * (dist/bodies/<name>.cjs, from src/cli/bodies/), and this module compiles such a file with
 * V8's code cache: the first run compiles from source and, once the command is done, saves
 * the code V8 holds for it — the functions that ran included — and the next runs start from
 * it (what it gains: docs/perf/check.md).
 *
 * The cache file (compile-cache-dir.ts says where, and refuses places others could write)
 * is named after the body's content hash from the build, the Node version, the architecture
 * and whether the short-run V8 flag was set before compiling (V8 refuses code made under
 * other flags). Its header carries the payload's length and checksum (cache-checksum.ts; it
 * was SHA-256, whose node:crypto was the costliest thing a `check` loaded at start), checked
 * before V8 sees a byte: V8's own check is the length of the source only, and a torn or
 * flipped file must mean "compile from source", never a crash. It is written once, atomically (temp file,
 * fsync, rename: two commands finishing together each rename a whole file), after the command
 * ran, and only when the V8 flags are still those it was compiled under. Writing one removes
 * the body's oldest files beyond the newest KEEP_CACHE_FILES (upgrades would pile them up).
 *
 * Nothing here changes what a command does: with `NOMA_RECONCILE_COMPILE_CACHE=0` (or Node's
 * own `NODE_DISABLE_COMPILE_CACHE=1`), without a usable directory, or when the body file is
 * missing, the command's ES module is imported as before.
 */
import { isAscii } from "node:buffer";
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readFileSync, readSync, unlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { cacheChecksum } from "./cache-checksum.js";
import { compileCacheDir, trustedCacheDir } from "./compile-cache-dir.js";
import { beforeV8FlagChange, prepareShortRunJit, SHORT_RUN_JIT_MIN_CHARS, shortRunJitApplied, v8FlagChanges } from "./prepare-short-run-jit.js";

declare const __NOMA_RECONCILE_BODIES__: string | undefined;

/** What the build says of a body: its content hash, and the Node built-ins it requires. */
interface BodyInfo {
  id: string;
  builtins: string[];
}

/** Header: magic and payload length (little-endian u32 each), then the payload's checksum (8 bytes). */
const MAGIC = 0x3343524e; // "NRC3" ("NRC2" files, framed with SHA-256, are foreign now: replaced on their next use)
const HEADER = 16;
/** Larger files are not read (a body's cache is well under a megabyte). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** The atomic writer of src/fsx/write-file-atomic.ts (loaded on first use: it loads node:crypto). */
type WriteFileAtomic = typeof import("../../fsx/write-file-atomic.js").writeFileAtomic;

/** A loaded body: its exports, and `settle` to call once the command is done (saves the cache when due). */
export interface CachedBody<T> {
  exports: T;
  settle(): Promise<void>;
  /**
   * Save the cache when the process exits, if `settle` has not: for a server whose library ends the
   * process itself (the language server's protocol library calls process.exit on `exit`). The writer
   * is passed in, loaded beforehand: nothing can be loaded asynchronously once the process exits.
   */
  saveAtExit(write: WriteFileAtomic): void;
}

/** The build's word on body `name`, or undefined when running from source. */
function bodyInfo(name: string): BodyInfo | undefined {
  return typeof __NOMA_RECONCILE_BODIES__ === "string" ? (JSON.parse(__NOMA_RECONCILE_BODIES__) as Record<string, BodyInfo>)[name] : undefined;
}

/**
 * Load the Node built-ins body `name` requires, now. Called before the short-run V8 flag is
 * set: a built-in loaded after a flag change loses Node's own code cache (and loads slower),
 * and the body, compiled after it, requires them only then.
 */
function preloadBodyBuiltins(name: string, more: readonly string[] = []): void {
  const info = bodyInfo(name);
  if (info === undefined) return;
  const require = createRequire(import.meta.url);
  for (const id of [...info.builtins, ...more]) require(id);
}

/** The payload of a cache file's bytes, or undefined when its header does not vouch for it. */
export function cachePayload(file: Uint8Array): Buffer | undefined {
  if (file.length <= HEADER) return undefined;
  const head = new DataView(file.buffer, file.byteOffset, 8);
  if (head.getUint32(0, true) !== MAGIC || head.getUint32(4, true) !== file.length - HEADER) return undefined;
  const payload = Buffer.from(file.buffer, file.byteOffset + HEADER, file.length - HEADER);
  return cacheChecksum(payload).equals(file.subarray(8, HEADER)) ? payload : undefined;
}

/** A cache file's bytes for `payload`. */
export function cacheFileBytes(payload: Uint8Array): Buffer {
  const out = Buffer.alloc(HEADER + payload.length);
  out.set(payload, HEADER);
  out.writeUInt32LE(MAGIC, 0);
  out.writeUInt32LE(payload.length, 4);
  cacheChecksum(payload).copy(out, 8);
  return out;
}

/** Read a whole file opened without following a link; only a regular file of this user's, under the size cap. */
function readOwnFile(path: string, maxBytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    if (process.platform !== "win32" && st.uid !== process.getuid?.()) return undefined;
    const buf = Buffer.allocUnsafeSlow(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) return undefined;
      off += n;
    }
    return buf;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

export interface LoadCachedBodyOptions {
  /**
   * The documents the command is about to parse (paths as given, from the working directory).
   * When their bytes reach SHORT_RUN_JIT_MIN_CHARS, the short-run V8 flag is set now, before
   * the body compiles, so that the cache made afterwards is one V8 accepts next time (the
   * command would set it before parsing anyway); the body's built-ins are loaded first.
   */
  inputs?: readonly string[];
  /** More built-ins to load before the flag: ones this run will need that the body loads lazily (node:child_process for git). */
  builtins?: readonly string[];
  /** This bundle's path (dist/cli.cjs); the bodies are in bodies/ beside it. */
  here?: string;
  /**
   * The name its cache files take (default: the body's). The shared body of the less frequent
   * commands (bodies/commands.cjs) keeps one per command: each command's file holds the
   * functions that command ran, compiled.
   */
  cacheName?: string;
  /**
   * Take the code cache right before the command first changes V8's flags (the WebAssembly
   * tiering of a short run that loads SQLite), and write it once the command is done: code
   * compiled up to then, which V8 accepts in a process started without the flag. Without it, a
   * command that always sets the flag would never write a cache.
   */
  cacheBeforeFlagChange?: boolean;
}

/**
 * The V8 flags Node was started with (its options on the command line and in NODE_OPTIONS),
 * as a short suffix: V8 refuses code cached under other flags, so a user who runs with two
 * sets (an editor's NODE_OPTIONS and a terminal's) keeps one cache file for each instead of
 * rewriting one at every switch. Empty without any.
 */
function flagsKey(env: NodeJS.ProcessEnv): string {
  const flags = `${process.execArgv.join("\0")}\n${env["NODE_OPTIONS"] ?? ""}`;
  return flags === "\n" ? "" : `-f${cacheChecksum(Buffer.from(flags, "utf8")).toString("hex").slice(0, 12)}`;
}

/** Total bytes of the regular files among `paths` (links and missing ones count 0). */
function inputBytes(paths: readonly string[]): number {
  let total = 0;
  for (const p of paths) {
    const st = lstatSync(resolve(p), { throwIfNoEntry: false });
    if (st?.isFile() === true) total += st.size;
  }
  return total;
}

/**
 * Load body `name` (dist/bodies/<name>.cjs beside this bundle) through the compile cache, or
 * answer undefined when it is not to be used here (then import the command's module instead).
 */
export function loadCachedBody<T>(name: string, env: NodeJS.ProcessEnv, options: LoadCachedBodyOptions = {}): CachedBody<T> | undefined {
  const id = bodyInfo(name)?.id;
  const dir = compileCacheDir(env);
  if (id === undefined || dir === undefined) return undefined;
  const file = join(dirname(options.here ?? fileURLToPath(import.meta.url)), "bodies", `${name}.cjs`);
  const source = readOwnSource(file);
  if (source === undefined) return undefined;
  // node:vm on this path only (the bin's other commands never load it), and before the flag.
  const { Script } = createRequire(import.meta.url)("node:vm") as typeof import("node:vm");
  if (
    options.inputs !== undefined &&
    options.inputs.length > 0 &&
    env["NOMA_RECONCILE_JIT"] !== "default" &&
    !shortRunJitApplied() &&
    inputBytes(options.inputs) >= SHORT_RUN_JIT_MIN_CHARS
  ) {
    preloadBodyBuiltins(name, options.builtins);
    prepareShortRunJit(env);
  }
  const jit = shortRunJitApplied();
  const flags = v8FlagChanges();
  const cacheName = options.cacheName ?? name;
  const cacheFile = join(dir, `${cacheName}-${id.slice(0, 16)}-${process.version}-${process.arch}${jit ? "-jit" : ""}${flagsKey(env)}.bin`);
  const trusted = trustedCacheDir(dir, false);
  const cachedData = trusted
    ? (() => {
        const bytes = readOwnFile(cacheFile, MAX_CACHE_BYTES);
        return bytes === undefined ? undefined : cachePayload(bytes);
      })()
    : undefined;
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData !== undefined ? { cachedData } : {}),
  });
  // Accepted by V8: nothing to write afterwards.
  const fromCache = cachedData !== undefined && !script.cachedDataRejected;
  const mod = { exports: {} as T };
  // The code cache as it was right before the flags changed (cacheBeforeFlagChange).
  let taken: Buffer | undefined;
  if (!fromCache && options.cacheBeforeFlagChange === true)
    beforeV8FlagChange(() => {
      if (v8FlagChanges() === flags) taken = script.createCachedData();
    });
  (script.runInThisContext() as (...args: unknown[]) => void).call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  let saved = false;
  // Once per (body, Node, flags); never from code compiled under flags that changed since (V8 would refuse it).
  const due = () => !saved && !fromCache && (v8FlagChanges() === flags || taken !== undefined);
  const save = (write: WriteFileAtomic): void => {
    saved = true;
    try {
      if (!trustedCacheDir(dir, true)) return;
      write(cacheFile, cacheFileBytes(taken ?? script.createCachedData()), { mode: 0o600 });
      pruneCacheFiles(dir, cacheName, cacheFile);
    } catch {
      /* a cache that cannot be written is only a slower next run */
    }
  };
  return {
    exports: mod.exports,
    async settle() {
      if (due()) save((await import("../../fsx/write-file-atomic.js")).writeFileAtomic);
    },
    saveAtExit(write) {
      process.once("exit", () => {
        if (due()) save(write);
      });
    },
  };
}

/** Cache files kept per body: the newest, by when they were written (each is written once). */
export const KEEP_CACHE_FILES = 8;

/**
 * After a new cache file for body `name` is written: remove that body's older ones beyond the
 * newest KEEP_CACHE_FILES. Each upgrade, Node version and set of Node options adds a file
 * that nothing would ever remove. Only files named as ours and that are regular
 * files of this user (never a link, never another name) are touched; `kept` never. Not
 * "every file but this one": two installed versions of noma-reconcile share the directory,
 * and each would delete the other's at every run.
 */
function pruneCacheFiles(dir: string, name: string, kept: string): void {
  const ours = new RegExp(`^${name}-[0-9a-f]{16}-v[0-9.]+-[a-z0-9]+(-jit)?(-f[0-9a-f]{12})?\\.bin$`);
  const uid = process.getuid?.();
  const found: Array<{ path: string; mtimeMs: number }> = [];
  for (const entry of readdirSync(dir)) {
    if (!ours.test(entry)) continue;
    const path = join(dir, entry);
    if (path === kept) continue;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (st === undefined || !st.isFile() || (uid !== undefined && st.uid !== uid)) continue;
    found.push({ path, mtimeMs: st.mtimeMs });
  }
  found.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const { path } of found.slice(KEEP_CACHE_FILES - 1)) {
    try {
      unlinkSync(path);
    } catch {
      /* gone already, or not ours to remove */
    }
  }
}

/** The body's source: ASCII as built (scripts/build.mjs checks), so decoded one byte per character. */
function readOwnSource(file: string): string | undefined {
  try {
    const bytes = readFileSync(file);
    return bytes.toString(isAscii(bytes) ? "latin1" : "utf8");
  } catch {
    return undefined;
  }
}
