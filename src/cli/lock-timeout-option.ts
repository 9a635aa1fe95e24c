/**
 * `--lock-timeout SECONDS` of the commands that write: how long each lock they take waits
 * for another process before giving up (exit 2, one line naming the holder). Without the
 * flag, `lock_timeout` of `.notarai/config.yaml`, read only if a lock is found taken; without
 * that, 15 s (DEFAULT_LOCK_TIMEOUT_MS). Set as this process's lock wait, so every lock the
 * command takes (the document, the hash cache, the snapshot, .norma/norma.db, the workspace's
 * ledger and archive) honours it.
 */
import { lockTimeoutFromConfig } from "../config/lock-timeout-from-config.js";
import { MAX_LOCK_TIMEOUT_SECONDS } from "../config/config-defaults.js";
import { setDefaultLockTimeout } from "../fsx/with-file-lock.js";
import { UsageError } from "../errors/noma-error.js";

/** The flag's value in ms, or undefined when not given; a UsageError when it is not a number of seconds in range. */
export function lockTimeoutFlag(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > MAX_LOCK_TIMEOUT_SECONDS) {
    throw new UsageError(
      `--lock-timeout expects a number of seconds from 0 to ${MAX_LOCK_TIMEOUT_SECONDS}; got ${value === true ? "nothing" : JSON.stringify(String(value))}`,
    );
  }
  return n * 1000;
}

/** Make `--lock-timeout` (else the configuration of the repository at `root`) this process's lock wait. */
export function applyLockTimeout(options: Record<string, unknown>, root: string): void {
  const ms = lockTimeoutFlag(options["lockTimeout"]);
  setDefaultLockTimeout(ms ?? lockTimeoutFromConfig(root));
}
