/**
 * Run an agent process (norma §10): an argv array (never a shell), the
 * request on stdin (or nothing), stdout and stderr written straight into the
 * step's `logs/stdout.txt` and `logs/stderr.txt`, a timeout, and an abort
 * signal. The process gets its own process group, so a timeout or an abort
 * stops it and everything it started (SIGTERM, then SIGKILL after a grace
 * period).
 */
import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { clearAgentPid, recordAgentPidAsync } from "./agent-pid-file.js";

export interface SpawnSpec {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Written to stdin (which is then closed); null: stdin is /dev/null. */
  stdin: string | null;
  timeoutMs: number;
  /** The step directory (absolute): logs go to its `logs/`. */
  stepDir: string;
  signal?: AbortSignal | undefined;
  /** Grace between SIGTERM and SIGKILL (ms). */
  graceMs?: number;
  /** Repository root: the child's process group is recorded in .norma/locks/agent.json while it runs (agent-pid-file.ts). */
  recordIn?: string;
}

export interface SpawnOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
  /** Why it could not start (e.g. the binary does not exist), or null. */
  spawnError: string | null;
  /** What it wrote on stdout (also in logs/stdout.txt). */
  stdout: string;
  durationMs: number;
}

export const STDOUT_LOG = "logs/stdout.txt";
export const STDERR_LOG = "logs/stderr.txt";

function killGroup(pid: number | undefined, sig: NodeJS.Signals): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
}

export function spawnAgent(spec: SpawnSpec): Promise<SpawnOutcome> {
  mkdirSync(join(spec.stepDir, "logs"), { recursive: true });
  const outPath = join(spec.stepDir, STDOUT_LOG);
  const out = openSync(outPath, "w");
  const err = openSync(join(spec.stepDir, STDERR_LOG), "w");
  const started = Date.now();
  return new Promise<SpawnOutcome>((resolve) => {
    let timedOut = false;
    let aborted = false;
    let settled = false;
    let spawnError: string | null = null;
    let recorded: Promise<void> = Promise.resolve();
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killer);
      spec.signal?.removeEventListener("abort", onAbort);
      closeSync(out);
      closeSync(err);
      let stdout = "";
      try {
        stdout = readFileSync(outPath, "utf8");
      } catch {
        stdout = "";
      }
      const outcome = { exitCode, signal, timedOut, aborted, spawnError, stdout, durationMs: Date.now() - started };
      // The record of the agent's process group goes once the agent is gone (and its record was written).
      void recorded.then(() => {
        if (spec.recordIn !== undefined && child.pid !== undefined) clearAgentPid(spec.recordIn, child.pid);
        resolve(outcome);
      });
    };
    let killer: NodeJS.Timeout | undefined;
    const stop = (): void => {
      killGroup(child.pid, "SIGTERM");
      killer = setTimeout(() => killGroup(child.pid, "SIGKILL"), spec.graceMs ?? 5000);
    };
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    const [cmd, ...args] = spec.argv;
    const child = spawn(cmd!, args, {
      cwd: spec.cwd,
      env: spec.env,
      stdio: [spec.stdin !== null ? "pipe" : "ignore", out, err],
      detached: true,
      windowsHide: true,
    });
    recorded = spec.recordIn !== undefined && child.pid !== undefined ? recordAgentPidAsync(spec.recordIn, child.pid) : Promise.resolve();
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, spec.timeoutMs);
    if (spec.signal?.aborted === true) onAbort();
    else spec.signal?.addEventListener("abort", onAbort, { once: true });
    child.on("error", (e: NodeJS.ErrnoException) => {
      spawnError =
        e.code === "ENOENT"
          ? `${cmd}: not found (is it installed and on PATH?)`
          : e.code === "EACCES"
            ? `${cmd}: not executable (permission denied)`
            : `${cmd}: ${e.message}`;
      finish(null, null);
    });
    child.on("close", (code, signal) => finish(code, signal));
    if (spec.stdin !== null && child.stdin !== null) {
      child.stdin.on("error", () => {
        /* the agent closed stdin early: fine */
      });
      child.stdin.end(spec.stdin);
    }
  });
}
