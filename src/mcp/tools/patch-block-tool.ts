/**
 * MCP `patch_block` (Annex B.6) over the library's `patchDocument`: one op
 * (`op`) or an atomic list (`ops`); one transcript record per attempted op in
 * `<file>.patches`, whatever the outcome.
 *
 * `op` (and each item of `ops`, or `ops` itself) may arrive as a JSON string
 * of the value: clients that saw no type send strings. A value that is not a
 * patch op at all is refused before anything is recorded (an `isError`
 * result naming what was expected and found, with `invalid_content`).
 *
 * A rejection (any §3.5 PatchError) is a normal result `{ok: false, error,
 * code}`; a system fault (the document cannot be read or written, the
 * transcript cannot be written, a lock times out) is thrown and becomes an
 * `isError` result. A transcript that cannot be written aborts the patch: the
 * document is never written without its record (a deliberate deviation from
 * B.6, which swallows transcript failures).
 */
import { preparePatchMemo } from "../../patch/apply-patch.js";
import { describeJsonValue } from "../../patch/assert-recordable-ops.js";
import { worktreeChapterLookupIfListed } from "../../check/worktree-books.js";
import { isBookManifestPath } from "../../editing/book-manifest-path.js";
import { lockPathFor, patchDocument } from "../../editing/patch-document.js";
import { assertMayHoldTranscript } from "../../transcript/may-hold-transcript.js";
import { patchBook } from "../../editing/patch-book.js";
import { withFileLock } from "../../fsx/with-file-lock.js";
import type { Diagnostic, ValidationSummary } from "../../validate/diagnostic.js";
import { diagnosticChangesJson, type DiagnosticChangesJson } from "../../validate/diagnostic-change.js";
import type { ToolContext } from "../tool-context.js";
import { ToolFailure } from "../tool-result.js";
import { documentArg } from "./document-arg.js";

export interface PatchBlockArgs {
  file: string;
  op?: unknown;
  ops?: unknown;
  reason?: string;
  expected_sha?: string;
  actor?: { kind: "human" | "agent" | "tool"; name: string; model?: string; version?: string };
  base_sha256?: string;
  parent_op_id?: string;
  strict?: boolean;
}

export type PatchBlockResult =
  | {
      ok: true;
      post_validation: ValidationSummary;
      transcript_entry: Record<string, unknown>;
      diagnostics: Diagnostic[];
      diagnostic_changes: DiagnosticChangesJson;
      transcript_entries: Record<string, unknown>[];
    }
  | { ok: false; error: string; code: string; transcript_entries: Record<string, unknown>[]; op_index?: number; chapter?: string };

/** A book's answer: each chapter the list touched, with its records (transcript_entries: all of them, chapter by chapter). */
export interface PatchBookChapterJson {
  file: string;
  op_indexes: number[];
  outcome: "applied" | "noop" | "rejected";
  post_validation: ValidationSummary;
  diagnostics: Diagnostic[];
  transcript_entries: Record<string, unknown>[];
}

export const DEFAULT_ACTOR = { kind: "agent", name: "unknown" } as const;

/**
 * Clients that found no type on `op` send it as a JSON string: one that parses to an object
 * or a list is taken as that value; anything else stays as given, for assertRecordableOps
 * (in patchDocument) to refuse by name.
 */
function fromJsonString(v: unknown): unknown {
  if (typeof v !== "string") return v;
  const t = v.trim();
  if (!t.startsWith("{") && !t.startsWith("[")) return v;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return v;
  }
}

function opList(v: unknown): unknown[] {
  const list = fromJsonString(v);
  if (!Array.isArray(list))
    throw new ToolFailure(
      `invalid_content: ops: expected a list of patch ops (or a JSON string of one), found ${describeJsonValue(list)}; nothing was recorded or written`,
    );
  if (list.length === 0) throw new ToolFailure("invalid_content: ops: expected at least one patch op, found an empty list; nothing was recorded or written");
  return list.map(fromJsonString);
}

/** patch_block on a book manifest: patchBook (each op to its chapter, all or nothing). */
function patchBookTool(abs: string, args: PatchBlockArgs, ctx: ToolContext): PatchBlockResult & { chapters?: PatchBookChapterJson[] } {
  if (args.expected_sha !== undefined || args.base_sha256 !== undefined)
    throw new ToolFailure(
      "expected_sha and base_sha256 name one document's state; a book has one per chapter: give each op a baseHash (checked against its chapter's block)",
    );
  const ops = args.ops !== undefined ? opList(args.ops) : [fromJsonString(args.op)];
  const r = patchBook(abs, ops, {
    root: ctx.root,
    actor: args.actor !== undefined ? { ...args.actor } : { ...DEFAULT_ACTOR },
    ...(args.reason !== undefined ? { reason: args.reason } : {}),
    ...(args.parent_op_id !== undefined ? { parentOpId: args.parent_op_id } : {}),
    ...(args.strict !== undefined ? { strict: args.strict } : {}),
  });
  const chapters = r.chapters.map(
    (c): PatchBookChapterJson => ({
      file: c.file,
      op_indexes: c.opIndexes,
      outcome: c.outcome.result,
      post_validation: c.outcome.postValidation,
      diagnostics: c.outcome.postDiagnostics,
      transcript_entries: c.records,
    }),
  );
  const entries = r.chapters.flatMap((c) => c.records);
  if (r.result === "rejected") {
    const e = r.error!;
    return {
      ok: false,
      error: e.message,
      code: e.code,
      op_index: e.opIndex,
      ...(e.file !== undefined ? { chapter: e.file } : {}),
      transcript_entries: entries,
      chapters,
    };
  }
  const order: readonly ValidationSummary[] = ["ok", "warn", "error"];
  const worst = r.chapters.reduce<ValidationSummary>(
    (w, c) => (order.indexOf(c.outcome.postValidation) > order.indexOf(w) ? c.outcome.postValidation : w),
    "ok",
  );
  // What the list changed in the book's diagnostics: every chapter's, each named by its file.
  const changes = r.chapters.map((c) => ({ file: c.file, json: diagnosticChangesJson(c.outcome) }));
  const named = (list: (j: DiagnosticChangesJson) => Diagnostic[]): Diagnostic[] => changes.flatMap((c) => list(c.json).map((d) => ({ ...d, file: c.file })));
  const total = (k: keyof DiagnosticChangesJson["totals"]): number => changes.reduce((n, c) => n + c.json.totals[k], 0);
  return {
    ok: true,
    post_validation: worst,
    transcript_entry: entries[entries.length - 1]!,
    diagnostics: r.chapters.flatMap((c) => c.outcome.postDiagnostics.map((d) => ({ ...d, file: c.file }))),
    diagnostic_changes: {
      introduced: named((j) => j.introduced),
      resolved: named((j) => j.resolved),
      totals: { introduced: total("introduced"), resolved: total("resolved"), unchanged: total("unchanged"), before: total("before"), after: total("after") },
    },
    transcript_entries: entries,
    chapters,
  };
}

export async function patchBlockTool(args: PatchBlockArgs, ctx: ToolContext): Promise<PatchBlockResult> {
  const hasOp = args.op !== undefined;
  const hasOps = args.ops !== undefined;
  if (hasOp === hasOps) throw new ToolFailure("give exactly one of `op` (one patch op) or `ops` (a list of ops applied atomically)");
  const { abs, rel } = documentArg(args.file, ctx, true);
  if (isBookManifestPath(rel)) return patchBookTool(abs, args, ctx);
  // Only a document has a transcript (may-hold-transcript.ts): refused before its lock is taken.
  assertMayHoldTranscript(abs, rel);
  // A chapter of a book is validated in its book (its links into other chapters resolve).
  const resolveOutside = worktreeChapterLookupIfListed(ctx.root, ctx.inRepo, rel);
  const ops = hasOps ? opList(args.ops) : [fromJsonString(args.op)];
  // The document's lock is awaited, never waited for with the thread blocked: while another
  // process holds it, the server still answers ping, initialize and tools/list.
  const r = await withFileLock(lockPathFor(abs), () =>
    patchDocument(abs, ops, {
      lockHeld: true,
      root: ctx.root,
      actor: args.actor !== undefined ? { ...args.actor } : { ...DEFAULT_ACTOR },
      ...(args.reason !== undefined ? { reason: args.reason } : {}),
      ...(args.parent_op_id !== undefined ? { parentOpId: args.parent_op_id } : {}),
      ...(args.expected_sha !== undefined ? { expectedSha: args.expected_sha.toLowerCase() } : {}),
      ...(args.base_sha256 !== undefined ? { baseSha256: args.base_sha256.toLowerCase() } : {}),
      ...(args.strict !== undefined ? { strict: args.strict } : {}),
      prepareLater: true,
      ...(resolveOutside !== undefined ? { validate: { resolveOutside } } : {}),
    }),
  );
  // Once this answer is out and nothing else waits, build what the document's next patch
  // needs (a first patch of a document skips it; see preparePatchMemo). Never keeps the
  // server alive on its own.
  setTimeout(preparePatchMemo, 0).unref();
  const o = r.outcome;
  if (o.result === "rejected") {
    const error = o.error ?? { code: "unsupported_op", message: "the patch was rejected" };
    return { ok: false, error: error.message, code: error.code, transcript_entries: r.records };
  }
  return {
    ok: true,
    post_validation: o.postValidation,
    transcript_entry: r.records[r.records.length - 1]!,
    diagnostics: o.postDiagnostics,
    diagnostic_changes: diagnosticChangesJson(o),
    transcript_entries: r.records,
  };
}
