/**
 * Run an agent process (norma §10) through the product's process runner
 * (src/process/run-process.ts): an argv array (never a shell), the request on stdin
 * (or nothing), stdout and stderr written straight into the step's `logs/stdout.txt`
 * and `logs/stderr.txt`, a timeout, and an abort signal; a timeout or an abort stops
 * it and everything it started (SIGTERM, then SIGKILL after a grace period).
 * An agent that speaks a protocol over stdio (ACP) gets `interact` instead of stdin:
 * its stdin and stdout are the caller's, its stderr still goes to `logs/stderr.txt`.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { runProcess, type RunProcessOptions } from "../../process/run-process.js";
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
  /** Talk to the agent over its stdio (run-process.ts `interact`; `stdin` must be null). The outcome's stdout is then empty. */
  interact?: RunProcessOptions["interact"];
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

/** Why a program could not start, in the words an agent's user needs. */
export function spawnProblem(cmd: string, code: string | undefined, message: string): string {
  return code === "ENOENT"
    ? `${cmd}: not found (is it installed and on PATH?)`
    : code === "EACCES"
      ? `${cmd}: not executable (permission denied)`
      : `${cmd}: ${message}`;
}

export async function spawnAgent(spec: SpawnSpec): Promise<SpawnOutcome> {
  mkdirSync(join(spec.stepDir, "logs"), { recursive: true });
  const outPath = join(spec.stepDir, STDOUT_LOG);
  let pid: number | undefined;
  const r = await runProcess({
    argv: spec.argv,
    cwd: spec.cwd,
    env: spec.env,
    timeoutMs: spec.timeoutMs,
    maxOutputBytes: 0,
    files: { stdout: outPath, stderr: join(spec.stepDir, STDERR_LOG) },
    ...(spec.stdin !== null ? { stdin: spec.stdin } : {}),
    signal: spec.signal,
    ...(spec.interact !== undefined ? { interact: spec.interact } : {}),
    graceMs: spec.graceMs ?? 5000,
    // An agent's helpers may outlive it only until its step ends; the loop does not kill them on its exit.
    killLeftovers: false,
    // The agent's process group is recorded while it runs, for crash recovery.
    onSpawn: (p) => {
      pid = p;
      return spec.recordIn !== undefined ? recordAgentPidAsync(spec.recordIn, p) : undefined;
    },
  });
  if (spec.recordIn !== undefined && pid !== undefined) clearAgentPid(spec.recordIn, pid);
  let stdout = "";
  try {
    if (spec.interact === undefined) stdout = readFileSync(outPath, "utf8");
  } catch {
    stdout = "";
  }
  return {
    exitCode: r.exit_code,
    signal: r.signal as NodeJS.Signals | null,
    timedOut: r.timed_out,
    aborted: r.aborted,
    spawnError: r.spawn_error !== undefined ? spawnProblem(String(spec.argv[0]), r.spawn_error_code, r.spawn_error) : null,
    stdout,
    durationMs: r.duration_ms,
  };
}
