/**
 * Errors the CLI maps to exit codes. A UsageError (bad flags, bad arguments,
 * paths outside the repository) exits 2 with a pointer to --help; anything
 * carrying a numeric `exitCode` exits with it; everything else is our bug.
 */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** A runtime or configuration failure the user can act on (exit 2, no usage hint). */
export class RuntimeError extends Error {
  readonly exitCode = 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RuntimeError";
  }
}
