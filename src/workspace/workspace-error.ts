/**
 * The failures of the workspace tools: one string code per kind of failure, the
 * HTTP status each maps to, and the NOA failure body `{success:false, message, code}`.
 * Every code is something a caller can act on; `internal` is our bug.
 */
import { NomaError } from "../errors/noma-error.js";

/** What went wrong, by kind (snake_case, like the patch engine's codes). */
export type WorkspaceErrorCode =
  /** The request's JSON does not have the tool's shape (wrong type, unknown key, missing field). */
  | "invalid_arguments"
  /** A path that is refused as written: NUL, a backslash, a drive letter, `..`, too long, empty. */
  | "invalid_path"
  /** The path resolves (symbolic links included) outside the repository. */
  | "outside_workspace"
  /** `.git/`, or a file the tools must never write (the ledger, the archive, the allowlist, the configuration, transcripts). */
  | "protected_path"
  | "not_found"
  | "not_a_file"
  | "not_a_directory"
  /** read_file on bytes that are not UTF-8. */
  | "not_utf8"
  | "too_large"
  /** A path component became a symbolic link (or disappeared) between the check and the use. */
  | "path_changed"
  /** apply_patch: a hunk's lines are past the end of the file. */
  | "hunk_out_of_range"
  | "not_allowlisted"
  /** The workspace is read-only (`--read-only`, `workspace.read_only`): a tool that writes or runs a command is refused. */
  | "read_only"
  /** move_file's destination, or create_directory's path as a file, already exists (nothing is overwritten). */
  | "already_exists"
  /** edit_file `edits`: an oldText is not in the file (exactly, or line by line ignoring indentation). */
  | "no_match"
  /** The MCP server serves a run step's agent (`mcp --step`) whose role may not use this tool (plan and check only read). */
  | "not_for_role"
  | "environment_refused"
  /** run_command: the executable is not on the (sanitised) PATH. */
  | "command_not_found"
  /** run_tests / build_workspace: `.notarai/config.yaml` names no command. */
  | "not_configured"
  /** The configuration or the allowlist file is invalid, or the server is not in a git repository. */
  | "config_error"
  /** An archive that must be appended to cannot be read: the overwrite is refused, so no version is lost. */
  | "archive_unreadable"
  | "lock_timeout"
  /** The operation was done but could not be recorded in the evidence ledger. */
  | "ledger_error"
  /** The file system failed (no space, permission, I/O). */
  | "io_error"
  | "internal";

export const HTTP_STATUS: Record<WorkspaceErrorCode, number> = {
  invalid_arguments: 400,
  invalid_path: 400,
  outside_workspace: 403,
  protected_path: 403,
  not_found: 404,
  not_a_file: 400,
  not_a_directory: 400,
  not_utf8: 422,
  too_large: 413,
  path_changed: 409,
  hunk_out_of_range: 409,
  not_allowlisted: 403,
  not_for_role: 403,
  read_only: 403,
  already_exists: 409,
  no_match: 409,
  environment_refused: 403,
  command_not_found: 400,
  not_configured: 501,
  config_error: 500,
  archive_unreadable: 500,
  lock_timeout: 503,
  ledger_error: 500,
  io_error: 500,
  internal: 500,
};

export class WorkspaceError extends NomaError {
  static override readonly errorName: string = "WorkspaceError";
  declare readonly code: WorkspaceErrorCode;
  constructor(code: WorkspaceErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** The NOA failure body. */
export interface FailureBody {
  success: false;
  message: string;
  code: WorkspaceErrorCode;
}

export function failureBody(code: WorkspaceErrorCode, message: string): FailureBody {
  return { success: false, message, code };
}
