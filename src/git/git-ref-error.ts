/**
 * Failures of the git layer that the user can fix (exit 2 in the CLI,
 * `isError` results in MCP). `code` is stable; the message names the fix.
 */
export type GitRefErrorCode = "bad-ref" | "unknown-ref" | "no-commits" | "no-merge-base" | "shallow-no-merge-base";

export class GitRefError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly code: GitRefErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "GitRefError";
  }
}
