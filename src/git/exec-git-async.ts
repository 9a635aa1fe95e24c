/**
 * The asynchronous twin of `execGitBuffer`: same argv-array discipline, same
 * exit-status check, no fixed waits. Used where git can run on another core
 * while this process does other work (loading the cache, hashing).
 */
import { childProcess } from "./child-process.js";
import { GitError, type ExecGitOptions } from "./exec-git.js";

export interface ExecGitAsyncOptions extends ExecGitOptions {
  /** Kills the process when aborted (its promise then rejects). */
  signal?: AbortSignal;
  /** Receives what git wrote on stderr when it succeeds (warnings). */
  onStderr?: (text: string) => void;
}

/** Run `git <args>` without blocking; resolve stdout as a Buffer, reject with GitError on failure. */
export function execGitAsync(args: readonly string[], options: ExecGitAsyncOptions): Promise<Buffer> {
  return new Promise((resolvePromise, reject) => {
    const child = childProcess().execFile(
      "git",
      args as string[],
      {
        cwd: options.cwd,
        encoding: "buffer",
        maxBuffer: options.maxBuffer ?? 1024 * 1024 * 1024,
        windowsHide: true,
        env: options.env !== undefined ? { ...process.env, ...options.env } : process.env,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
      },
      (error, stdout, stderr) => {
        if (error === null) {
          if (options.onStderr !== undefined && stderr.length > 0) options.onStderr(stderr.toString("utf8"));
          resolvePromise(stdout);
          return;
        }
        const err = error as NodeJS.ErrnoException & { code?: unknown };
        if (err.code === "ENOENT") {
          reject(new GitError("git is not installed or not on PATH", args, null, ""));
          return;
        }
        const status = typeof err.code === "number" ? err.code : null;
        const text = stderr.toString("utf8").trim();
        reject(
          new GitError(`git ${args.join(" ")} failed${status !== null ? ` (exit ${status})` : ""}${text.length > 0 ? `: ${text}` : ""}`, args, status, text),
        );
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}
