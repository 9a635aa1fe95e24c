import { DEFAULT_LOCK_TIMEOUT_MS } from "../fsx/with-file-lock.js";
import { loadConfig, worktreeReader } from "./load-config.js";

export function lockTimeoutFromConfig(root: string): () => number {
  return () => {
    const config = loadConfig({
      cwd: root,
      read: worktreeReader(root),
    });
    return config.lockTimeout !== undefined ? config.lockTimeout * 1000 : DEFAULT_LOCK_TIMEOUT_MS;
  };
}
