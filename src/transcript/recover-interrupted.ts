/**
 * Healing an interrupted patch. The transcript is written before the document
 * (so the document is never written without its record); a process killed
 * between the two leaves applied records whose bytes never reached the
 * document. Left alone, the next patch's records would start from the
 * document's real state, not from the state those records end in, and the
 * history would fail `--strict` for good (`transcript-state-gap`).
 *
 * So the next patch (under the document's lock) first appends a recovery
 * record: a v1.0 record whose op is `{op: "recover_interrupted",
 * abandoned_op_ids, recorded_sha256}`, `patch_result: "noop"`, and pre = post
 * = the document's real state (the state the abandoned records start from),
 * `parent_op_id` the last abandoned record, actor the tool. The verifier
 * accepts it only when it names exactly the trailing applied records that
 * start from that state, and the state they claim; it then continues the
 * state chain from the real state and replay skips the abandoned records.
 * Readers that do not know it see a noop (audit only, skipped by replay, §5.5).
 *
 * The common case costs one JSON.parse of the last line.
 */
import type { PatchOutcome } from "../patch/apply-patch.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";
import { buildRecords } from "./transcript-record.js";

export const RECOVERY_OP = "recover_interrupted";

/** The records a recovery abandons: op_ids and 1-based lines, and the state they claim. */
export interface InterruptedRun {
  opIds: string[];
  /** 1-based transcript lines of the abandoned records (first, last). */
  lines: [number, number];
  /** The state the abandoned records end in (which the document never reached). */
  recordedSha256: string;
}

interface Summary {
  op_id: string;
  patch_result: string;
  pre_sha256: string;
  post_sha256: string;
}

function summary(line: string): Summary | null {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return null;
  }
  if (v === null || typeof v !== "object") return null;
  const r = v as Record<string, unknown>;
  const ok =
    typeof r["op_id"] === "string" && typeof r["patch_result"] === "string" && typeof r["pre_sha256"] === "string" && typeof r["post_sha256"] === "string";
  return ok ? (r as unknown as Summary) : null;
}

/**
 * The trailing applied records of `lines` (raw transcript lines) whose document write never
 * landed, given the document's sha256 `docSha`: those from the earliest trailing applied
 * record that starts from `docSha` to the end. Null when the transcript ends in `docSha`
 * (nothing interrupted), or the document is in some other state (an edit outside the
 * protocol, which stays visible as such).
 */
export function interruptedRun(lines: readonly string[], docSha: string): InterruptedRun | null {
  if (lines.length === 0) return null;
  const last = summary(lines[lines.length - 1]!);
  if (last === null) return null;
  const end = last.patch_result === "applied" ? last.post_sha256 : last.pre_sha256;
  if (end === docSha || last.patch_result !== "applied") return null;
  // Walk back over the trailing applied records; the earliest that starts from the document's state opens the run.
  const trailing: string[] = []; // op_ids, newest first
  let from = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    const r = i === lines.length - 1 ? last : summary(lines[i]!);
    if (r === null || r.patch_result !== "applied") break;
    trailing.push(r.op_id);
    if (r.pre_sha256 === docSha) from = i;
  }
  if (from < 0) return null;
  const opIds = trailing.slice(0, lines.length - from).reverse();
  return { opIds, lines: [from + 1, lines.length], recordedSha256: end };
}

/** The recovery record (a record object, unchained) for `run`, in front of the patch that found it. */
export function recoveryRecord(run: InterruptedRun, outcome: PatchOutcome, ctx: { docUri: string; now?: Date }): Record<string, unknown> {
  const at = run.lines[0] === run.lines[1] ? `line ${run.lines[0]}` : `lines ${run.lines[0]}–${run.lines[1]}`;
  const message =
    `The patch recorded on ${at} never reached the document (its process stopped between the transcript write and the document write); the document ` +
    `is still at the state ${outcome.preSha256.slice(0, 8)} those records start from, not ${run.recordedSha256.slice(0, 8)}.`;
  const note: Diagnostic = { severity: "warning", code: "interrupted_patch_recovered", message, phase: "pre" };
  const [record] = buildRecords(
    {
      ...outcome,
      ops: [
        {
          op: { op: RECOVERY_OP, abandoned_op_ids: run.opIds, recorded_sha256: run.recordedSha256 },
          result: "noop",
          preSha256: outcome.preSha256,
          postSha256: outcome.preSha256,
          diagnostics: [note],
          elapsedMs: 0,
        },
      ],
      postDiagnostics: outcome.preDiagnostics,
      warnings: [],
    },
    {
      docUri: ctx.docUri,
      actor: { kind: "tool", name: TOOL_NAME, version: TOOL_VERSION },
      reason: `Recovery of an interrupted patch: ${message}`,
      parentOpId: run.opIds[run.opIds.length - 1]!,
      ...(ctx.now !== undefined ? { now: ctx.now } : {}),
    },
  );
  return record!;
}

/** Whether a parsed record is a recovery record (its op). */
export function isRecoveryOp(op: unknown): op is { op: typeof RECOVERY_OP; abandoned_op_ids: unknown; recorded_sha256: unknown } {
  return op !== null && typeof op === "object" && (op as Record<string, unknown>)["op"] === RECOVERY_OP;
}
