/** The `--lock-timeout` flag as main.ts declares it on every command that writes (no imports beyond constants: the bin stays small). */
import { MAX_LOCK_TIMEOUT_SECONDS } from "../config/config-defaults.js";
import { DEFAULT_LOCK_TIMEOUT_MS } from "../fsx/lock-wait-default.js";

export const LOCK_TIMEOUT_FLAG = "--lock-timeout <seconds>";
export const LOCK_TIMEOUT_HELP =
  `Wait at most this long for a lock another process holds, then exit 2 naming it (0–${MAX_LOCK_TIMEOUT_SECONDS}; default: lock_timeout of ` +
  `.notarai/config.yaml, else ${DEFAULT_LOCK_TIMEOUT_MS / 1000})`;
