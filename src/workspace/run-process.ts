/**
 * Run one command for the workspace tools: argv only (never a shell), from the
 * repository root, with exactly the environment given, stdin closed, a timeout, and
 * capped output. On POSIX the command leads its own process group, so a timeout (or
 * an abort: the server shutting down) kills everything it started — SIGTERM, then
 * SIGKILL two seconds later — and, once the command itself has exited, anything it
 * left running in its group is killed too, so no stray process outlives the request
 * or holds its output open.
 *
 * Each stream keeps at most `maxOutputBytes`: the first and the last halves, with a
 * marker saying how many bytes were left out between them (`truncated: true`).
 */
import { spawn } from "node:child_process";

export interface RunProcessOptions {
  /** Absolute path (or bare name on Windows) of the executable, then its arguments. */
  argv: readonly string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  signal?: AbortSignal;
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
  /** The spawn itself failed (ENOENT, EACCES, …). */
  spawn_error?: string;
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
    let killTimer: NodeJS.Timeout | undefined;
    const child = spawn(options.argv[0]!, options.argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      detached: posix,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
    });
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
      killTimer ??= setTimeout(() => killGroup("SIGKILL"), GRACE_MS);
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
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", (e) => {
      spawnError = e.message;
      if (child.pid === undefined) finish(); // never started: no "close" may follow
    });
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    child.on("exit", (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      // The command is done: whatever it left in its group goes too (and releases the pipes).
      if (posix) killGroup("SIGKILL");
    });
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (killTimer !== undefined) clearTimeout(killTimer);
      options.signal?.removeEventListener("abort", onAbort);
      resolve({
        exit_code: exitCode,
        signal: exitSignal,
        stdout: out.text(),
        stderr: err.text(),
        truncated: out.truncated || err.truncated,
        timed_out: timedOut,
        aborted,
        duration_ms: Math.round(performance.now() - started),
        ...(spawnError !== undefined ? { spawn_error: spawnError } : {}),
      });
    };
    child.on("close", finish);
  });
}
