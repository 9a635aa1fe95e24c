/**
 * What a thrown value is, for the shells that answer it (the CLI's exit code and message,
 * the MCP server's tool error): one of ours by its kind (noma-error.ts), an operating-system
 * call that failed (ENOSPC, EACCES, EISDIR, … — the environment: expected), the CLI
 * parser's complaint (usage), or anything else: a bug.
 */
import { type ErrorKind, NomaError } from "./noma-error.js";

export interface ClassifiedError {
  kind: ErrorKind;
  /** Stable code (`lock-timeout`, `ENOSPC`, `internal`). */
  code: string;
  /** The one line to print (a system error names its path when its message does not). */
  message: string;
}

/** An operating-system call that failed. Node's own ERR_* codes (a bad argument) are bugs. */
export function isSystemError(err: unknown): err is NodeJS.ErrnoException {
  const e = err as NodeJS.ErrnoException | null;
  return e !== null && typeof e === "object" && typeof e.code === "string" && /^E[A-Z0-9]+$/.test(e.code) && typeof e.syscall === "string";
}

export function classifyError(err: unknown): ClassifiedError {
  if (err instanceof NomaError) return { kind: err.kind, code: err.code, message: err.message };
  if (isSystemError(err)) {
    const path = err.path;
    const message = typeof path === "string" && !err.message.includes(path) ? `${err.message} (${path})` : err.message;
    return { kind: "expected", code: err.code ?? "system", message };
  }
  // cac (the argument parser) throws its own class for unknown flags and missing values.
  if (err instanceof Error && err.name === "CACError") return { kind: "usage", code: "usage", message: err.message };
  const message = err instanceof Error ? err.message : String(err);
  return { kind: "internal", code: "internal", message };
}
