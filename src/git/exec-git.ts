/**
 * The one place that runs git: argv arrays only (never a shell), exit status
 * always checked, no fixed waits. Synchronous on purpose: git answers in
 * milliseconds and the hot paths (hook, status, MCP) cannot afford the timers
 * of a wrapper library.
 */
import { NomaError } from "../errors/noma-error.js";
import type { ExecFileSyncOptions } from "node:child_process";
import { childProcess } from "./child-process.js";

export class GitError extends NomaError {
  static override readonly errorName: string = "GitError";
  constructor(
    message: string,
    readonly args: readonly string[],
    /** Git's exit status (null: git did not run, or was killed). */
    readonly status: number | null,
    readonly stderr: string,
  ) {
    super("git-failed", message);
  }
}

export interface ExecGitOptions {
  cwd: string;
  input?: string | Buffer;
  /** Extra environment (merged over process.env). */
  env?: NodeJS.ProcessEnv;
  maxBuffer?: number;
}

/** Run `git <args>` and return stdout as a Buffer; throw GitError on failure. */
export function execGitBuffer(args: readonly string[], options: ExecGitOptions): Buffer {
  const opts: ExecFileSyncOptions = {
    cwd: options.cwd,
    stdio: ["pipe", "pipe", "pipe"],
    maxBuffer: options.maxBuffer ?? 1024 * 1024 * 1024,
    windowsHide: true,
  };
  if (options.input !== undefined) opts.input = options.input;
  if (options.env !== undefined) opts.env = { ...process.env, ...options.env };
  try {
    return childProcess().execFileSync("git", args as string[], opts) as Buffer;
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { status?: number | null; stderr?: Buffer | string };
    if (err.code === "ENOENT") {
      throw new GitError("git is not installed or not on PATH", args, null, "");
    }
    const stderr = err.stderr !== undefined ? String(err.stderr).trim() : "";
    throw new GitError(
      `git ${args.join(" ")} failed${err.status != null ? ` (exit ${err.status})` : ""}${stderr.length > 0 ? `: ${stderr}` : ""}`,
      args,
      err.status ?? null,
      stderr,
    );
  }
}

/** Run `git <args>` and return stdout as UTF-8 text. */
export function execGit(args: readonly string[], options: ExecGitOptions): string {
  return execGitBuffer(args, options).toString("utf8");
}

/** Split NUL-terminated git output (`-z`) into entries. */
export function splitNul(out: string): string[] {
  if (out.length === 0) return [];
  const parts = out.split("\0");
  if (parts[parts.length - 1] === "") parts.pop();
  return parts;
}
