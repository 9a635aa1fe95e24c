/**
 * Which thrown errors are expected conditions — the user's input, their repository or
 * environment, another process holding a lock: one line, exit 2 (or the class's own code),
 * no stack — and which are our bugs ("internal error … This is a bug", with the stack).
 * Shared by the CLI (main.ts) and the MCP server (src/mcp/call-tool.ts, an `isError`
 * result with the same text).
 *
 * By name, not `instanceof`: a command body bundled on its own (load-cached-body.ts) has its
 * own copy of each class. Expected classes carry a numeric `exitCode` (UsageError,
 * RuntimeError, ConfigError, LockTimeoutError, ReconcileError, GitRefError, …); those that
 * do not are listed here. Everything else — TypeError, RangeError, and our internal
 * control-flow classes (NeedsTree, FormulaError, JsonSpanError, PatchError outside the
 * engine, SqliteFormatError and CacheCorruptError past the cache's fallbacks, ToolFailure
 * and RpcError outside the server) — is a bug.
 */

/** Expected conditions whose classes carry no numeric `exitCode` of ours: exit 2. */
export const EXPECTED_ERROR_NAMES: readonly string[] = [
  // git failed: not a repository, a damaged one, git missing. Its `exitCode` is git's own status, never ours.
  "GitError",
  // git printed what we do not understand (another git version).
  "GitOutputError",
  // A path argument leads out of the repository.
  "PathOutsideRepoError",
  // The workspace tools' refusals and failures (a path, the allowlist, the archive, the ledger).
  "WorkspaceError",
  // An archive that is not a readable tar.
  "TarFormatError",
  // An allowlist argument pattern that does not parse.
  "PatternSyntaxError",
  // `check` of paths that do not exist.
  "MissingPathError",
];

/** An operating-system call that failed (ENOSPC, EACCES, EROFS, EISDIR, EMFILE, …): the environment. Node's own ERR_* codes (a bad argument) are bugs. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException | null;
  return e !== null && typeof e === "object" && typeof e.code === "string" && /^E[A-Z0-9]+$/.test(e.code) && typeof e.syscall === "string";
}

/** The exit code of an expected condition, or null for a bug. */
export function expectedExitCode(err: unknown): number | null {
  if (err === null || typeof err !== "object") return null;
  const e = err as { name?: unknown; exitCode?: unknown };
  if (e.name === "GitError") return 2;
  if (typeof e.exitCode === "number") return e.exitCode;
  if (typeof e.name === "string" && EXPECTED_ERROR_NAMES.includes(e.name)) return 2;
  return isSystemError(err) ? 2 : null;
}

/** The one line an expected condition prints (a system error names its path when its message does not). */
export function expectedMessage(err: Error): string {
  const path = (err as NodeJS.ErrnoException).path;
  const message = isSystemError(err) && typeof path === "string" && !err.message.includes(path) ? `${err.message} (${path})` : err.message;
  return message;
}
