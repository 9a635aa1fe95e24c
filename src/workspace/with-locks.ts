/**
 * A lock for one shared file, taken in two layers: an in-process queue per key (so
 * concurrent requests in one server wait their turn without polling), then the
 * cross-process lock file (fsx/with-file-lock.ts), which other processes — other MCP
 * servers, the HTTP server, the CLI — take too. Within a process only the head of the
 * queue ever touches the lock file, so its retry back-off is paid only across processes.
 */
import { withFileLock } from "../fsx/with-file-lock.js";

const tails = new Map<string, Promise<unknown>>();

/** Run `fn` holding both the in-process turn for `lockPath` and the lock file itself (waiting `timeoutMs`, else the process's lock wait). */
export function withLocks<T>(lockPath: string, fn: () => T | Promise<T>, timeoutMs: number | undefined): Promise<T> {
  const before = tails.get(lockPath) ?? Promise.resolve();
  const options = timeoutMs !== undefined ? { timeoutMs } : {};
  const run = before.then(
    () => withFileLock(lockPath, fn, options),
    () => withFileLock(lockPath, fn, options),
  );
  const tail = run.catch(() => undefined);
  tails.set(lockPath, tail);
  void tail.then(() => {
    if (tails.get(lockPath) === tail) tails.delete(lockPath);
  });
  return run;
}
