/**
 * Acknowledged outside edits (accept-outside-edit.ts) as the checks show them. Pure.
 *
 * - `check` judges a transcript as it stands: an acknowledgement that holds is history, not a
 *   finding, so it is left out there (`withoutAcknowledgements`); `transcript verify` lists it.
 * - The pre-commit hook and the PR check also compare a transcript with its history version:
 *   the acknowledgements among the lines the change appends are shown as information
 *   (`acknowledgementsAppended`), so a reviewer sees that the change accepts an outside edit.
 *   Whether each holds is the transcript check's business (`transcript-bad-acceptance`).
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import { isAcceptOp } from "./accept-outside-edit.js";
import { transcriptLines } from "./verify-transcript.js";

export const ACCEPTED_CODE = "transcript-outside-edit-accepted";

/** `findings` without the information that an acknowledgement holds. */
export function withoutAcknowledgements<T extends { severity: string; code: string }>(findings: readonly T[]): T[] {
  return findings.filter((f) => !(f.code === ACCEPTED_CODE && f.severity === "info"));
}

function short(v: unknown): string {
  return typeof v === "string" ? v.slice(0, 8) : "?";
}

/** Where the record `opId` is among `lines` before `until`: "line N", or the op_id when no line holds it. */
function gapLine(lines: readonly string[], opId: string, until: number): string {
  const key = `"op_id":${JSON.stringify(opId)}`;
  for (let k = until - 1; k >= 0; k--) if (lines[k]!.includes(key)) return `line ${k + 1}`;
  return `the record ${opId}`;
}

/**
 * Information diagnostics for the acknowledgement records in `after` past `before` (a byte
 * prefix of it; "" for a transcript the change creates), at their lines.
 */
export function acknowledgementsAppended(before: string, after: string): Diagnostic[] {
  const lines = transcriptLines(after);
  const out: Diagnostic[] = [];
  for (let i = transcriptLines(before).length; i < lines.length; i++) {
    const text = lines[i]!;
    if (!text.includes('"accept_outside_edit"')) continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (record === null || typeof record !== "object" || !isAcceptOp(record["op"])) continue;
    const op = record["op"] as unknown as Record<string, unknown>;
    const actor = record["actor"] as { name?: unknown; kind?: unknown } | undefined;
    const by =
      actor !== undefined && actor !== null && typeof actor.name === "string"
        ? ` by ${actor.name}${typeof actor.kind === "string" ? ` (${actor.kind})` : ""}`
        : "";
    const why = typeof record["reason"] === "string" ? `: "${record["reason"]}"` : "";
    const where = typeof op["gap_op_id"] === "string" ? ` before ${gapLine(lines, op["gap_op_id"], i)}` : "";
    out.push({
      severity: "info",
      code: ACCEPTED_CODE,
      message: `This change acknowledges an edit made to the document outside the protocol${where} (${short(op["recorded_sha256"])} → ${short(op["accepted_sha256"])}), accepted${by}${why}.`,
      pos: { line: i + 1, column: 1 },
    });
  }
  return out;
}
