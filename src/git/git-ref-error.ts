/**
 * Failures of the git layer that the user can fix (exit 2 in the CLI,
 * `isError` results in MCP). `code` is stable; the message names the fix.
 */
import { NomaError } from "../errors/noma-error.js";
export type GitRefErrorCode = "bad-ref" | "unknown-ref" | "no-commits" | "no-merge-base" | "shallow-no-merge-base";

export class GitRefError extends NomaError {
  static override readonly errorName: string = "GitRefError";
  declare readonly code: GitRefErrorCode;
  constructor(code: GitRefErrorCode, message: string) {
    super(code, message);
  }
}
