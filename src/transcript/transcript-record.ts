/**
 * Transcript records (§5): the writer that turns a patch outcome into JSONL lines in the
 * specified key order, chained by `prev_entry_sha256` and sealed by `entry_sha256`. (The
 * v1.0 shape as a zod schema is in transcript-schema.ts: the writer never needs it.)
 *
 * `entry_sha256` (ours; extra fields are allowed by §5.6) is the sha256 of the
 * record's line written without that field. The chain protects every line but
 * the last; the seal protects the last one too.
 */
import { randomUUID } from "node:crypto";
import type { Actor, TranscriptRecord } from "./transcript-schema.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { summarize } from "../validate/diagnostic.js";
import type { PatchOutcome } from "../patch/apply-patch.js";
import { sha256Hex } from "../patch/sha256-hex.js";
import { TOOL_VERSION } from "../version.js";

export type { Actor, TranscriptRecord };

/** Validator diagnostics kept per phase in a record (errors first, so the summary stays derivable). */
export const MAX_VALIDATOR_DIAGNOSTICS = 50;

export interface RecordContext {
  docUri: string;
  actor: Actor;
  reason?: string;
  parentOpId?: string;
  baseSha256?: string;
  /** Time of the write (one timestamp per op list). */
  now?: Date;
  /** op_id generator (tests). */
  newId?: () => string;
}

const RANK = { error: 0, warning: 1, info: 2 } as const;

function withPhase(list: readonly Diagnostic[], phase: "pre" | "post"): Diagnostic[] {
  return [...list]
    .sort((a, b) => RANK[a.severity] - RANK[b.severity])
    .slice(0, MAX_VALIDATOR_DIAGNOSTICS)
    .map((d) => {
      const out: Diagnostic = { severity: d.severity, code: d.code, message: d.message };
      if (d.pos !== undefined) out.pos = d.pos;
      if (d.nodeId !== undefined) out.nodeId = d.nodeId;
      out.phase = phase;
      return out;
    });
}

/** One record object per attempted op, fields in the §5 order. */
export function buildRecords(outcome: PatchOutcome, ctx: RecordContext): Record<string, unknown>[] {
  const ts = (ctx.now ?? new Date()).toISOString();
  const pre = withPhase(outcome.preDiagnostics, "pre");
  const post = withPhase(outcome.postDiagnostics, "post");
  return outcome.ops.map((o) => {
    const diagnostics = [...o.diagnostics, ...outcome.warnings, ...pre, ...post];
    const record: Record<string, unknown> = {
      protocol_version: "1.0",
      tool_version: TOOL_VERSION,
      op_id: (ctx.newId ?? randomUUID)(),
      ts,
      actor: ctx.actor,
      doc_uri: ctx.docUri,
      pre_sha256: o.preSha256,
      post_sha256: o.postSha256,
      pre_sha: o.preSha256.slice(0, 8),
      post_sha: o.postSha256.slice(0, 8),
      op: o.op,
      patch_result: o.result,
      pre_validation: summarize(diagnostics.filter((d) => d.phase === "pre")),
      post_validation: summarize(diagnostics.filter((d) => d.phase === "post")),
    };
    if (ctx.reason !== undefined) record["reason"] = ctx.reason;
    if (ctx.parentOpId !== undefined) record["parent_op_id"] = ctx.parentOpId;
    if (ctx.baseSha256 !== undefined) record["base_sha256"] = ctx.baseSha256.toLowerCase();
    record["diagnostics"] = diagnostics;
    record["elapsed_ms"] = Math.round(o.elapsedMs * 1000) / 1000;
    return record;
  });
}

/** Serialise records as JSONL lines chained to `previousLine` (the raw last line, "\n" included, or null). */
export function chainLines(records: readonly Record<string, unknown>[], previousLine: string | null): string[] {
  const lines: string[] = [];
  let prev = previousLine;
  for (const r of records) {
    const record = { ...r };
    delete record["prev_entry_sha256"];
    delete record["entry_sha256"];
    if (prev !== null) record["prev_entry_sha256"] = sha256Hex(prev);
    record["entry_sha256"] = sha256Hex(JSON.stringify(record));
    const line = `${JSON.stringify(record)}\n`;
    lines.push(line);
    prev = line;
  }
  return lines;
}

/** The seal a record should carry: sha256 of its JSON without `entry_sha256`. */
export function expectedSeal(record: Record<string, unknown>): string {
  const copy = { ...record };
  delete copy["entry_sha256"];
  return sha256Hex(JSON.stringify(copy));
}
