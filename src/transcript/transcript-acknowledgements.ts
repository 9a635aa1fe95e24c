/**
 * A transcript's history records as the checks show them: acknowledged outside edits
 * (accept-outside-edit.ts) and recoveries of interrupted patches (recover-interrupted.ts). Pure.
 *
 * - `check` judges a transcript as it stands: an acknowledgement or a recovery that holds is
 *   history, not a finding, so it is left out there (`withoutHistory`); `transcript verify`
 *   lists it.
 * - The pre-commit hook and the PR check also compare a transcript with its history version:
 *   the acknowledgements and recoveries among the lines the change appends are shown as
 *   information (`historyAppended`), so a reviewer sees that the change accepts an outside edit
 *   or abandons a patch that never reached the document. Whether each holds is the transcript
 *   check's business (`transcript-bad-acceptance`, `transcript-bad-recovery`).
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import { isAcceptOp } from "./accept-outside-edit.js";
import { RECOVERY_OP } from "./recover-interrupted.js";
import { RECOVERED_CODE, transcriptLines } from "./verify-transcript.js";

export const ACCEPTED_CODE = "transcript-outside-edit-accepted";

/** `findings` without the information that an acknowledgement or a recovery holds. */
export function withoutHistory<T extends { severity: string; code: string }>(findings: readonly T[]): T[] {
  return findings.filter((f) => !(f.severity === "info" && (f.code === ACCEPTED_CODE || f.code === RECOVERED_CODE)));
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

/** The information for a recovery record the change appends (at 0-based line `i`). */
function recoveryAppended(lines: readonly string[], i: number, op: Record<string, unknown>): Diagnostic {
  const ids = Array.isArray(op["abandoned_op_ids"]) ? op["abandoned_op_ids"].filter((x): x is string => typeof x === "string") : [];
  const where =
    ids.length === 0 ? "" : ids.length === 1 ? ` on ${gapLine(lines, ids[0]!, i)}` : ` on ${gapLine(lines, ids[0]!, i)} and ${ids.length - 1} after it`;
  return {
    severity: "info",
    code: RECOVERED_CODE,
    message:
      `This change records the recovery of an interrupted patch${where}: its document write never landed (${short(op["recorded_sha256"])} was never ` +
      `the document), so replay skips it.`,
    pos: { line: i + 1, column: 1 },
  };
}

/**
 * Information diagnostics for the acknowledgement and recovery records in `after` past
 * `before` (a byte prefix of it; "" for a transcript the change creates), at their lines.
 */
export function historyAppended(before: string, after: string): Diagnostic[] {
  const lines = transcriptLines(after);
  const out: Diagnostic[] = [];
  for (let i = transcriptLines(before).length; i < lines.length; i++) {
    const text = lines[i]!;
    const recovery = text.includes(`"${RECOVERY_OP}"`);
    if (!recovery && !text.includes('"accept_outside_edit"')) continue;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(text) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (record === null || typeof record !== "object") continue;
    const recordOp = record["op"] as Record<string, unknown> | null | undefined;
    if (recovery && recordOp !== null && typeof recordOp === "object" && recordOp["op"] === RECOVERY_OP) {
      out.push(recoveryAppended(lines, i, recordOp));
      continue;
    }
    if (!isAcceptOp(record["op"])) continue;
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
      message:
        `This change acknowledges an edit made to the document outside the protocol${where} (${short(op["recorded_sha256"])} ` +
        `→ ${short(op["accepted_sha256"])}), accepted${by}${why}.`,
      pos: { line: i + 1, column: 1 },
    });
  }
  return out;
}
