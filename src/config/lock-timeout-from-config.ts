/**
 * `lock_timeout` of a repository's `.notarai/config.yaml` (as its work tree holds it), as
 * the wait of the locks a command or server takes: a function the lock calls only when it
 * finds the lock taken (src/fsx/with-file-lock.ts), so an uncontended write never reads the
 * configuration, and a long-lived server sees the file as it is when it waits. Without the
 * key: DEFAULT_LOCK_TIMEOUT_MS (15 s). An invalid configuration is a ConfigError (exit 2).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_LOCK_TIMEOUT_MS } from "../fsx/with-file-lock.js";
import { loadConfig } from "./load-config.js";

export function lockTimeoutFromConfig(root: string): () => number {
  return () => {
    const config = loadConfig({
      cwd: root,
      read: (p) => {
        try {
          return readFileSync(join(root, p), "utf8");
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
          throw e;
        }
      },
    });
    return config.lockTimeout !== undefined ? config.lockTimeout * 1000 : DEFAULT_LOCK_TIMEOUT_MS;
  };
}
