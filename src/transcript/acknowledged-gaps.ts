/**
 * The verifier's side of acknowledgements (accept-outside-edit.ts): which outside edits a
 * transcript's `accept_outside_edit` records acknowledge, and whether each record holds.
 *
 * - An acknowledgement without `gap_op_id` bridges the state chain at its own line: it must
 *   be a noop whose `recorded_sha256` is the state before it and whose `accepted_sha256` is
 *   its own pre_sha256, the two different.
 * - One with `gap_op_id` names an earlier record that starts from `accepted_sha256` where the
 *   state before it was `recorded_sha256`. Only the first acknowledgement naming a record
 *   counts; the gap must come before it.
 * Anything else is `transcript-bad-acceptance` (an error), and the gap stays a gap.
 */
import type { TranscriptRecord } from "./transcript-schema.js";

/** The fields of a record read here. */
type Acknowledging = Pick<TranscriptRecord, "op_id" | "op" | "pre_sha256" | "post_sha256" | "pre_sha" | "patch_result" | "actor" | "reason">;
import { isAcceptOp } from "./accept-outside-edit.js";

interface Finding {
  severity: "error" | "info";
  code: string;
  message: string;
  line: number;
}

interface Named {
  line: number;
  recorded: string;
  accepted: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Why an acknowledgement is malformed, or null. */
function malformed(record: Acknowledging): string | null {
  const op = record.op as Record<string, unknown>;
  if (record.patch_result !== "noop" || record.post_sha256 !== record.pre_sha256) return "an acknowledgement is a noop (post_sha256 = pre_sha256)";
  for (const key of ["recorded_sha256", "accepted_sha256"]) {
    if (typeof op[key] !== "string" || !HEX64.test(op[key] as string)) return `${key} must be a sha256 (64 lowercase hex characters)`;
  }
  if (op["recorded_sha256"] === op["accepted_sha256"]) return "recorded_sha256 and accepted_sha256 are the same state: there is no edit to accept";
  if ("gap_op_id" in op && (typeof op["gap_op_id"] !== "string" || op["gap_op_id"].length === 0))
    return "gap_op_id must be the op_id of the record the edit preceded";
  return null;
}

function who(record: Acknowledging): string {
  return `accepted by ${record.actor.name}${record.reason !== undefined ? `: "${record.reason}"` : ""}`;
}

export class AcknowledgedGaps {
  /** Well-formed acknowledgements naming a gap, by gap_op_id (the first of each). */
  private readonly named = new Map<string, Named>();
  /** Acknowledgement line → the gap line it matched. */
  private readonly matched = new Map<number, number>();

  constructor(records: ReadonlyArray<{ line: number; record: Acknowledging }>) {
    for (const { line, record } of records) {
      if (!isAcceptOp(record.op) || malformed(record) !== null) continue;
      const gap = record.op.gap_op_id;
      if (typeof gap === "string" && !this.named.has(gap))
        this.named.set(gap, { line, recorded: record.op.recorded_sha256 as string, accepted: record.op.accepted_sha256 as string });
    }
  }

  /** At a record that starts from another state than `state`: the line of the acknowledgement that covers it. */
  covering(line: number, record: Acknowledging, state: string): number | undefined {
    const ack = this.named.get(record.op_id);
    if (ack === undefined || ack.line <= line || ack.recorded !== state || ack.accepted !== record.pre_sha256 || this.matched.has(ack.line)) return undefined;
    this.matched.set(ack.line, line);
    return ack.line;
  }

  /**
   * At an acknowledgement record, with `state` the state before it: its finding, and whether it
   * bridges the state chain here (the caller then continues from its pre_sha256).
   */
  judge(line: number, record: Acknowledging, state: string | null): { finding: Finding; bridges: boolean } {
    const bad = (why: string) => ({
      finding: {
        severity: "error" as const,
        code: "transcript-bad-acceptance",
        message: `This acknowledgement of an outside edit does not match the transcript: ${why}.`,
        line,
      },
      bridges: false,
    });
    const why = malformed(record);
    if (why !== null) return bad(why);
    const op = record.op as Record<string, unknown>;
    const recorded = op["recorded_sha256"] as string;
    const accepted = op["accepted_sha256"] as string;
    const states = `${recorded.slice(0, 8)} → ${accepted.slice(0, 8)}`;
    if (typeof op["gap_op_id"] === "string") {
      const gapLine = this.matched.get(line);
      if (gapLine === undefined)
        return bad(
          `gap_op_id ${op["gap_op_id"]} names no earlier record that starts from ${accepted.slice(0, 8)} right after the ` +
            `state ${recorded.slice(0, 8)}, or that edit is acknowledged already`,
        );
      return {
        finding: {
          severity: "info",
          code: "transcript-outside-edit-accepted",
          message: `Acknowledges the edit made outside the protocol before line ${gapLine} (${states}), ${who(record)}.`,
          line,
        },
        bridges: false,
      };
    }
    if (state === null) return bad("no record before it recorded a state to bridge from");
    if (recorded !== state) return bad(`recorded_sha256 is not the state the transcript was in (${state.slice(0, 8)})`);
    if (accepted !== record.pre_sha256) return bad(`accepted_sha256 is not the state it records (pre_sha256 ${record.pre_sha})`);
    return {
      finding: {
        severity: "info",
        code: "transcript-outside-edit-accepted",
        message: `Acknowledges an edit made outside the protocol (${states}), ${who(record)}; the recorded state continues from ${accepted.slice(0, 8)}.`,
        line,
      },
      bridges: true,
    };
  }
}
