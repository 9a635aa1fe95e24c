/**
 * Transcript verification (§5): every record, the hash chain, the state chain,
 * and the document on disk; optionally a byte-exact replay from a base
 * document (§5.5). Pure: the caller supplies the texts.
 *
 * Detects any single edited line (the seal, or the next line's chain link),
 * deleted, inserted or reordered line (chain links), records whose
 * rejected/noop post state differs from the pre state, summaries that do not
 * follow from their diagnostics, and documents changed outside the protocol
 * (each unless a later `accept_outside_edit` record acknowledges it: accept-outside-edit.ts).
 * Truncation of the newest records leaves no trace inside the file itself;
 * anchor it to history (the PR check compares the transcript with its base version).
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import { summarize } from "../validate/diagnostic.js";
import { describeIssues } from "../patch/describe-issues.js";
import { sha256Hex } from "../patch/sha256-hex.js";
import type { TranscriptRecord } from "./transcript-record.js";
import { sealOfLine } from "./seal-of-line.js";
import { isTranscriptRecord } from "./is-transcript-record.js";
import { transcriptSchemas } from "./transcript-schema.js";
import { isRecoveryOp } from "./recover-interrupted.js";
import { isAcceptOp, type OutsideEdit } from "./accept-outside-edit.js";
import { AcknowledgedGaps } from "./acknowledged-gaps.js";
import { utf8Of } from "../fsx/read-text-file.js";
import { illFormedString } from "../fsx/utf8-text.js";

/** The information a recovery record (recover-interrupted.ts) gets: the patch it abandons. */
export const RECOVERED_CODE = "transcript-recovered";
export interface TranscriptFinding {
  severity: "error" | "warning" | "info";
  code: string;
  message: string;
  /** 1-based line of the transcript (absent for findings about the document). */
  line?: number;
}

/** The patch engine as replay needs it (injected, so verification alone never loads it). */
export type ReplayEngine = (
  text: string,
  ops: unknown[],
) => {
  result: "applied" | "rejected" | "noop";
  text: string;
  postSha256: string;
  error?: { code: string; message: string };
};

/** Why a document is one patch behind its transcript. */
const INTERRUPTED_WRITE = "that patch was recorded but its write did not complete.";

export interface VerifyTranscriptOptions {
  /** Treat changes made outside the protocol as errors (config `transcripts: strict`). */
  strict?: boolean;
  /** Replay every applied op from this base document text (§5.5) with `engine` (e.g. `applyPatch`). */
  replay?: { base: string; engine: ReplayEngine };
}

export interface TranscriptReport {
  records: number;
  applied: number;
  findings: TranscriptFinding[];
  /** sha256 of the state the transcript ends in (null when it has no usable record). */
  finalSha256: string | null;
  ok: boolean;
  /** Every edit made outside the protocol, in order, with the line of its acknowledgement if one holds. */
  outsideEdits: OutsideEdit[];
}

/** The fields of a record the state chain, acknowledgements, recoveries and replay read. */
export type StateRecord = Pick<TranscriptRecord, "op_id" | "op" | "pre_sha256" | "post_sha256" | "pre_sha" | "post_sha" | "patch_result" | "actor" | "reason">;

function stateRecord(r: TranscriptRecord): StateRecord {
  const out: StateRecord = {
    op_id: r.op_id,
    op: r.op,
    pre_sha256: r.pre_sha256,
    post_sha256: r.post_sha256,
    pre_sha: r.pre_sha,
    post_sha: r.post_sha,
    patch_result: r.patch_result,
    actor: r.actor,
  };
  if (r.reason !== undefined) out.reason = r.reason;
  return out;
}

/** Split a transcript into raw lines, each with its "\n" (the last may lack it). */
export function transcriptLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", start)) {
    out.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

export function verifyTranscript(transcript: string, documentText: string | null, options: VerifyTranscriptOptions = {}): TranscriptReport {
  const findings: TranscriptFinding[] = [];
  const outside = options.strict === true ? "error" : "warning";
  const raw = transcriptLines(transcript);
  // What the state chain needs of each record, not the record: a long transcript's parsed
  // records (diagnostics and all) kept to the end made the collector copy and mark them again
  // and again (issue 38: 10× the records cost 12.9× the time).
  const records: Array<{ line: number; record: StateRecord }> = [];
  const seenIds = new Map<string, number>();
  let chained = false;

  raw.forEach((lineText, i) => {
    try {
      checkLine(lineText, i);
    } catch (e) {
      // A record nested so deep that serialising it (for its seal) overflows the stack: hostile, not ours.
      if (!(e instanceof RangeError)) throw e;
      findings.push({ severity: "error", code: "transcript-invalid-record", message: "Not a valid v1.0 record: nested too deeply to verify.", line: i + 1 });
    }
  });

  function checkLine(lineText: string, i: number): void {
    const line = i + 1;
    if (lineText.trim().length === 0) {
      findings.push({
        severity: "error",
        code: "transcript-blank-line",
        message: "Blank line in a JSONL transcript (lines are never removed or emptied).",
        line,
      });
      return;
    }
    if (!lineText.endsWith("\n"))
      findings.push({
        severity: "error",
        code: "transcript-torn-line",
        message: "The last line has no line break: the transcript was cut off mid-write.",
        line,
      });
    let value: unknown;
    try {
      value = JSON.parse(lineText);
    } catch (e) {
      findings.push({ severity: "error", code: "transcript-invalid-json", message: `Not valid JSON: ${(e as Error).message}`, line });
      return;
    }
    // The shape by hand; zod (its schemas built now) only to say what is wrong.
    const parsed = isTranscriptRecord(value) ? ({ success: true, data: value } as const) : transcriptSchemas().record.safeParse(value);
    if (!parsed.success) {
      const v = value as Record<string, unknown> | null;
      const legacy = v !== null && typeof v === "object" && v["protocol_version"] === undefined && v["v"] === 1;
      findings.push({
        severity: "error",
        code: "transcript-invalid-record",
        message: legacy
          ? "A Phase 0 record (v: 1) is not a v1.0 transcript record (§5.7)."
          : `Not a valid v1.0 record: ${describeIssues(parsed.error.issues, value)}.`,
        line,
      });
      return;
    }
    const record = parsed.data;
    const full = value as Record<string, unknown>;
    // Chain link to the previous raw line.
    const prevRaw = i > 0 ? raw[i - 1]! : null;
    if (record.prev_entry_sha256 !== undefined) {
      chained = true;
      if (prevRaw === null)
        findings.push({
          severity: "error",
          code: "transcript-chain-broken",
          message: "The first record links to a previous line that is not there (lines were removed from the start).",
          line,
        });
      else if (sha256Hex(prevRaw) !== record.prev_entry_sha256)
        findings.push({
          severity: "error",
          code: "transcript-chain-broken",
          message: `prev_entry_sha256 does not match line ${line - 1}: a line was edited, removed, inserted or moved.`,
          line,
        });
    } else if (chained) {
      findings.push({
        severity: "error",
        code: "transcript-chain-broken",
        message: "This record has no prev_entry_sha256 although earlier records are chained.",
        line,
      });
    }
    if (record.entry_sha256 !== undefined && sealOfLine(lineText, full) !== record.entry_sha256) {
      findings.push({
        severity: "error",
        code: "transcript-seal-broken",
        message: "entry_sha256 does not match the record's content: this line was edited.",
        line,
      });
    }
    const illFormed = record.patch_result === "applied" ? illFormedString(record.op, "op") : null;
    if (illFormed !== null)
      findings.push({
        severity: "error",
        code: "transcript-invalid-record",
        message: `The op holds text UTF-8 cannot encode, so the document cannot hold what it records (${illFormed.message}).`,
        line,
      });
    const first = seenIds.get(record.op_id);
    if (first !== undefined)
      findings.push({ severity: "error", code: "transcript-duplicate-op-id", message: `op_id ${record.op_id} already appears on line ${first}.`, line });
    else seenIds.set(record.op_id, line);
    if (record.pre_sha !== record.pre_sha256.slice(0, 8) || record.post_sha !== record.post_sha256.slice(0, 8)) {
      findings.push({
        severity: "error",
        code: "transcript-display-sha-mismatch",
        message: "pre_sha/post_sha are not the first 8 characters of pre_sha256/post_sha256.",
        line,
      });
    }
    if (record.patch_result !== "applied" && record.post_sha256 !== record.pre_sha256) {
      findings.push({
        severity: "error",
        code: "transcript-unchanged-state",
        message: `A ${record.patch_result} record must have post_sha256 equal to pre_sha256 (no bytes were written).`,
        line,
      });
    }
    if (record.diagnostics !== undefined) {
      for (const phase of ["pre", "post"] as const) {
        const derived = summarize(record.diagnostics.filter((d) => d.phase === phase) as Diagnostic[]);
        const stated = phase === "pre" ? record.pre_validation : record.post_validation;
        if (derived !== stated) {
          findings.push({
            severity: "error",
            code: "transcript-summary-inconsistent",
            message: `${phase}_validation is "${stated}" but its diagnostics give "${derived}" (§4.2).`,
            line,
          });
        }
      }
      if (record.diagnostics.some((d) => d.phase === undefined)) {
        findings.push({ severity: "error", code: "transcript-invalid-record", message: "Every diagnostic in a transcript record needs a phase (§4.3).", line });
      }
    }
    records.push({ line, record: stateRecord(record) });
  }

  // State chain: applied records move the state; every record starts from the current state.
  // A recovery record (recover-interrupted.ts) abandons the trailing applied records whose
  // document write never landed: the state continues from the document's real state.
  // An acknowledgement (accept-outside-edit.ts) bridges an edit made outside the protocol.
  let state: string | null = null;
  const trailingApplied: Array<{ line: number; pre: string; opId: string }> = [];
  const abandoned = new Set<number>();
  let applied = 0;
  const acknowledgements = new AcknowledgedGaps(records);
  const outsideEdits: OutsideEdit[] = [];
  let previousOpId: string | undefined;
  for (const { line, record } of records) {
    if (isRecoveryOp(record.op)) {
      const run = recoveredRun(record, trailingApplied, state);
      if (typeof run === "string") {
        findings.push({ severity: "error", code: "transcript-bad-recovery", message: `This recovery record does not match the transcript: ${run}.`, line });
      } else {
        for (const t of run) abandoned.add(t.line);
        applied -= run.length;
        const at = run.length === 1 ? `line ${run[0]!.line}` : `lines ${run[0]!.line}–${run[run.length - 1]!.line}`;
        findings.push({
          severity: "info",
          code: RECOVERED_CODE,
          message: `Records the recovery of the patch on ${at}, whose document write never landed (replay skips it).`,
          line,
        });
        trailingApplied.length = 0;
        state = record.pre_sha256;
        previousOpId = record.op_id;
        continue;
      }
    }
    if (isAcceptOp(record.op)) {
      const judged = acknowledgements.judge(line, record, state);
      findings.push(judged.finding);
      if (judged.bridges) {
        outsideEdits.push({
          recordedSha256: state!,
          acceptedSha256: record.pre_sha256,
          ...(previousOpId !== undefined ? { previousOpId } : {}),
          acknowledgedOn: line,
        });
        trailingApplied.length = 0;
        state = record.pre_sha256;
        previousOpId = record.op_id;
        continue;
      }
    }
    if (state !== null && record.pre_sha256 !== state) {
      const acknowledgedOn = acknowledgements.covering(line, record, state);
      outsideEdits.push({
        recordedSha256: state,
        acceptedSha256: record.pre_sha256,
        gap: { line, opId: record.op_id },
        ...(previousOpId !== undefined ? { previousOpId } : {}),
        ...(acknowledgedOn !== undefined ? { acknowledgedOn } : {}),
      });
      if (acknowledgedOn === undefined)
        findings.push({
          severity: outside,
          code: "transcript-state-gap",
          message:
            `The document changed outside the protocol before this record (it starts from ${record.pre_sha} but the previous state ` +
            `was ${state.slice(0, 8)}).`,
          line,
        });
    }
    previousOpId = record.op_id;
    if (record.patch_result === "applied") {
      applied++;
      trailingApplied.push({ line, pre: record.pre_sha256, opId: record.op_id });
      state = record.post_sha256;
    } else {
      trailingApplied.length = 0;
      state = record.pre_sha256;
    }
  }

  if (documentText !== null && state !== null) {
    const docSha = sha256Hex(utf8Of(documentText) ?? documentText);
    if (docSha !== state) {
      const interrupted = trailingApplied.find((t) => t.pre === docSha);
      if (interrupted !== undefined) {
        findings.push({
          severity: "error",
          code: "transcript-interrupted",
          message: `The document is at the state before the patch recorded on line ${interrupted.line}: ${INTERRUPTED_WRITE}`,
        });
      } else {
        outsideEdits.push({ recordedSha256: state, acceptedSha256: docSha, ...(previousOpId !== undefined ? { previousOpId } : {}) });
        findings.push({
          severity: outside,
          code: "transcript-document-mismatch",
          message:
            `The document (${docSha.slice(0, 8)}) is not the state the transcript ends in (${state.slice(0, 8)}): it was edited outside the patch ` +
            `protocol.`,
        });
      }
    }
  }

  if (options.replay !== undefined)
    replay(
      options.replay.base,
      options.replay.engine,
      records.filter((r) => !abandoned.has(r.line)),
      documentText,
      findings,
      outsideEdits,
    );

  return { records: records.length, applied, findings, finalSha256: state, ok: !findings.some((f) => f.severity === "error"), outsideEdits };
}

/**
 * The trailing applied records a recovery record abandons, or why it does not hold: it must be
 * a noop from the state the first of them starts from, name exactly the trailing applied
 * records from there to the end, and the state they end in.
 */
function recoveredRun(
  record: StateRecord,
  trailing: ReadonlyArray<{ line: number; pre: string; opId: string }>,
  state: string | null,
): Array<{ line: number }> | string {
  const op = record.op as Record<string, unknown>;
  const ids = op["abandoned_op_ids"];
  if (record.patch_result !== "noop" || record.post_sha256 !== record.pre_sha256) return "a recovery is a noop (post_sha256 = pre_sha256)";
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x) => typeof x === "string"))
    return "abandoned_op_ids must list the op_ids of the interrupted records";
  if (op["recorded_sha256"] !== state) return `recorded_sha256 is not the state the transcript was in (${state?.slice(0, 8) ?? "none"})`;
  const run = trailing.slice(trailing.length - ids.length);
  if (run.length !== ids.length || run.some((t, i) => t.opId !== ids[i])) return "abandoned_op_ids are not the applied records just before it";
  if (run[0]!.pre !== record.pre_sha256) return `the abandoned records do not start from its state ${record.pre_sha}`;
  return run;
}

/** Why replay cannot pass from `from` to `to` when an acknowledged outside edit is the step: the transcript does not hold its bytes. */
function acknowledgedStep(edits: readonly OutsideEdit[], from: string, to: string): string {
  const e = edits.find((x) => x.acknowledgedOn !== undefined && x.recordedSha256 === from && x.acceptedSha256 === to);
  return e === undefined
    ? ""
    : ` That step is the edit made outside the protocol acknowledged on line ${e.acknowledgedOn}: the transcript does not hold its bytes, so no ` +
        `replay passes it.`;
}

function replay(
  base: string,
  applyPatch: ReplayEngine,
  records: ReadonlyArray<{ line: number; record: StateRecord }>,
  documentText: string | null,
  findings: TranscriptFinding[],
  edits: readonly OutsideEdit[],
): void {
  const appliedRecords = records.filter((r) => r.record.patch_result === "applied");
  let text = base;
  const firstPre = appliedRecords[0]?.record.pre_sha256;
  if (firstPre !== undefined && sha256Hex(base) !== firstPre) {
    findings.push({
      severity: "error",
      code: "transcript-replay-base-mismatch",
      message: `The base document (${sha256Hex(base).slice(0, 8)}) is not the state the first applied record starts from (${firstPre.slice(0, 8)}).`,
    });
    return;
  }
  for (const { line, record } of appliedRecords) {
    if (sha256Hex(text) !== record.pre_sha256) {
      findings.push({
        severity: "error",
        code: "transcript-replay-mismatch",
        message:
          `Replay diverged before this record: the replayed state is ${sha256Hex(text).slice(0, 8)}, the record starts ` +
          `from ${record.pre_sha}.${acknowledgedStep(edits, sha256Hex(text), record.pre_sha256)}`,
        line,
      });
      return;
    }
    const outcome = applyPatch(text, [record.op]);
    if (outcome.result !== "applied") {
      findings.push({
        severity: "error",
        code: "transcript-replay-mismatch",
        message: `Replaying this applied op gave ${outcome.result}${outcome.error !== undefined ? ` (${outcome.error.code}: ${outcome.error.message})` : ""}.`,
        line,
      });
      return;
    }
    text = outcome.text;
    if (outcome.postSha256 !== record.post_sha256) {
      findings.push({
        severity: "error",
        code: "transcript-replay-mismatch",
        message: `Replaying this op produced ${outcome.postSha256.slice(0, 8)}, not the recorded post state ${record.post_sha}.`,
        line,
      });
      return;
    }
  }
  if (documentText !== null && text !== documentText) {
    findings.push({
      severity: "error",
      code: "transcript-replay-mismatch",
      message:
        `Replaying every applied op from the base does not reproduce the document byte for ` +
        `byte.${acknowledgedStep(edits, sha256Hex(text), sha256Hex(utf8Of(documentText) ?? documentText))}`,
    });
  }
}
