/**
 * The one way the product runs another program (the workspace tools' commands, the
 * configured test and build commands, the run loop's agents; git has its own runner in
 * src/git/): argv only (never a shell), with exactly the environment given, stdin closed
 * or given text, a timeout, and an abort signal. On POSIX the command leads its own
 * process group, so a timeout or an abort kills everything it started — SIGTERM, then
 * SIGKILL after a grace period — and, unless told otherwise, once the command itself has
 * exited anything it left running in its group is killed too, so no stray process
 * outlives the request or holds its output open.
 *
 * Output goes to a sink: captured (each stream keeps at most `maxOutputBytes`: the first
 * and the last halves, with a marker saying how many bytes were left out between them,
 * `truncated: true`), or written straight into files (an agent's logs). A program that
 * speaks a protocol over its stdio (an ACP agent) is run with `interact`: its stdin and
 * stdout are handed to the caller as pipes, stderr still goes to the sink, and the
 * timeout, the abort signal and the process-group kill work as for any other program.
 */
import { spawn } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { closeSync, openSync } from "node:fs";

export interface RunProcessOptions {
  /** Absolute path (or bare name on Windows) of the executable, then its arguments. */
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Captured output: the most each stream keeps (see the header). Ignored with `files`. */
  maxOutputBytes: number;
  /** Write stdout and stderr into these files (created or truncated) instead of capturing them. */
  files?: { stdout: string; stderr: string };
  /** Written to stdin, which is then closed (default: no stdin). */
  stdin?: string;
  signal?: AbortSignal | undefined;
  /** Between SIGTERM and SIGKILL (ms; default 2 000). */
  graceMs?: number;
  /** Kill what the command left running in its group once it has exited (default true). */
  killLeftovers?: boolean;
  /** Told the process id once it started (e.g. to record it for crash recovery); the result waits for what it returns. */
  onSpawn?: (pid: number) => void | Promise<void>;
  /**
   * Talk to the program over its stdio: called once it is spawned with its stdin and stdout
   * (both pipes; `stdin` and `files.stdout` are then not used, the result's stdout is empty)
   * and `stop`, which ends it like a timeout does (SIGTERM, then SIGKILL) without counting as one.
   */
  interact?: (io: { stdin: Writable; stdout: Readable; stop: () => void }) => void;
}

export interface RunProcessResult {
  exit_code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  timed_out: boolean;
  aborted: boolean;
  duration_ms: number;
  /** The spawn itself failed (ENOENT, EACCES, …): its message, and its code. */
  spawn_error?: string;
  spawn_error_code?: string;
}

const GRACE_MS = 2_000;

class CappedBuffer {
  private head: Buffer[] = [];
  private headLen = 0;
  private tail: Buffer[] = [];
  private tailLen = 0;
  total = 0;
  constructor(private readonly cap: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    const headCap = Math.ceil(this.cap / 2);
    if (this.headLen < headCap) {
      const take = chunk.subarray(0, headCap - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailLen += chunk.length;
    const tailCap = this.cap - headCap;
    while (this.tailLen - (this.tail[0]?.length ?? 0) >= tailCap && this.tail.length > 1) this.tailLen -= this.tail.shift()!.length;
  }

  get truncated(): boolean {
    return this.total > this.cap;
  }

  text(): string {
    const head = Buffer.concat(this.head);
    let tail = Buffer.concat(this.tail);
    if (!this.truncated) return Buffer.concat([head, tail]).toString("utf8");
    const tailCap = this.cap - Math.ceil(this.cap / 2);
    tail = tail.subarray(Math.max(0, tail.length - tailCap));
    const omitted = this.total - head.length - tail.length;
    return `${head.toString("utf8")}\n[… ${omitted} bytes left out …]\n${tail.toString("utf8")}`;
  }
}

export function runProcess(options: RunProcessOptions): Promise<RunProcessResult> {
  const started = performance.now();
  const posix = process.platform !== "win32";
  return new Promise((resolve) => {
    const out = new CappedBuffer(options.maxOutputBytes);
    const err = new CappedBuffer(options.maxOutputBytes);
    let timedOut = false;
    let aborted = false;
    let spawnError: string | undefined;
    let spawnErrorCode: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    const interact = options.interact;
    const fds = options.files !== undefined ? [interact !== undefined ? null : openSync(options.files.stdout, "w"), openSync(options.files.stderr, "w")] : null;
    const child = spawn(options.argv[0]!, options.argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      detached: posix,
      stdio: [options.stdin !== undefined || interact !== undefined ? "pipe" : "ignore", fds?.[0] ?? "pipe", fds?.[1] ?? "pipe"],
      windowsHide: true,
    });
    const spawned =
      child.pid !== undefined && options.onSpawn !== undefined ? Promise.resolve(options.onSpawn(child.pid)).catch(() => undefined) : Promise.resolve();
    const killGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        if (posix) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        /* already gone */
      }
    };
    const stop = (): void => {
      killGroup("SIGTERM");
      killTimer ??= setTimeout(() => killGroup("SIGKILL"), options.graceMs ?? GRACE_MS);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    if (options.signal?.aborted === true) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });
    if (interact === undefined) child.stdout?.on("data", (d: Buffer) => out.push(d));
    child.stderr?.on("data", (d: Buffer) => err.push(d));
    if (interact !== undefined && child.pid !== undefined && child.stdin !== null && child.stdout !== null) {
      child.stdin.on("error", () => {
        /* the program closed its stdin early: its side of the conversation says why */
      });
      interact({ stdin: child.stdin, stdout: child.stdout, stop });
    } else if (options.stdin !== undefined && child.stdin !== null) {
      child.stdin.on("error", () => {
        /* the command closed its stdin early: fine */
      });
      child.stdin.end(options.stdin);
    }
    child.on("error", (e: NodeJS.ErrnoException) => {
      spawnError = e.message;
      if (typeof e.code === "string") spawnErrorCode = e.code;
      if (child.pid === undefined) finish(); // never started: no "close" may follow
    });
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    child.on("exit", (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // The command is done: whatever it left in its group goes too (and releases the pipes).
      if (posix && options.killLeftovers !== false) killGroup("SIGKILL");
    });
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      if (fds !== null) for (const fd of fds) if (fd !== null) closeSync(fd);
      const result: RunProcessResult = {
        exit_code: exitCode,
        signal: exitSignal,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        timed_out: timedOut,
        aborted,
        duration_ms: Math.round(performance.now() - started),
        ...(spawnError !== undefined ? { spawn_error: spawnError } : {}),
        ...(spawnErrorCode !== undefined ? { spawn_error_code: spawnErrorCode } : {}),
      };
      void spawned.then(() => resolve(result));
    };
    child.on("close", finish);
  });
}
