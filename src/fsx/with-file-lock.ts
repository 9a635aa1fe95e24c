/**
 * Cross-process mutual exclusion through a lock file created with O_EXCL.
 *
 * Used around every read-modify-write of a shared file (the sql.js cache DB,
 * the reconciliation snapshot, Noma documents under patch): take the lock,
 * re-read the file, apply, write atomically, release in `finally`.
 *
 * The lock file holds `{pid, host, token, created, start?}` (`start`: the
 * owner's start time where the OS shows it, Linux's /proc). A live owner's lock
 * is never broken on age alone:
 *
 * - an owner on this host is judged by its process: the lock is stale when the
 *   pid is dead (`kill(pid, 0)`; EPERM means alive), or alive but started at
 *   another time than the owner (the pid was reused), or is this very process
 *   without holding that lock (an earlier process with the same pid, as in
 *   containers). A live owner keeps its lock however long it works.
 * - an owner on another host (its pid means nothing here) is judged by its
 *   heartbeat: the lock is stale when its mtime is older than `staleMs`. The
 *   async form touches the lock every `staleMs / 4` while `fn` runs (an
 *   unref'd timer, so it never keeps a process alive); the sync form cannot
 *   beat while it blocks, so `fn` is given `refresh()` to call between long
 *   steps (our sync holders — a document patch — take milliseconds).
 * - a lock with no readable owner (being written, or foreign) is stale once
 *   its mtime is 2 s old.
 *
 * A stale lock is broken by renaming it aside and checking that the renamed
 * file is the one judged stale, so two waiters breaking the same stale lock
 * cannot delete each other's fresh lock.
 *
 * Both a synchronous (`withFileLockSync`) and an async (`withFileLock`)
 * form exist; they share the same lock protocol and interoperate.
 */
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { dirname } from "node:path";
import { randomBytes } from "node:crypto";

export interface FileLockOptions {
  /** Give up after this long (ms). Default 15 000. */
  timeoutMs?: number;
  /**
   * A lock whose owner on another host has not refreshed it (its mtime) for this long (ms)
   * is stale; the async form refreshes its own every staleMs / 4. Owners on this host are
   * judged by their process, never by age. Default 60 000.
   */
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
  /** The owner's start time as the OS reports it (Linux: /proc/<pid>/stat field 22), when known. */
  start?: string;
}

const HOST = hostname();

/** Tokens of the locks this process holds (a lock with our pid and another token is an earlier process's). */
const HELD = new Set<string>();

/** A process's start time (clock ticks since boot) from /proc, or null where there is none. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state is field 3, starttime field 22.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19] ?? null;
  } catch {
    return null;
  }
}

const OWN_START = processStart(process.pid);

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
  const info = found.info;
  // A lock file with no readable owner that is young may be mid-write by its creator.
  if (info === null) return now - found.mtimeMs > 2_000;
  if (info.host !== HOST) return now - found.mtimeMs > staleMs;
  if (info.pid === process.pid) return !HELD.has(info.token);
  if (!processAlive(info.pid)) return true;
  // Alive: the owner, unless the pid now belongs to a process started at another time.
  if (info.start !== undefined) {
    const start = processStart(info.pid);
    if (start !== null && start !== info.start) return true;
  }
  return false;
}

/** Try once to create the lock; returns the token on success, null if it exists. */
function tryCreate(lockPath: string): string | null {
  const token = randomBytes(8).toString("hex");
  const info: LockInfo = { pid: process.pid, host: HOST, token, created: Date.now(), ...(OWN_START !== null ? { start: OWN_START } : {}) };
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
  HELD.add(token);
  try {
    writeSync(fd, JSON.stringify(info));
  } finally {
    closeSync(fd);
  }
  return token;
}

/** Touch the lock's mtime if it is still ours (the heartbeat owners on other hosts are judged by). */
function refreshLock(lockPath: string, token: string): void {
  if (readInfo(lockPath)?.info?.token !== token) return;
  try {
    const now = new Date();
    utimesSync(lockPath, now, now);
  } catch {
    /* gone: released or broken */
  }
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
  HELD.delete(token);
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

/** A held lock: release it (idempotent), or refresh its heartbeat. */
export interface HeldLock {
  (): void;
  release(): void;
  /** Touch the lock's mtime (the heartbeat owners on other hosts are judged by). */
  refresh(): void;
}

function held(lockPath: string, token: string, staleMs: number | null): HeldLock {
  let done = false;
  // The async form beats on its own; the timer never keeps the process alive.
  const timer = staleMs === null ? null : setInterval(() => refreshLock(lockPath, token), Math.max(10, Math.floor(staleMs / 4)));
  timer?.unref();
  const releaseOnce = (): void => {
    if (done) return;
    done = true;
    if (timer !== null) clearInterval(timer);
    release(lockPath, token);
  };
  return Object.assign(releaseOnce, { release: releaseOnce, refresh: () => (done ? undefined : refreshLock(lockPath, token)) });
}

/** Acquire `lockPath`, blocking the thread between retries; returns a release function (with `refresh()`: call it between long steps). */
export function acquireFileLockSync(lockPath: string, options: FileLockOptions = {}): HeldLock {
  const o = resolved(options);
  const deadline = Date.now() + o.timeoutMs;
  let delay = o.initialDelayMs;
  for (;;) {
    const a = attempt(lockPath, o.staleMs);
    if (a.token !== null) return held(lockPath, a.token, null);
    if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, a.holder || "a process that keeps re-taking it");
    if (a.delay === 0) continue;
    sleepSync(delay + Math.random() * delay);
    delay = Math.min(delay * 2, o.maxDelayMs);
  }
}

/** Acquire `lockPath`, yielding to the event loop between retries; returns a release function. The lock beats (refreshes its mtime) until released. */
export async function acquireFileLock(lockPath: string, options: FileLockOptions = {}): Promise<HeldLock> {
  const o = resolved(options);
  const deadline = Date.now() + o.timeoutMs;
  let delay = o.initialDelayMs;
  for (;;) {
    const a = attempt(lockPath, o.staleMs);
    if (a.token !== null) return held(lockPath, a.token, o.staleMs);
    if (Date.now() >= deadline) throw new LockTimeoutError(lockPath, a.holder || "a process that keeps re-taking it");
    if (a.delay === 0) continue;
    await new Promise((r) => setTimeout(r, delay + Math.random() * delay));
    delay = Math.min(delay * 2, o.maxDelayMs);
  }
}

/**
 * Run `fn` while holding the lock at `lockPath` (synchronous); the lock is always released.
 * A blocked thread cannot beat: `fn` may call `lock.refresh()` between long steps. (Owners on
 * this host are judged by their process and keep the lock regardless; only owners on other
 * hosts are judged by the heartbeat.)
 */
export function withFileLockSync<T>(lockPath: string, fn: (lock: HeldLock) => T, options: FileLockOptions = {}): T {
  const lock = acquireFileLockSync(lockPath, options);
  try {
    return fn(lock);
  } finally {
    lock.release();
  }
}

/** Run `fn` while holding the lock at `lockPath`, refreshing it every staleMs / 4 while `fn` awaits; the lock is always released. */
export async function withFileLock<T>(lockPath: string, fn: (lock: HeldLock) => T | Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const lock = await acquireFileLock(lockPath, options);
  try {
    return await fn(lock);
  } finally {
    lock.release();
  }
}
