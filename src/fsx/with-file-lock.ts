/**
 * Cross-process mutual exclusion through a lock file created with O_EXCL.
 *
 * Used around every read-modify-write of a shared file (the sql.js cache DB,
 * the reconciliation snapshot, Noma documents under patch): take the lock,
 * re-read the file, apply, write atomically, release in `finally`.
 *
 * The lock file holds `{pid, host, token, created, start?, cmd?}` (`start`: the
 * owner's start time where the OS shows it, Linux's /proc; `cmd`: its command
 * line, shortened, for the message a waiter prints). It is written to a temp
 * file and linked into place, so a lock file is never seen empty or half
 * written (an owner stopped between creating and writing it would otherwise
 * look ownerless). A live owner's lock is never broken on age alone:
 *
 * - an owner on this host is judged by its process: the lock is stale when the
 *   pid is dead (`kill(pid, 0)`; EPERM means alive; a zombie — exited, not yet
 *   reaped — is dead), or alive but started at
 *   another time than the owner (the pid was reused), or is this very process
 *   without holding that lock (an earlier process with the same pid, as in
 *   containers). A live owner keeps its lock however long it works.
 * - an owner on another host (its pid means nothing here) is judged by its
 *   heartbeat: the lock is stale when its mtime is older than `staleMs`. The
 *   async form touches the lock every `staleMs / 4` while `fn` runs (an
 *   unref'd timer, so it never keeps a process alive); the sync form cannot
 *   beat while it blocks, so `fn` is given `refresh()` to call between long
 *   steps (our sync holders — a document patch — take milliseconds).
 * - a lock with no readable owner (foreign, or left by an older version mid-write)
 *   is stale once its mtime is 2 s old.
 *
 * Every wait is bounded: `timeoutMs`, else the process default
 * (`setDefaultLockTimeout`: the CLI's `--lock-timeout`, else `lock_timeout` of
 * `.notarai/config.yaml`), else DEFAULT_LOCK_TIMEOUT_MS (15 s). It may be a
 * function, called only when the lock is found taken (so an uncontended lock never
 * reads the configuration). A wait that times out throws LockTimeoutError, an
 * expected condition (exit 2), whose one-line message names the lock file, its
 * holder (pid, host, command, whether it is stopped, since when) and what to do.
 *
 * A stale lock is broken by renaming it aside and checking that the renamed
 * file is the one judged stale, so two waiters breaking the same stale lock
 * cannot delete each other's fresh lock.
 *
 * Both a synchronous (`withFileLockSync`) and an async (`withFileLock`)
 * form exist; they share the same lock protocol and interoperate.
 */
import { NomaError } from "../errors/noma-error.js";
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { basename, dirname } from "node:path";
import { randomBytes } from "node:crypto";

import { DEFAULT_LOCK_TIMEOUT_MS } from "./lock-wait-default.js";

export { DEFAULT_LOCK_TIMEOUT_MS };

/** A wait in ms, or a function giving it, called only when the lock is found taken. */
export type LockTimeout = number | (() => number);

let processDefault: LockTimeout | undefined;

/**
 * The wait of every lock this process takes without its own `timeoutMs` (undefined:
 * DEFAULT_LOCK_TIMEOUT_MS). Set once by a command or server from `--lock-timeout` or
 * the configuration's `lock_timeout`.
 */
export function setDefaultLockTimeout(timeout: LockTimeout | undefined): void {
  processDefault = timeout;
}

export interface FileLockOptions {
  /** Give up after this long (ms). Default: the process default (setDefaultLockTimeout), else 15 000. */
  timeoutMs?: LockTimeout;
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

/** Who holds a lock, as its file and the OS tell (null fields: not known). */
export interface LockOwner {
  pid: number | null;
  host: string | null;
  /** Its command line as it recorded it (or /proc shows it), shortened. */
  cmd: string | null;
  /** When it took the lock (ms since the epoch). */
  since: number | null;
  /** On this host: "stopped" (SIGSTOP, Ctrl-Z) or "running"; null elsewhere or unknown. */
  state: "running" | "stopped" | null;
}

/** A lock still held by another process when the wait ran out: an expected condition (exit 2), not a bug. */
export class LockTimeoutError extends NomaError {
  static override readonly errorName: string = "LockTimeoutError";
  constructor(
    readonly lockPath: string,
    /** "pid N on HOST", or a description when the file names no owner. */
    readonly holder: string,
    message: string,
    readonly owner: LockOwner | null = null,
    readonly waitedMs = 0,
  ) {
    super("lock-timeout", message);
  }
}

interface LockInfo {
  pid: number;
  host: string;
  token: string;
  created: number;
  /** The owner's start time as the OS reports it (Linux: /proc/<pid>/stat field 22), when known. */
  start?: string;
  /** The owner's command line, shortened (for the message of a waiter that gives up). */
  cmd?: string;
}

const HOST = hostname();

/** Tokens of the locks this process holds (a lock with our pid and another token is an earlier process's). */
const HELD = new Set<string>();

/** A process's state letter (field 3) and start time (field 22, clock ticks since boot) from /proc, or null where there is none. */
function procStat(pid: number): { state: string; start: string | null } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after "(comm)": state is field 3, starttime field 22.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: fields[0] ?? "", start: fields[19] ?? null };
  } catch {
    return null;
  }
}

/** A process's start time (clock ticks since boot) from /proc, or null where there is none. */
export function processStart(pid: number): string | null {
  return procStat(pid)?.start ?? null;
}

const OWN_START = processStart(process.pid);

/** Longest command line recorded in a lock file (an `--op` argument may be a whole document). */
const MAX_CMD = 200;

/** `argv` as a shell-like line: our bin as `noma-reconcile`, long arguments shortened, the whole bounded. */
export function commandLine(argv: readonly string[]): string {
  const [exe = "node", script, ...args] = argv;
  const head =
    script === undefined ? [basename(exe)] : /(?:^|[\\/])(?:noma-reconcile|dist[\\/]cli\.c?js)$/.test(script) ? ["noma-reconcile"] : [basename(exe), script];
  const quote = (a: string): string => {
    const s = a.length > 60 ? `${a.slice(0, 57)}…` : a;
    return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`;
  };
  const line = [...head, ...args.map(quote)].join(" ").replace(/[\u0000-\u001f\u007f]/g, " ");
  return line.length > MAX_CMD ? `${line.slice(0, MAX_CMD - 1)}…` : line;
}

const OWN_CMD = commandLine(process.argv);

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
  // No readable owner: a foreign file, or one an older version was writing in place.
  if (info === null) return now - found.mtimeMs > 2_000;
  if (info.host !== HOST) return now - found.mtimeMs > staleMs;
  if (info.pid === process.pid) return !HELD.has(info.token);
  if (!processAlive(info.pid)) return true;
  const stat = procStat(info.pid);
  // A zombie has exited (its parent has not reaped it yet): it will never release the lock.
  if (stat?.state === "Z") return true;
  // Alive: the owner, unless the pid now belongs to a process started at another time.
  if (info.start !== undefined && stat !== null && stat.start !== null && stat.start !== info.start) return true;
  return false;
}

/** Link errors meaning the file system has no hard links: fall back to O_EXCL create-then-write. */
const NO_LINKS = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/** Try once to create the lock; returns the token on success, null if it exists. */
function tryCreate(lockPath: string): string | null {
  const token = randomBytes(8).toString("hex");
  const info: LockInfo = { pid: process.pid, host: HOST, token, created: Date.now(), ...(OWN_START !== null ? { start: OWN_START } : {}), cmd: OWN_CMD };
  const text = JSON.stringify(info);
  // Written whole beside the lock, then linked into place: the lock file appears with its owner in it.
  const tmp = `${lockPath}.${token}.tmp`;
  try {
    writeFileSync(tmp, text, { flag: "wx", mode: 0o644 });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    mkdirSync(dirname(lockPath), { recursive: true });
    return tryCreate(lockPath);
  }
  HELD.add(token);
  try {
    linkSync(tmp, lockPath);
    return token;
  } catch (e) {
    HELD.delete(token);
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return null;
    if (code !== undefined && NO_LINKS.has(code)) return createInPlace(lockPath, token, text);
    throw e;
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      /* gone */
    }
  }
}

/** O_EXCL create, then write (file systems without hard links): briefly empty, judged by age while so. */
function createInPlace(lockPath: string, token: string, text: string): string | null {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return null;
    throw e;
  }
  HELD.add(token);
  try {
    writeSync(fd, text);
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

type Found = NonNullable<ReturnType<typeof readInfo>>;

interface Attempt {
  token: string | null;
  delay: number;
  /** The live holder that kept the lock (delay -1). */
  found: Found | null;
}

function attempt(lockPath: string, staleMs: number): Attempt {
  const token = tryCreate(lockPath);
  if (token !== null) return { token, delay: 0, found: null };
  const found = readInfo(lockPath);
  if (found === null) return { token: null, delay: 0, found: null };
  if (isStale(found, staleMs, Date.now())) {
    breakStale(lockPath, found.raw);
    return { token: null, delay: 0, found: null };
  }
  return { token: null, delay: -1, found };
}

/** The wait in ms: `timeout`, else the process default, else DEFAULT_LOCK_TIMEOUT_MS. */
export function resolveLockTimeout(timeout?: LockTimeout): number {
  const t = timeout ?? processDefault ?? DEFAULT_LOCK_TIMEOUT_MS;
  const ms = typeof t === "function" ? t() : t;
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 0)
    throw new RangeError(`a lock timeout is a finite number of milliseconds ≥ 0; got ${String(ms)}`);
  return ms;
}

interface Resolved {
  timeoutMs: LockTimeout | undefined;
  staleMs: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

function resolved(options: FileLockOptions): Resolved {
  return {
    timeoutMs: options.timeoutMs,
    staleMs: options.staleMs ?? 60_000,
    initialDelayMs: options.initialDelayMs ?? 5,
    maxDelayMs: options.maxDelayMs ?? 100,
  };
}

/** A local wall-clock time, `YYYY-MM-DD HH:MM:SS`. */
function localTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

/** A duration for people: `42 s`, `3 min 5 s`, `2 h 4 min`, `3 days`. */
export function formatAge(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  const h = Math.floor(m / 60);
  return h < 48 ? `${h} h ${m % 60} min` : `${Math.floor(h / 24)} days`;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** The command line of a live process on this host (Linux /proc), shortened, or null. */
function liveCommand(pid: number): string | null {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (argv[argv.length - 1] === "") argv.pop();
    return argv.length > 0 ? commandLine(argv) : null;
  } catch {
    return null;
  }
}

/** Who holds the lock `found` describes. */
export function lockOwner(found: { info: LockInfo | null; mtimeMs: number }): LockOwner {
  const info = found.info;
  if (info === null) return { pid: null, host: null, cmd: null, since: found.mtimeMs, state: null };
  const here = info.host === HOST;
  const state = here ? procStat(info.pid)?.state : undefined;
  return {
    pid: info.pid,
    host: info.host,
    cmd: info.cmd ?? (here ? liveCommand(info.pid) : null),
    since: info.created,
    state: state === undefined ? null : state === "T" || state === "t" ? "stopped" : "running",
  };
}

/** The one line a waiter that gives up prints: the lock, its holder, since when, what to do. */
function timeoutError(lockPath: string, found: Found | null, timeoutMs: number, waitedMs: number, now: number): LockTimeoutError {
  const waited = `timed out after ${seconds(timeoutMs)} waiting for the lock ${lockPath}`;
  const onlyIfGone = `delete ${lockPath} only if no such process exists`;
  if (found === null) {
    // Taken and released over and over by others, never free when we looked.
    return new LockTimeoutError(
      lockPath,
      "other processes",
      `${waited}: other processes kept taking it; retry, or wait longer (--lock-timeout SECONDS, or lock_timeout in .notarai/config.yaml)`,
      null,
      waitedMs,
    );
  }
  const h = lockOwner(found);
  const since = h.since !== null ? `since ${localTime(h.since)} (${formatAge(now - h.since)} ago)` : "";
  if (h.pid === null) {
    const written = h.since !== null ? ` (written ${localTime(h.since)}, ${formatAge(now - h.since)} ago)` : "";
    return new LockTimeoutError(
      lockPath,
      "an unknown process",
      `${waited}: the lock file names no owner${written}; if no noma-reconcile process is running, delete ${lockPath}`,
      h,
      waitedMs,
    );
  }
  const holder = `pid ${h.pid} on ${h.host}`;
  const who = `${holder}${h.cmd !== null ? ` (${h.cmd})` : ""}`;
  let advice: string;
  if (h.host !== HOST) advice = `that process runs on another host: wait for it to finish, or end it there; ${onlyIfGone} on ${h.host}`;
  else if (h.state === "stopped")
    advice = `that process is stopped (SIGSTOP or Ctrl-Z): resume it (kill -CONT ${h.pid}) or end it (kill ${h.pid}); ${onlyIfGone}`;
  else advice = `wait for it to finish, or, if it is hung, end it (kill ${h.pid}); ${onlyIfGone}`;
  return new LockTimeoutError(lockPath, holder, `${waited}: held by ${who} ${since}; ${advice}`, h, waitedMs);
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
  const started = Date.now();
  let timeoutMs: number | undefined;
  let quick = 0;
  let delay = o.initialDelayMs;
  for (;;) {
    const a = attempt(lockPath, o.staleMs);
    if (a.token !== null) return held(lockPath, a.token, null);
    // The timeout is looked up only now that the lock is found taken.
    timeoutMs ??= resolveLockTimeout(o.timeoutMs);
    const deadline = started + timeoutMs;
    const now = Date.now();
    // Broken as stale, or released meanwhile: try again at once (a few times even past the deadline, so a zero wait still takes a free lock).
    if (a.delay === 0 && (now < deadline || quick++ < 3)) continue;
    if (now >= deadline) throw timeoutError(lockPath, a.found, timeoutMs, now - started, now);
    // Never past the deadline: the last attempt is made when the wait runs out.
    sleepSync(Math.min(delay + Math.random() * delay, Math.max(1, deadline - now)));
    delay = Math.min(delay * 2, o.maxDelayMs);
  }
}

/** Acquire `lockPath`, yielding to the event loop between retries; returns a release function. The lock beats (refreshes its mtime) until released. */
export async function acquireFileLock(lockPath: string, options: FileLockOptions = {}): Promise<HeldLock> {
  const o = resolved(options);
  const started = Date.now();
  let timeoutMs: number | undefined;
  let quick = 0;
  let delay = o.initialDelayMs;
  for (;;) {
    const a = attempt(lockPath, o.staleMs);
    if (a.token !== null) return held(lockPath, a.token, o.staleMs);
    timeoutMs ??= resolveLockTimeout(o.timeoutMs);
    const deadline = started + timeoutMs;
    const now = Date.now();
    if (a.delay === 0 && (now < deadline || quick++ < 3)) continue;
    if (now >= deadline) throw timeoutError(lockPath, a.found, timeoutMs, now - started, now);
    const wait = Math.min(delay + Math.random() * delay, Math.max(1, deadline - now));
    await new Promise((r) => setTimeout(r, wait));
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
