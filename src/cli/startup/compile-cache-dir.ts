/**
 * Where the CLI keeps the compiled code of its command bodies (load-cached-body.ts), and
 * whether that place may be trusted.
 *
 * Compiled code is code: a cache file someone else could write would run as the user. So a
 * directory is used only when it is a real directory (not a link), owned by the user running
 * the command and writable by nobody else; otherwise the CLI compiles from source every time,
 * silently (the output never depends on the cache).
 */
import { lstatSync, mkdirSync } from "node:fs";
import { dirname, posix, resolve, win32 } from "node:path";

/** The directory for this user and platform, or undefined when the cache is off or there is no home. */
export function compileCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env["NOMA_RECONCILE_COMPILE_CACHE"] === "0" || env["NODE_DISABLE_COMPILE_CACHE"] === "1") return undefined;
  const explicit = env["NOMA_RECONCILE_COMPILE_CACHE_DIR"];
  if (explicit !== undefined && explicit !== "") return resolve(explicit);
  const path = platform === "win32" ? win32 : posix;
  const under = (base: string | undefined, ...rest: string[]): string | undefined =>
    base !== undefined && base !== "" && path.isAbsolute(base) ? path.join(base, ...rest, "noma-reconcile", "compile-cache") : undefined;
  if (platform === "win32") return under(env["LOCALAPPDATA"]);
  return under(env["XDG_CACHE_HOME"]) ?? under(env["HOME"], ".cache");
}

/**
 * True when `dir` is a directory (not a link) owned by this user and not writable by group
 * or others. With `create`, a missing one is made first (mode 0700). Never throws.
 */
export function trustedCacheDir(dir: string, create: boolean): boolean {
  try {
    if (create) makeDirs(dir, 0);
    const st = lstatSync(dir, { throwIfNoEntry: false });
    if (st === undefined || !st.isDirectory()) return false;
    if (process.platform === "win32") return true; // per-user profile directory; POSIX modes do not apply
    return st.uid === process.getuid?.() && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * mkdir -p, one level at a time. Not `mkdirSync(dir, { recursive: true })`: on Node 20 that
 * loops for ever when a parent exists but refuses children with ENOENT (a cache directory
 * under /proc: the command never exited).
 */
function makeDirs(dir: string, depth: number): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
    return;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return;
    if (code !== "ENOENT" || depth > 64 || dirname(dir) === dir) throw e;
  }
  makeDirs(dirname(dir), depth + 1);
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
}
