/**
 * Cross-process mutual exclusion through a lock file created with O_EXCL.
 *
 * Used around every read-modify-write of a shared file (the sql.js cache DB,
 * the reconciliation snapshot, Noma documents under patch): take the lock,
 * re-read the file, apply, write atomically, release in `finally`.
 *
 * The lock file holds `{pid, host, token, created}`. A lock is stale when its
 * owner is a dead process on this host, or when it is older than `staleMs`
 * (owners on other hosts, hung processes). A stale lock is broken by renaming
 * it aside and checking that the renamed file is the one judged stale, so two
 * waiters breaking the same stale lock cannot delete each other's fresh lock.
 *
 * Both a synchronous (`withFileLockSync`) and an async (`withFileLock`)
 * form exist; they share the same lock protocol and interoperate.
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { randomBytes } from "node:crypto";

export interface FileLockOptions {
  /** Give up after this long (ms). Default 15 000. */
  timeoutMs?: number;
  /** A lock older than this (ms) is stale whoever holds it. Default 60 000. */
  staleMs?: number;
  /** First retry delay (ms); doubles up to `maxDelayMs`. Default 5. */
  initialDelayMs?: number;
  /** Longest retry delay (ms). Default 100. */
  maxDelayMs?: number;
}

export class LockTimeoutError extends Error {
  readonly code = "lock-timeout";
  constructor(
    readonly lockPath: string,
    readonly holder: string,
  ) {
    super(`could not acquire the lock ${lockPath} (held by ${holder}); if no other process is running, delete that file`);
    this.name = "LockTimeoutError";
  }
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
  created: number;
}

const HOST = hostname();

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readInfo(path: string): { info: LockInfo | null; raw: string; mtimeMs: number } | null {
  let raw: string;
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
    raw = readFileSync(path, "utf8");
  } catch {
    return null; // gone: retry acquiring
  }
  try {
    const v = JSON.parse(raw) as Partial<LockInfo>;
    if (typeof v.pid === "number" && typeof v.host === "string" && typeof v.token === "string" && typeof v.created === "number") {
      return { info: v as LockInfo, raw, mtimeMs };
    }
  } catch {
    /* half-written or foreign: judged by age only */
  }
  return { info: null, raw, mtimeMs };
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isStale(found: { info: LockInfo | null; mtimeMs: number }, staleMs: number, now: number): boolean {
  const created = found.info?.created ?? found.mtimeMs;
  if (now - created > staleMs) return true;
  if (found.info !== null && found.info.host === HOST && found.info.pid !== process.pid) return !processAlive(found.info.pid);
  // A lock file with no readable owner that is young may be mid-write by its creator.
  return found.info === null && now - found.mtimeMs > 2_000;
}

/** Try once to create the lock; returns the token on success, null if it exists. */
function tryCreate(lockPath: string): string | null {
  const token = randomBytes(8).toString("hex");
  const info: LockInfo = { pid: process.pid, host: HOST, token, created: Date.now() };
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o644);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return null;
    if (code === "ENOENT") {
      mkdirSync(dirname(lockPath), { recursive: true });
      return tryCreate(lockPath);
    }
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(info));
  } finally {
    closeSync(fd);
  }
  return token;
}

/** Break a stale lock safely; true if the caller should retry at once. */
function breakStale(lockPath: string, judgedRaw: string): boolean {
  const aside = `${lockPath}.stale.${process.pid}.${randomBytes(4).toString("hex")}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // someone else moved it first
  }
  let movedRaw = "";
  try {
    movedRaw = readFileSync(aside, "utf8");
  } catch {
    /* treat as different */
  }
  if (movedRaw !== judgedRaw) {
    // We moved a fresh lock taken after our judgement: put it back if the slot is still free.
    try {
      linkSync(aside, lockPath);
    } catch {
      /* slot taken again; the moved owner keeps running with its token */
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    /* gone */
  }
  return true;
}

function release(lockPath: string, token: string): void {
  const found = readInfo(lockPath);
  if (found?.info?.token !== token) return; // broken as stale and retaken: not ours any more
  try {
    unlinkSync(lockPath);
  } catch {
    /* already gone */
  }
}

interface Attempt {
  token: string | null;
  delay: number;
  holder: string;
}

function attempt(lockPath: string, staleMs: number): Attempt {
  const token = tryCreate(lockPath);
  if (token !== null) return { token, delay: 0, holder: "" };
  const found = readInfo(lockPath);
  if (found === null) return { token: null, delay: 0, holder: "" };
  if (isStale(found, staleMs, Date.now())) {
    breakStale(lockPath, found.raw);
    return { token: null, delay: 0, holder: "" };
  }
  const holder = found.info !== null ? `pid ${found.info.pid} on ${found.info.host}` : "an unknown process";
  return { token: null, delay: -1, holder };
}

function resolved(options: FileLockOptions): Required<FileLockOptions> {
  return {
    timeoutMs: options.timeoutMs ?? 15_000,
    staleMs: options.staleMs ?? 60_000,
    initialDelayMs: options.initialDelayMs ?? 5,
    maxDelayMs: options.maxDelayMs ?? 100,
  };
}

/** Acquire `lockPath`, blocking the thread between retries; returns a release function. */
export function acquireFileLockSync(lockPath: string, options: FileLockOptions = {}): () => void {
  const o = resolved(options);
  const deadline = Date.now() + o.timeoutMs;
  let delay = o.initialDelayMs;
  for (;;) {
    const a = attempt(lockPath, o.staleMs);
    if (a.token !== null) {
      const token = a.token;
      return () => release(lockPath, token);
    }
    if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, a.holder || "a process that keeps re-taking it");
    if (a.delay === 0) continue;
    sleepSync(delay + Math.random() * delay);
    delay = Math.min(delay * 2, o.maxDelayMs);
  }
}

/** Acquire `lockPath`, yielding to the event loop between retries; returns a release function. */
export async function acquireFileLock(lockPath: string, options: FileLockOptions = {}): Promise<() => void> {
  const o = resolved(options);
  const deadline = Date.now() + o.timeoutMs;
  let delay = o.initialDelayMs;
  for (;;) {
    const a = attempt(lockPath, o.staleMs);
    if (a.token !== null) {
      const token = a.token;
      return () => release(lockPath, token);
    }
    if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, a.holder || "a process that keeps re-taking it");
    if (a.delay === 0) continue;
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, o.maxDelayMs);
  }
}

/** Run `fn` while holding the lock at `lockPath` (synchronous); the lock is always released. */
export function withFileLockSync<T>(lockPath: string, fn: () => T, options: FileLockOptions = {}): T {
  const release = acquireFileLockSync(lockPath, options);
  try {
    return fn();
  } finally {
    release();
  }
}

/** Run `fn` while holding the lock at `lockPath`; the lock is always released. */
export async function withFileLock<T>(lockPath: string, fn: () => T | Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const release = await acquireFileLock(lockPath, options);
  try {
    return await fn();
  } finally {
    release();
  }
}
