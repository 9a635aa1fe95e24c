/**
 * Helpers for the tests of inputs that are not what they seem (issues 32, 33): the real CLI
 * bounded in time by the test itself (a hang is a failure, never a stuck run), generated
 * bytes, and a run of the CLI as a user root's permissions cannot stand in for.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI } from "../helpers/run-cli.js";

export interface BoundedResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The run was killed at the time bound. */
  timedOut: boolean;
}

/** Every run is killed after this long: a command that blocks fails its test, it does not stall it. */
export const BOUND_MS = 30_000;

/** The built CLI, killed (SIGKILL) if it runs past `timeoutMs`; `prefix` runs it through another program (setpriv). */
export function boundedCli(
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string | Buffer; timeoutMs?: number; prefix?: readonly string[]; maxOldSpaceMb?: number },
): BoundedResult {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...options.env };
  delete env["GITHUB_STEP_SUMMARY"];
  delete env["GITHUB_OUTPUT"];
  if (options.env?.["GITHUB_STEP_SUMMARY"] !== undefined) env["GITHUB_STEP_SUMMARY"] = options.env["GITHUB_STEP_SUMMARY"];
  const node = [process.execPath, ...(options.maxOldSpaceMb !== undefined ? [`--max-old-space-size=${options.maxOldSpaceMb}`] : []), CLI, ...args];
  const argv = [...(options.prefix ?? []), ...node];
  const r = spawnSync(argv[0]!, argv.slice(1), {
    cwd: options.cwd,
    env,
    input: options.input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    timeout: options.timeoutMs ?? BOUND_MS,
    killSignal: "SIGKILL",
  });
  const timedOut = r.signal === "SIGKILL" && (r.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT";
  if (r.error !== undefined && !timedOut) throw r.error;
  return { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", timedOut };
}

/** `n` pseudo-random bytes from `seed` (xorshift32): the same bytes on every run. */
export function seededBytes(n: number, seed: number): Buffer {
  const out = Buffer.alloc(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

const lossy = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/**
 * The offset of the first byte that is not text, found independently of the product: where
 * Node's decoder puts its first U+FFFD, or the first NUL byte if that comes first.
 */
export function firstNonTextOracle(bytes: Buffer): number {
  const decoded = lossy.decode(bytes);
  const bad = decoded.indexOf("\ufffd");
  const invalid = bad === -1 ? -1 : Buffer.byteLength(decoded.slice(0, bad), "utf8");
  const nul = bytes.indexOf(0);
  if (invalid === -1) return nul;
  if (nul === -1) return invalid;
  return Math.min(nul, invalid);
}

/**
 * How to run the CLI as a user file permissions apply to. Not root: as itself. Root (which
 * reads a mode-000 file anyway): as `nobody` through `setpriv`, when it is there; null when
 * neither can be done (the caller says so: such a test cannot be honest).
 */
export function unprivileged(): { prefix: string[]; env: NodeJS.ProcessEnv } | null {
  if (process.getuid?.() !== 0) return { prefix: [], env: {} };
  const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((p) => existsSync(p));
  if (setpriv === undefined) return null;
  const probe = spawnSync(setpriv, [
    "--reuid=65534",
    "--regid=65534",
    "--clear-groups",
    process.execPath,
    "-e",
    "process.exit(process.getuid() === 65534 ? 0 : 1)",
  ]);
  if (probe.status !== 0) return null;
  // git refuses a repository another user owns unless told it is safe; HOME must be writable by
  // nobody: the temp directory (the run's root, which the run removes with nobody's compile cache).
  return {
    prefix: [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"],
    env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "safe.directory", GIT_CONFIG_VALUE_0: "*", HOME: tmpdir() },
  };
}

/** Let another user read and enter everything under `dir` (the temp repository of a test run as nobody), and the directories above it. */
export function openToAll(dir: string): void {
  const walk = (p: string): void => {
    const st = statSync(p);
    chmodSync(p, st.isDirectory() ? 0o777 : 0o666);
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(dir);
}
