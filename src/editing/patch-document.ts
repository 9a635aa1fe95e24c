/**
 * Patch a document on disk (the I/O edge of the patch engine): under a
 * per-document lock, read the bytes, apply the op list, append one transcript
 * record per attempted op to `<doc>.patches`, then write the document.
 *
 * Both writes are atomic (temp file, fsync, rename). The transcript is written
 * first, so a process killed between the two leaves a transcript whose last
 * applied records start from the document's state: `transcript verify` reports
 * it as an interrupted patch rather than an edit outside the protocol. If the
 * document write fails, the transcript is restored.
 */
import { NomaError } from "../errors/noma-error.js";
import { assertMayHoldTranscript, NotADocumentError } from "../transcript/may-hold-transcript.js";

export { NotADocumentError };
import { existsSync, statSync, unlinkSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";
import { withFileLockSync } from "../fsx/with-file-lock.js";
import { settleBookTransaction } from "./book-transaction.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import type { ValidateOptions } from "../validate/validate-noma.js";
import { capabilityAdvisories } from "../capability/capability-advisory.js";
import { readCapabilities, sidecarPath } from "../capability/read-capabilities.js";
import { buildRecords, type Actor } from "../transcript/transcript-record.js";
import { documentUri } from "./document-uri.js";
import { appendTranscript } from "../transcript/append-transcript.js";
import { interruptedRun, recoveryRecord, type InterruptedRun } from "../transcript/recover-interrupted.js";
import { applyPatch, sha256Hex, type PatchOutcome } from "../patch/apply-patch.js";
import { decodeUtf8 } from "../fsx/read-text-file.js";
import { assembledBytes } from "../patch/text-edit.js";
import { assertRecordableOps } from "../patch/assert-recordable-ops.js";
import { assertNoSymlinkEscape, isSymlink, linkTarget, SymlinkNotAllowedError } from "../fsx/symlink-escape.js";
import type { Prefetched } from "../fsx/prefetch-files.js";
import { isAbsent, readRegularFile, readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { decodeText, nonTextError } from "../fsx/utf8-text.js";

export interface PatchDocumentOptions {
  strict?: boolean;
  expectedSha?: string;
  baseSha256?: string;
  actor: Actor;
  reason?: string;
  parentOpId?: string;
  /** Compute and report, write nothing (no transcript either). */
  dryRun?: boolean;
  validate?: ValidateOptions;
  /** Lock wait before giving up (ms). */
  lockTimeoutMs?: number;
  /**
   * The caller already holds `lockPathFor(absPath)` (the MCP server takes it without blocking
   * its thread, so a patch waiting for the lock never stalls its other requests).
   */
  lockHeld?: boolean;
  /**
   * Remember the result for a next patch of the document in this process (default true, as
   * a long-lived server wants). A process that patches once and exits (the CLI) says false:
   * a single op then never builds the document tree (see applyPatch).
   */
  reuse?: boolean;
  /** See ApplyPatchOptions.prepareLater (the MCP server, which prepares when idle). */
  prepareLater?: boolean;
  /**
   * The repository root: a capability sidecar that links out of it is refused (SymlinkEscapeError), and the
   * records name the document relative to it (document-uri.ts; found from the document's folder when absent).
   */
  root?: string;
  now?: Date;
  /**
   * The document's bytes read ahead (the CLI starts the read while its modules load; see
   * prefetch-files.ts): used only when the file, stated under the lock, is provably the one
   * read (Prefetched.takeUnchanged), else the document is read under the lock as always.
   */
  prefetched?: Prefetched;
  /** See ApplyPatchOptions.afterOp. */
  afterOp?: (index: number) => void;
  /** See ApplyPatchOptions.formatOps (fmt). */
  formatOps?: boolean;
  /**
   * "if-present": append records only to a transcript that exists; a document without one is
   * written alone (fmt and `check --fix`, which start no audit trail). Default "always" (`patch`
   * starts the transcript).
   */
  record?: "always" | "if-present";
}

export interface PatchDocumentResult {
  outcome: PatchOutcome;
  /** The transcript lines written (or that would be written, in a dry run). */
  lines: string[];
  records: Record<string, unknown>[];
  /** Whether the document's bytes were rewritten. */
  written: boolean;
  transcriptPath: string;
  /** Whether a capability sidecar exists and is valid (advisories are about it). */
  capabilities: "absent" | "valid" | "invalid";
  /** An interrupted earlier patch this one healed: a recovery record precedes its records in `lines`. */
  recovered?: InterruptedRun;
}

/**
 * Fault injection for the crash tests: NOMA_RECONCILE_TEST_CRASH_AT=<point> kills
 * this process (SIGKILL, no cleanup) at that point of a patch write.
 */
function crashPoint(point: "after-transcript" | "before-document-rename"): void {
  if (process.env["NOMA_RECONCILE_TEST_CRASH_AT"] === point) process.kill(process.pid, "SIGKILL");
}

export class DocumentMissingError extends NomaError {
  static override readonly errorName: string = "DocumentMissingError";
  /** `shown`: how the message names it (the repository-relative path, when known). */
  constructor(
    readonly path: string,
    shown: string = path,
  ) {
    super("document-missing", `${shown}: no such document`);
  }
}

/** `<doc>.patches` (the conventional transcript path, §5.1). */
export function transcriptPath(docPath: string): string {
  return `${docPath}.patches`;
}

export function lockPathFor(docPath: string): string {
  return join(dirname(docPath), `.${basename(docPath)}.lock`);
}

/**
 * Never through a symbolic link: appending to a linked transcript would replace the link with a
 * copy of what it points at (an outside file's bytes in the repository); a sidecar linking out
 * of the repository is not read.
 */
export function refuseSymlinks(absPath: string, root: string | undefined): void {
  const t = transcriptPath(absPath);
  if (isSymlink(t))
    throw new SymlinkNotAllowedError(
      root !== undefined ? relative(root, t).split(sep).join("/") : t,
      linkTarget(t),
      "a transcript must be a regular file (appending would replace the link with a copy of what it points at)",
    );
  const sidecar = sidecarPath(absPath);
  if (root !== undefined && isSymlink(sidecar)) assertNoSymlinkEscape(root, relative(root, sidecar), "read it");
}

/** Patch `absPath` (already contained in the repository by the caller). Throws MalformedOpError for a value that is not a patch op. */
export function patchDocument(absPath: string, ops: readonly unknown[], options: PatchDocumentOptions): PatchDocumentResult {
  // A value that is not a patch op cannot be recorded as one (§5.2): refused before anything is written.
  assertRecordableOps(ops);
  // Nothing that is not a document gets a transcript (may-hold-transcript.ts): refused before anything is locked or written.
  assertMayHoldTranscript(absPath, options.root !== undefined ? relative(options.root, absPath).split(sep).join("/") : absPath);
  // A document linked out of the repository is neither read nor written (the CLI and the MCP server contain it first; the library here).
  if (options.root !== undefined && isSymlink(absPath)) assertNoSymlinkEscape(options.root, relative(options.root, absPath).split(sep).join("/"), "patch it");
  refuseSymlinks(absPath, options.root);
  // Files are named in refusals as the repository names them (a FIFO, no permission, not UTF-8).
  const label = (abs: string): string => (options.root !== undefined ? relative(options.root, abs).split(sep).join("/") : abs);
  if (isAbsent(absPath)) throw new DocumentMissingError(absPath, label(absPath));
  const run = (): PatchDocumentResult => {
    // A book transaction interrupted while it held this document is finished (or dropped) first.
    if (options.dryRun !== true)
      settleBookTransaction(absPath, options.root, lockPathFor, options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {});
    const bytes =
      (options.prefetched !== undefined ? options.prefetched.takeUnchanged(absPath, statSync(absPath, { bigint: true })) : undefined) ??
      readRegularFile(absPath, label(absPath));
    const text = decodeUtf8(bytes);
    const notText = nonTextError(bytes, label(absPath));
    const validUtf8 = notText === null;
    const sidecar = sidecarPath(absPath);
    const sidecarBytes = readRegularFileIfPresent(sidecar, label(sidecar));
    const hasSidecar = sidecarBytes !== null;
    const capabilities = sidecarBytes !== null ? readCapabilities(decodeText(sidecarBytes, label(sidecar))).descriptor : null;
    const sidecarName = basename(sidecar);
    const outcome = applyPatch(text, ops, {
      // An ASCII document (valid UTF-8, a byte per character) is hashed from the bytes read.
      ...(validUtf8 && bytes.length === text.length ? { textUtf8: bytes } : {}),
      ...(options.strict !== undefined ? { strict: options.strict } : {}),
      ...(options.expectedSha !== undefined ? { expectedSha: options.expectedSha } : {}),
      ...(options.baseSha256 !== undefined ? { baseSha256: options.baseSha256 } : {}),
      ...(options.validate !== undefined ? { validate: options.validate } : {}),
      ...(options.reuse !== undefined ? { reuse: options.reuse } : {}),
      ...(options.prepareLater !== undefined ? { prepareLater: options.prepareLater } : {}),
      ...(validUtf8
        ? {}
        : {
            rejectAll: { code: "invalid_content" as const, message: `The document is ${notText.reason}; it cannot be patched without losing bytes.` },
            preSha256: sha256Hex(bytes),
          }),
      advisory: (doc, op) => capabilityAdvisories(capabilities, sidecarName, doc, op),
      ...(options.afterOp !== undefined ? { afterOp: options.afterOp } : {}),
      ...(options.formatOps === true ? { formatOps: true } : {}),
    });
    const docUri = documentUri(absPath, options.root);
    const records = buildRecords(outcome, {
      docUri,
      actor: options.actor,
      ...(options.reason !== undefined ? { reason: options.reason } : {}),
      ...(options.parentOpId !== undefined ? { parentOpId: options.parentOpId } : {}),
      ...(options.baseSha256 !== undefined ? { baseSha256: options.baseSha256 } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
    const tPath = transcriptPath(absPath);
    const dryRun = options.dryRun === true;
    // An earlier patch whose document write never landed is healed first (see recover-interrupted.ts).
    let recovered: InterruptedRun | null = null;
    const heal = (existing: readonly string[]): Record<string, unknown>[] => {
      recovered = interruptedRun(existing, outcome.preSha256);
      return recovered === null ? [] : [recoveryRecord(recovered, outcome, { docUri, ...(options.now !== undefined ? { now: options.now } : {}) })];
    };
    const recorded = options.record !== "if-present" || existsSync(tPath);
    const { lines, previous } = recorded ? appendTranscript(tPath, records, dryRun, heal, label(tPath)) : { lines: [], previous: null };
    let written = false;
    if (!dryRun && outcome.result === "applied") {
      crashPoint("after-transcript");
      try {
        // A long ASCII result is written from the bytes it was assembled in or of (no encoding of the text).
        writeFileAtomic(absPath, assembledBytes(outcome.text) ?? outcome.text, { beforeRename: () => crashPoint("before-document-rename") });
        written = true;
      } catch (e) {
        if (previous !== null) writeFileAtomic(tPath, previous);
        else if (recorded && existsSync(tPath)) unlinkSync(tPath);
        throw e;
      }
    }
    return {
      outcome,
      lines,
      records: lines.map((l) => JSON.parse(l) as Record<string, unknown>),
      written,
      transcriptPath: tPath,
      capabilities: !hasSidecar ? "absent" : capabilities === null ? "invalid" : "valid",
      ...(recovered !== null ? { recovered } : {}),
    };
  };
  return options.dryRun === true || options.lockHeld === true
    ? run()
    : withFileLockSync(lockPathFor(absPath), run, options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {});
}
