/**
 * `transcript accept` on disk (the I/O edge of accept-outside-edit.ts): under the document's
 * lock (the one `patch` takes), read the document and its transcript, verify the transcript,
 * and append one sealed acknowledgement per edit made outside the protocol that none
 * acknowledges yet — the document's current bytes first (that record moves the recorded state
 * to them), then edits that a patch followed, in order — through the writer `patch` uses
 * (atomic). The document itself is never written.
 *
 * Refused (AcceptRefusedError, nothing written) when there is nothing to accept, when the
 * document has no transcript (no recorded state to bridge from: its first patch starts the
 * transcript from whatever bytes it has), when the transcript has errors an acknowledgement
 * cannot mend (a broken chain, an interrupted patch: the next patch heals that), and when the
 * document is not valid UTF-8 (the checks hash its text, so no state of it could match).
 */
import { NomaError } from "../errors/noma-error.js";
import { existsSync } from "node:fs";
import { isAbsent, readRegularFile } from "../fsx/read-regular-file.js";
import { decodeText, nonTextError } from "../fsx/utf8-text.js";
import { basename } from "node:path";
import { withFileLockSync } from "../fsx/with-file-lock.js";
import { settleBookTransaction } from "./book-transaction.js";
import { decodeUtf8 } from "../fsx/read-text-file.js";
import { isSymlink, linkTarget, SymlinkNotAllowedError } from "../fsx/symlink-escape.js";
import { isBookManifestPath } from "./book-manifest-path.js";
import { DocumentMissingError, lockPathFor, transcriptPath } from "./patch-document.js";
import { sha256Hex } from "../patch/sha256-hex.js";
import { parseNoma } from "../noma/parse-noma.js";
import { validateNoma, type ValidateOptions } from "../validate/validate-noma.js";
import { appendTranscript } from "../transcript/append-transcript.js";
import { assertMayHoldTranscript } from "../transcript/may-hold-transcript.js";
import { acceptanceRecord, type OutsideEdit } from "../transcript/accept-outside-edit.js";
import type { Actor } from "../transcript/transcript-record.js";
import { documentUri } from "./document-uri.js";
import { verifyTranscript } from "../transcript/verify-transcript.js";

export interface AcceptOutsideEditsOptions {
  actor: Actor;
  /** Why the edit is accepted (required: stored as the records' `reason`). */
  reason: string;
  /** How paths are named in messages (the repository-relative path). */
  label?: string;
  /** The repository root: the records name the document relative to it (document-uri.ts; found from the document's folder when absent). */
  root?: string;
  lockTimeoutMs?: number;
  now?: Date;
  /** How the accepted bytes are validated for the record (a chapter: with its book's lookup). */
  validate?: ValidateOptions;
}

export interface AcceptOutsideEditsResult {
  /** The edits acknowledged, in the order of their records. */
  accepted: OutsideEdit[];
  /** The transcript lines appended. */
  lines: string[];
  records: Record<string, unknown>[];
  transcriptPath: string;
  /** sha256 of the document's bytes, the state the transcript now ends in. */
  documentSha256: string;
}

export class AcceptRefusedError extends NomaError {
  static override readonly errorName: string = "AcceptRefusedError";
  constructor(message: string) {
    super("accept-refused", message);
  }
}

/** Acknowledge the outside edits of the document at `absPath` (already contained in the repository by the caller). */
export function acceptOutsideEdits(absPath: string, options: AcceptOutsideEditsOptions): AcceptOutsideEditsResult {
  const label = options.label ?? basename(absPath);
  if (options.reason.trim().length === 0)
    throw new AcceptRefusedError("an acknowledgement needs a reason (--reason): why the edit made outside the protocol is accepted");
  if (isAbsent(absPath)) throw new DocumentMissingError(label);
  if (isBookManifestPath(absPath))
    throw new AcceptRefusedError(`${label} is a book manifest: it has no transcript (book manifests are not patch targets, §2.3)`);
  // Only a document has a transcript (may-hold-transcript.ts).
  assertMayHoldTranscript(absPath, label);
  const tPath = transcriptPath(absPath);
  if (isSymlink(tPath))
    throw new SymlinkNotAllowedError(
      `${label}.patches`,
      linkTarget(tPath),
      "a transcript must be a regular file (appending would replace the link with a copy of what it points at)",
    );
  return withFileLockSync(
    lockPathFor(absPath),
    () => {
      // A book transaction interrupted while it held this document is finished (or dropped) first.
      settleBookTransaction(absPath, options.root, lockPathFor);
      if (!existsSync(tPath))
        throw new AcceptRefusedError(
          `${label} has no transcript (${label}.patches): there is no recorded state to bridge from. Its first patch starts the transcript from the ` +
            `document as it is; nothing needs accepting.`,
        );
      // Only regular files, never a blocking open (a FIFO is refused), never decoded with U+FFFD.
      const bytes = readRegularFile(absPath, label);
      const notText = nonTextError(bytes, label);
      if (notText !== null)
        throw new AcceptRefusedError(`${label} is ${notText.reason}: its state cannot be recorded in a form the checks can match (they hash its text).`);
      const text = decodeUtf8(bytes);
      const transcript = decodeText(readRegularFile(tPath, `${label}.patches`), `${label}.patches`);
      const report = verifyTranscript(transcript, text);
      const errors = report.findings.filter((f) => f.severity === "error");
      if (errors.length > 0) {
        const list = errors
          .slice(0, 5)
          .map((f) => `\n  ${f.line !== undefined ? `${label}.patches:${f.line}` : label}: [${f.code}] ${f.message}`)
          .join("");
        const interrupted = errors.some((f) => f.code === "transcript-interrupted")
          ? "\nAn interrupted patch is not an outside edit: the next patch heals it (a recover_interrupted record)."
          : "";
        throw new AcceptRefusedError(
          `${label}.patches has errors an acknowledgement cannot mend; nothing was ` +
            `written:${list}${errors.length > 5 ? `\n  …and ${errors.length - 5} more (noma-reconcile transcript verify ${label})` : ""}${interrupted}`,
        );
      }
      // The document's current bytes first: the acknowledgements of earlier gaps then start from the state the first one records.
      const pending = report.outsideEdits
        .filter((e) => e.acknowledgedOn === undefined)
        .sort((a, b) => (a.gap === undefined ? 0 : 1) - (b.gap === undefined ? 0 : 1));
      const documentSha256 = sha256Hex(bytes);
      if (pending.length === 0) {
        const known = report.outsideEdits.length;
        throw new AcceptRefusedError(
          `nothing to accept: ${label} is in the state its transcript ends in ` +
            `(${documentSha256.slice(0, 8)})` +
            `${known > 0 ? ` and every edit made outside the protocol is acknowledged already (${known})` : ", and no edit was made outside the protocol"}` +
            `; ` +
            `nothing was written.`,
        );
      }
      const validation = validateNoma(parseNoma(text), options.validate);
      const ctx = {
        docUri: documentUri(absPath, options.root),
        actor: options.actor,
        reason: options.reason,
        documentSha256,
        validation,
        ...(options.now !== undefined ? { now: options.now } : {}),
      };
      const records = pending.map((e) => acceptanceRecord(e, ctx));
      const { lines } = appendTranscript(tPath, records, false);
      return { accepted: pending, lines, records: lines.map((l) => JSON.parse(l) as Record<string, unknown>), transcriptPath: tPath, documentSha256 };
    },
    options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {},
  );
}
