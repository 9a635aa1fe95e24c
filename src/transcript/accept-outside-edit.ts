/**
 * Acknowledging an edit made outside the patch protocol (see docs/transcripts.md).
 *
 * A document edited by hand leaves its transcript ending in a state the document is no
 * longer in (`transcript-document-mismatch`), and once patched again, a record that starts
 * from a state no record produced (`transcript-state-gap`). Neither can be mended in place:
 * the transcript is append-only. An acknowledgement is a record appended after the fact:
 *
 *   op: {op: "accept_outside_edit", recorded_sha256: A, accepted_sha256: B, gap_op_id?: X}
 *   patch_result: "noop", pre_sha256 = post_sha256 = the document's bytes when accepted
 *
 * A is the state the transcript had recorded, B the state the outside edit left. Without
 * `gap_op_id` the record itself bridges A → B (the document's current bytes, B = its
 * pre_sha256); with `gap_op_id` it names an earlier record X that starts from B where the
 * state before it was A (an edit followed by a patch). The verifier accepts an
 * acknowledgement only when it names exactly such a gap, once; then the gap is information,
 * not a warning (or an error under `transcripts: strict`). Chained and sealed like any record.
 *
 * Readers that do not know the op see a noop whose op is outside the §3.1 catalog (replay
 * skips noops, §5.5) and, for the first form, a state change between two records: what
 * really happened.
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import { summarize } from "../validate/diagnostic.js";
import type { PatchOutcome } from "../patch/apply-patch.js";
import { buildRecords, type Actor } from "./transcript-record.js";

export const ACCEPT_OP = "accept_outside_edit";

/** An edit made outside the protocol, as the verifier finds it. */
export interface OutsideEdit {
  /** The state the transcript had recorded before the edit. */
  recordedSha256: string;
  /** The state the edit left (the document's bytes, or the state the next record starts from). */
  acceptedSha256: string;
  /** The record starting from `acceptedSha256` (absent: the edit is the document's current bytes). */
  gap?: { line: number; opId: string };
  /** op_id of the record whose state the edit left (absent when the transcript has none usable). */
  previousOpId?: string;
  /** Line of the acknowledgement, when one holds. */
  acknowledgedOn?: number;
}

export interface AcceptOp {
  op: typeof ACCEPT_OP;
  recorded_sha256?: unknown;
  accepted_sha256?: unknown;
  gap_op_id?: unknown;
}

/** Whether a parsed record's op is an acknowledgement. */
export function isAcceptOp(op: unknown): op is AcceptOp {
  return op !== null && typeof op === "object" && (op as Record<string, unknown>)["op"] === ACCEPT_OP;
}

export interface AcceptContext {
  docUri: string;
  actor: Actor;
  reason: string;
  /** sha256 of the document's bytes now (pre = post of every acknowledgement). */
  documentSha256: string;
  /** Validator diagnostics of the document now (no phase). */
  validation: readonly Diagnostic[];
  now?: Date;
  newId?: () => string;
}

function describe(edit: OutsideEdit): string {
  const states = `${edit.recordedSha256.slice(0, 8)} → ${edit.acceptedSha256.slice(0, 8)}`;
  return edit.gap === undefined
    ? `The document was edited outside the patch protocol (${states}); its bytes are accepted as the new state.`
    : `The document was edited outside the patch protocol before the record ${edit.gap.opId} (${states}); that edit is accepted.`;
}

/** The acknowledgement record (a record object, unchained) for one edit. */
export function acceptanceRecord(edit: OutsideEdit, ctx: AcceptContext): Record<string, unknown> {
  const op: Record<string, unknown> = { op: ACCEPT_OP, recorded_sha256: edit.recordedSha256, accepted_sha256: edit.acceptedSha256 };
  if (edit.gap !== undefined) op["gap_op_id"] = edit.gap.opId;
  const note: Diagnostic = { severity: "info", code: "outside_edit_accepted", message: describe(edit), phase: "pre" };
  const sha = ctx.documentSha256;
  const summary = summarize([...ctx.validation]);
  const outcome: PatchOutcome = {
    result: "noop",
    text: "",
    preSha256: sha,
    postSha256: sha,
    ops: [{ op, result: "noop", preSha256: sha, postSha256: sha, diagnostics: [note], elapsedMs: 0 }],
    preDiagnostics: [...ctx.validation],
    postDiagnostics: [...ctx.validation],
    preValidation: summary,
    postValidation: summary,
    change: { introduced: [], resolved: [], unchanged: ctx.validation.length },
    warnings: [],
  };
  const parentOpId = edit.gap?.opId ?? edit.previousOpId;
  const [record] = buildRecords(outcome, {
    docUri: ctx.docUri,
    actor: ctx.actor,
    reason: ctx.reason,
    ...(parentOpId !== undefined ? { parentOpId } : {}),
    ...(ctx.now !== undefined ? { now: ctx.now } : {}),
    ...(ctx.newId !== undefined ? { newId: ctx.newId } : {}),
  });
  return record!;
}
