/**
 * Small operations on temp repositories used across the reconciliation tests.
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { CLI } from "../../helpers/run-cli.js";
import { git } from "../../helpers/temp-repo.js";

export function write(root: string, rel: string, content: string | Buffer): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), content);
}

export function read(root: string, rel: string): string {
  return readFileSync(join(root, rel), "utf8");
}

export function remove(root: string, rel: string): void {
  rmSync(join(root, rel), { force: true });
}

/** Stage everything and commit. */
export function commitAll(root: string, message: string): string {
  git(root, ["add", "-A"]);
  git(root, ["commit", "-qm", message]);
  return git(root, ["rev-parse", "HEAD"]).trim();
}

export function branch(root: string, name: string): void {
  git(root, ["checkout", "-qb", name]);
}

export function checkout(root: string, name: string): void {
  git(root, ["checkout", "-q", name]);
}

/** Collect warnings from a library call. */
export function warnings(): { list: string[]; onWarning: (m: string) => void } {
  const list: string[] = [];
  return { list, onWarning: (m) => list.push(m) };
}

/** Spawn the built CLI without waiting (for concurrency tests). */
export function runCliAsync(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Parse a CLI JSON envelope and return its result. */
export function envelopeResult<T = Record<string, unknown>>(stdout: string): T {
  const env = JSON.parse(stdout) as { schema: string; result: T };
  return env.result;
}
