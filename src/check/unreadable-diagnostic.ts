/**
 * A file the check must judge but cannot read as text is an error of its own, never a file
 * skipped: bytes that are not UTF-8 text (`not-utf8-text`, at the first such byte), a file
 * that cannot be read or is not a regular file (`file-unreadable`, with the operating
 * system's reason), a spec or configuration over its size cap (`file-too-large`).
 */
import { FileTooLargeError, FileUnreadableError } from "../fsx/read-regular-file.js";
import { NotUtf8TextError } from "../fsx/utf8-text.js";
import type { Diagnostic } from "../validate/diagnostic.js";

/** The diagnostic for a read that threw `e`, or null when `e` is not such a refusal. */
export function unreadableDiagnostic(e: unknown): Diagnostic | null {
  if (e instanceof NotUtf8TextError) return { severity: "error", code: e.code, message: e.reason, pos: e.position };
  if (e instanceof FileUnreadableError) return { severity: "error", code: e.code, message: e.reason };
  if (e instanceof FileTooLargeError) return { severity: "error", code: e.code, message: e.message.slice(e.file.length + 2) };
  return null;
}
