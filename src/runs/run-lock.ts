/**
 * `.norma/locks/run.lock`: one `run` at a time per repository (norma §1).
 * The lock file holds `{pid, host, token, created}` (src/fsx/with-file-lock.ts);
 * it is released when the run ends, and a lock whose owner died on this host
 * is taken over (a run killed with -9 does not block the next one). A lock
 * held by a live process — or by a process on another host, which we cannot
 * check — refuses the new run with a message naming the holder.
 */
import { NomaError } from "../errors/noma-error.js";
import { readFileSync } from "node:fs";
import { acquireFileLockSync, LockTimeoutError } from "../fsx/with-file-lock.js";
import { abs, RUN_LOCK } from "../layout/norma-layout.js";

export interface LockHolder {
  pid: number | null;
  host: string | null;
  started: string | null;
}

export class RunLockedError extends NomaError {
  static override readonly errorName: string = "RunLockedError";
  constructor(readonly holder: LockHolder) {
    super(
      "run-locked",
      `another run is in progress in this repository: ${RUN_LOCK} is held by ${holder.pid !== null ? `pid ${holder.pid}` : "an unknown process"}` +
        `${holder.host !== null ? ` on ${holder.host}` : ""}${holder.started !== null ? `, started ${holder.started}` : ""}. ` +
        `Wait for it to finish (\`noma-reconcile runs list\` shows it); if that process no longer exists, delete ${RUN_LOCK}.`,
    );
  }
}

/** Who holds the lock, as far as its file says. */
export function readLockHolder(root: string): LockHolder {
  try {
    const v = JSON.parse(readFileSync(abs(root, RUN_LOCK), "utf8")) as { pid?: unknown; host?: unknown; created?: unknown };
    return {
      pid: typeof v.pid === "number" ? v.pid : null,
      host: typeof v.host === "string" ? v.host : null,
      started: typeof v.created === "number" ? new Date(v.created).toISOString() : null,
    };
  } catch {
    return { pid: null, host: null, started: null };
  }
}

// A run may last hours: only a dead owner (on this host) makes the lock stale, never its age.
const NEVER_STALE_MS = 10 * 365 * 24 * 3600 * 1000;

/** Take the run lock, waiting up to `waitMs`; RunLockedError (naming the holder) when another process keeps it. */
export function acquireRunLock(root: string, waitMs = 2000): () => void {
  try {
    return acquireFileLockSync(abs(root, RUN_LOCK), { timeoutMs: waitMs, staleMs: NEVER_STALE_MS, maxDelayMs: 100 });
  } catch (e) {
    if (e instanceof LockTimeoutError) throw new RunLockedError(readLockHolder(root));
    throw e;
  }
}

/** Take the run lock if it is free (or its owner is dead); null when a live process holds it. */
export function tryRunLock(root: string): (() => void) | null {
  try {
    // A short wait, not 0: a lock left by a dead owner is broken on the first attempt and taken on the next.
    return acquireFileLockSync(abs(root, RUN_LOCK), { timeoutMs: 250, staleMs: NEVER_STALE_MS, maxDelayMs: 50 });
  } catch (e) {
    if (e instanceof LockTimeoutError) return null;
    throw e;
  }
}
