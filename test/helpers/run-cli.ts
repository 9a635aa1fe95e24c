/**
 * Spawn the real built CLI (dist/cli.cjs, the bin) as a process, the way users run it.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli.cjs", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string } = { cwd: process.cwd() }): CliResult {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "", ...options.env };
  delete env["GITHUB_STEP_SUMMARY"];
  delete env["GITHUB_OUTPUT"];
  if (options.env?.["GITHUB_STEP_SUMMARY"] !== undefined) env["GITHUB_STEP_SUMMARY"] = options.env["GITHUB_STEP_SUMMARY"];
  if (options.env?.["GITHUB_OUTPUT"] !== undefined) env["GITHUB_OUTPUT"] = options.env["GITHUB_OUTPUT"];
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd,
    env,
    input: options.input,
    encoding: "utf8",
    maxBuffer: 1 << 28,
  });
  if (r.error) throw r.error;
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}
