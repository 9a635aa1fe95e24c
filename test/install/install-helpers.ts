/**
 * What the install tests share: a user's environment (nothing of this source tree reachable),
 * processes run the way a user runs them, a clone of this repository at HEAD, and a clock for
 * the timings the tests print.
 *
 * npm always runs with `--prefer-offline --no-audit --no-fund`: after `npm ci` has filled the
 * npm cache, every install here works without the network (the package bundles its runtime
 * dependencies, see docs/install.md).
 */
import { spawn, spawnSync } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, readdirSync, readlinkSync, realpathSync, symlinkSync } from "node:fs";
import { delimiter, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** This repository's work tree. */
export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund"] as const;

/** Generous: an install builds the package (esbuild and tsc) on two shared cores. */
export const INSTALL_TIMEOUT_MS = 600_000;

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The environment a user's shell has: this process's, without what `npm test` and git hooks add
 * (npm_* variables but npm_config_cache and npm_config_offline, node_modules/.bin directories
 * on PATH, GIT_* variables such as GIT_INDEX_FILE, GITHUB_* and RUNNER_* when the tests run in
 * Actions), without NODE_PATH and our own NOMA_RECONCILE_* switches. Keys mapped to undefined are
 * removed (child_process drops them), so it can be spread over process.env.
 *
 * `registry`: for a command that may reach an npm registry (`npm i`, `npm pack`, `npm ci`), also
 * NODE_EXTRA_CA_CERTS when the shell had it (a machine behind a TLS proxy, as this one). The other
 * processes make no TLS connection (the CLI, `npx noma-reconcile` of the installed package, git and
 * the hooks it runs, the servers, tsc) and run without it, as every test's processes do: Node reads
 * the file at every start, ≈ 0.07–0.09 s of CPU per process (vitest.config.ts).
 */
export function userEnv(extra: Record<string, string> = {}, registry = false): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of Object.keys(process.env)) {
    if (/^(npm_|GIT_|NOMA_RECONCILE_|NODE_PATH$|INIT_CWD$|GITHUB_|RUNNER_)/i.test(key) && !/^npm_config_(cache|offline)$/i.test(key)) env[key] = undefined;
    else env[key] = process.env[key];
  }
  env["PATH"] = (process.env["PATH"] ?? "")
    .split(delimiter)
    .filter((p) => p.length > 0 && !p.split(/[\\/]/).includes("node_modules"))
    .join(delimiter);
  env["NO_COLOR"] = "1";
  env["FORCE_COLOR"] = undefined;
  // vitest.config.ts takes NODE_EXTRA_CA_CERTS out of the tests' processes; a user's shell has it (npm may need it).
  const extraCaCerts = process.env["NOMA_RECONCILE_TEST_EXTRA_CA_CERTS"];
  if (registry && extraCaCerts !== undefined) env["NODE_EXTRA_CA_CERTS"] = extraCaCerts;
  return { ...env, ...extra };
}

/** Whether `command args` may reach an npm registry (its environment gets NODE_EXTRA_CA_CERTS: `userEnv`). */
export function mayReachRegistry(command: string, args: readonly string[]): boolean {
  return command === "npm" && ["i", "install", "ci", "pack"].includes(args[0] ?? "");
}

/** Run a command in `cwd` with the user's environment. */
export function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}, input?: string): Run {
  const r = spawnSync(command, args, {
    cwd,
    env: userEnv(env, mayReachRegistry(command, args)),
    input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
    timeout: INSTALL_TIMEOUT_MS,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/**
 * `run` without blocking this process: the command runs while the test file does other work
 * (another command's output is read meanwhile). Resolves with the exit code and output, and how
 * long the command took.
 */
export function runAsync(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<Run & { ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: userEnv(env, mayReachRegistry(command, args)),
      stdio: ["ignore", "pipe", "pipe"],
      timeout: INSTALL_TIMEOUT_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started }));
  });
}

/** Require exit 0 of what `run` or `runAsync` gave, else throw with everything the command printed. */
export function expectOk<R extends Run>(r: R, command: string, args: readonly string[], cwd: string): R {
  if (r.code !== 0) throw new Error(`${command} ${args.join(" ")} (in ${cwd}) exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`);
  return r;
}

/** Run and require exit 0, else throw with everything the command printed. */
export function ok(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Run {
  return expectOk(run(command, args, cwd, env), command, args, cwd);
}

/** A git command in `repo`. */
export function git(repo: string, args: readonly string[], env: Record<string, string> = {}): Run {
  return run("git", args, repo, env);
}

/**
 * A clone of this repository at the commit checked out here (HEAD, detached): what a git URL
 * or an action ref gives. Uncommitted changes are not in it — commit before running.
 */
export function cloneHead(dest: string): string {
  const head = ok("git", ["rev-parse", "HEAD"], ROOT).stdout.trim();
  ok("git", ["clone", "--quiet", "--no-checkout", ROOT, dest], dirname(dest));
  ok("git", ["checkout", "--quiet", "--detach", head], dest);
  return head;
}

/**
 * A shallow clone of this repository at the commit checked out here (HEAD, detached; that one
 * commit, no history): what a git-URL install of the hosted repository clones, npm asking the
 * host for `--depth=1`. npm clones its source three times in one `npm i` of a git URL (`strace -f`
 * shows three `git clone`s): from this clone each hands over one commit's objects, from a clone
 * with the whole history all of it (measured: 0.9 s of CPU per clone instead of 2.6 s). The
 * package built from it is the same: the tree at HEAD. Uncommitted changes are not in it.
 */
export function shallowCloneHead(dest: string): string {
  const head = ok("git", ["rev-parse", "HEAD"], ROOT).stdout.trim();
  ok("git", ["init", "--quiet", dest], dirname(dest));
  ok("git", ["fetch", "--quiet", "--depth=1", pathToFileURL(ROOT).href, head], dest);
  ok("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", "--detach", "FETCH_HEAD"], dest);
  return head;
}

/**
 * A copy of this work tree's source (tracked files and untracked ones git does not ignore, as
 * they are now; no dist/), with node_modules linked to this one's (read only: the build writes
 * only dist/ of the copy). `npm pack` there builds and packs without touching this dist/,
 * which the other tests are running.
 */
export function copySource(dest: string): void {
  const files = ok("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT).stdout.split("\0");
  for (const file of files) {
    if (file.length === 0 || file === "node_modules" || file.startsWith("node_modules/") || file.startsWith("dist/")) continue;
    const from = join(ROOT, file);
    let stat;
    try {
      stat = lstatSync(from);
    } catch {
      continue; // deleted in the work tree, not yet staged
    }
    if (!stat.isFile()) continue;
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    cpSync(from, join(dest, file));
  }
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(dest, "node_modules"), "dir");
}

/** A fresh project, as a user starts one: `git init`, `npm init -y`, node_modules ignored, one commit on main. */
export function userProject(dir: string): void {
  ok("git", ["init", "--quiet", "--initial-branch=main"], dir);
  for (const [k, v] of [
    ["user.name", "New User"],
    ["user.email", "user@example.invalid"],
    ["commit.gpgsign", "false"],
  ] as const)
    ok("git", ["config", k, v], dir);
  ok("npm", ["init", "-y"], dir);
  ok("sh", ["-c", "printf 'node_modules/\\n' > .gitignore && printf '# My project\\n' > README.md"], dir);
  ok("git", ["add", "-A"], dir);
  ok("git", ["commit", "--quiet", "-m", "A project"], dir);
}

/**
 * Every path under `dir` that is a symbolic link leading outside `within` (an install that
 * links back into this source tree would pass here and fail for a user).
 */
export function linksLeaving(dir: string, within: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isSymbolicLink()) {
        const target = resolve(dirname(p), readlinkSync(p));
        if (relative(within, target).startsWith("..")) out.push(`${relative(within, p)} -> ${target}`);
      } else if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

/** Wall-clock timings of a path's steps, printed at the end of its test. */
export class Clock {
  private readonly laps: Array<[string, number]> = [];
  private readonly started = performance.now();

  time<T>(label: string, fn: () => T): T {
    const t = performance.now();
    try {
      return fn();
    } finally {
      this.laps.push([label, performance.now() - t]);
    }
  }

  /** A step timed elsewhere (run while something else ran). */
  lap(label: string, ms: number): void {
    this.laps.push([label, ms]);
  }

  async timeAsync<T>(label: string, fn: () => Promise<T>): Promise<T> {
    const t = performance.now();
    try {
      return await fn();
    } finally {
      this.laps.push([label, performance.now() - t]);
    }
  }

  /** One line: `<path>: total 41.2 s — pack 12.3 s, install 8.1 s, …`. */
  summary(path: string): string {
    const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
    return `${path}: total ${s(performance.now() - this.started)} — ${this.laps.map(([l, ms]) => `${l} ${s(ms)}`).join(", ")}`;
  }
}
