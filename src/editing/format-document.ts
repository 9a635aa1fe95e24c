/**
 * `fmt` on one document on disk (the I/O edge of formatNoma). The layout change goes through
 * the patch engine as one `format_document` op (src/patch/ops/format-op.ts): under the
 * document's lock, the bytes read again must be the ones formatted (else `sha_mismatch`),
 * the write is atomic, and a document with a transcript gets one record for it, so the
 * transcript still ends in the document's state. A document without one is written alone:
 * fmt starts no audit trail (`patch` does).
 */
import { relative, sep } from "node:path";
import { FileUnreadableError, isAbsent, readRegularFile } from "../fsx/read-regular-file.js";
import { nonTextError } from "../fsx/utf8-text.js";
import { formatNoma } from "../noma/format-noma.js";
import type { LineEdit } from "../noma/line-edits.js";
import { formatDocumentOp } from "../patch/ops/format-op.js";
import { sha256Hex } from "../patch/sha256-hex.js";
import { isSymlink } from "../fsx/symlink-escape.js";
import { TOOL_VERSION } from "../version.js";
import { DocumentMissingError, patchDocument, transcriptPath } from "./patch-document.js";

/** `error`: the document cannot be formatted, as `check` judges it (not UTF-8 text, cannot be read): `code` says which. */
export type FormatStatus = "formatted" | "would-format" | "unchanged" | "skipped" | "error";

export interface FormatDocumentOptions {
  /** Say what would change; write nothing. */
  check?: boolean;
  /** The repository root (a capability sidecar linking out of it is refused). */
  root: string;
  lockTimeoutMs?: number;
  now?: Date;
}

export interface FormatDocumentResult {
  status: FormatStatus;
  /** Why a document was skipped, or what was left undone (a partial format). */
  note?: string;
  /** The text before and after (after = before unless formatted or would be). */
  before: string;
  after: string;
  edits: LineEdit[];
  /** A `format_document` record was appended to the transcript. */
  recorded: boolean;
  /** `error`: the code `check` gives the document (`not-utf8-text`, `file-unreadable`), and where (not UTF-8: the first such byte). */
  code?: string;
  pos?: { line: number; column: number };
}

/** A document fmt cannot read as text: the error `check` reports for it. */
function refused(code: string, note: string, pos?: { line: number; column: number }): FormatDocumentResult {
  return { status: "error", code, note, before: "", after: "", edits: [], recorded: false, ...(pos !== undefined ? { pos } : {}) };
}

/** Who a fmt record names. */
export const FMT_ACTOR = { kind: "tool" as const, name: "noma-reconcile fmt", version: TOOL_VERSION };

export function formatDocument(absPath: string, options: FormatDocumentOptions): FormatDocumentResult {
  if (isAbsent(absPath)) throw new DocumentMissingError(absPath);
  const skip = (note: string, text = ""): FormatDocumentResult => ({ status: "skipped", note, before: text, after: text, edits: [], recorded: false });
  if (isSymlink(absPath)) return skip("it is a symbolic link; format the file it points to");
  const label = relative(options.root, absPath).split(sep).join("/");
  let bytes: Buffer;
  try {
    bytes = readRegularFile(absPath, label);
  } catch (e) {
    if (e instanceof FileUnreadableError) return refused(e.code, e.reason);
    throw e;
  }
  const notText = nonTextError(bytes, label);
  if (notText !== null) return refused(notText.code, notText.reason, notText.position);
  const text = bytes.toString("utf8");
  const r = formatNoma(text);
  if (r.skipped !== undefined) return skip(r.skipped, text);
  const base = { before: text, after: r.text, edits: r.edits, recorded: false, ...(r.partial !== undefined ? { note: r.partial } : {}) };
  if (!r.changed) return { ...base, status: "unchanged" };
  if (options.check === true) return { ...base, status: "would-format" };
  const result = patchDocument(absPath, [formatDocumentOp(r.edits)], {
    actor: FMT_ACTOR,
    reason: "noma-reconcile fmt: canonical layout; the document means the same",
    expectedSha: sha256Hex(bytes),
    formatOps: true,
    record: "if-present",
    reuse: false,
    root: options.root,
    ...(options.lockTimeoutMs !== undefined ? { lockTimeoutMs: options.lockTimeoutMs } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  if (result.outcome.result !== "applied") {
    const why =
      result.outcome.error?.code === "sha_mismatch"
        ? "it changed while it was being formatted; run fmt again"
        : (result.outcome.error?.message ?? "not applied");
    return { ...skip(why, text), recorded: result.lines.length > 0 };
  }
  return { ...base, status: "formatted", recorded: result.lines.length > 0 };
}

export { transcriptPath };
