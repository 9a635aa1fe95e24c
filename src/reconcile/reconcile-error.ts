/**
 * Failures of a reconciliation tool that the caller can fix: a spec path that
 * is not a spec, a file outside the repository, a path that does not exist (and
 * git never knew), an unknown artifact category.
 * `exitCode` 2 in the CLI; an `isError` tool result in MCP.
 */
import { NomaError } from "../errors/noma-error.js";
export type ReconcileErrorCode = "unknown-spec" | "invalid-spec" | "path-outside-repo" | "path-not-found" | "unknown-category" | "not-a-repository";

export class ReconcileError extends NomaError {
  static override readonly errorName: string = "ReconcileError";
  declare readonly code: ReconcileErrorCode;
  constructor(code: ReconcileErrorCode, message: string) {
    super(code, message);
  }
}
