/**
 * The configuration's shape and defaults, without its schema: what a command needs when a
 * repository has no `.notarai/config.yaml` (most hooks), so zod is loaded only to read one
 * (config-schema.ts; load-config-lazy.ts).
 */
export const CONFIG_KEYS = ["transcripts", "drift", "exclude", "workspace", "lock_timeout", "fix_on_commit"] as const;
export const WORKSPACE_KEYS = ["allowlist", "ledger", "archive", "test", "build", "read_only"] as const;

export interface WorkspaceConfig {
  /** Repo-relative path of the command allowlist (NOA `tools/allowed_commands.toml`). */
  allowlist: string;
  /** Repo-relative path of the evidence ledger (NOA `docs/evidence_ledger.tools.log`). */
  ledger: string;
  /** Repo-relative directory of archived versions (NOA `archive/`). */
  archive: string;
  /** argv of the project's test command, or null when none is configured. */
  test: readonly string[] | null;
  /** argv of the project's build command, or null when none is configured. */
  build: readonly string[] | null;
  /** `read_only`: the servers offer only the tools that read (every tool that writes or runs a command is left out and refused). */
  readOnly?: boolean;
}

export interface NomaConfig {
  transcripts: "warn" | "strict";
  drift: "warning" | "error";
  exclude: string[];
  workspace: WorkspaceConfig;
  /**
   * `lock_timeout`: how long (seconds) a write waits for a lock another process holds before
   * it gives up naming the holder (exit 2). `--lock-timeout` overrides it. Absent: the
   * documented default, DEFAULT_LOCK_TIMEOUT_MS of src/fsx/with-file-lock.ts (15 s).
   */
  lockTimeout?: number;
  /**
   * `fix_on_commit`: the pre-commit hook (`check --staged`) applies `check --fix`'s fixes to the
   * staged documents, re-stages them and says so (default false).
   */
  fixOnCommit?: boolean;
}

/** The longest wait `lock_timeout` and `--lock-timeout` accept (seconds): a larger value is most likely milliseconds meant as seconds. */
export const MAX_LOCK_TIMEOUT_SECONDS = 3600;

export const DEFAULT_WORKSPACE_CONFIG: Readonly<WorkspaceConfig> = Object.freeze({
  allowlist: "tools/allowed_commands.toml",
  ledger: "docs/evidence_ledger.tools.log",
  archive: "archive",
  test: null,
  build: null,
});

export const DEFAULT_CONFIG: Readonly<NomaConfig> = Object.freeze({
  transcripts: "warn",
  drift: "warning",
  exclude: [],
  workspace: DEFAULT_WORKSPACE_CONFIG,
  fixOnCommit: false,
});

/** The configuration of a repository without a configuration file (a fresh, mutable exclude list). */
export function defaultConfig(): NomaConfig {
  return { ...DEFAULT_CONFIG, exclude: [] };
}
