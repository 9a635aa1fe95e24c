/**
 * Failures of a reconciliation tool that the caller can fix: a spec path that
 * is not a spec, a file outside the repository, a path that does not exist (and
 * git never knew), an unknown artifact category.
 * `exitCode` 2 in the CLI; an `isError` tool result in MCP.
 */
export type ReconcileErrorCode = "unknown-spec" | "invalid-spec" | "path-outside-repo" | "path-not-found" | "unknown-category" | "not-a-repository";

export class ReconcileError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly code: ReconcileErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ReconcileError";
  }
}
