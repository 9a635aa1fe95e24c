/**
 * An op list against a document (§3.2, §3.4, §4.1): atomic, validated before
 * and after, one outcome per attempted op. Pure: the caller reads and writes.
 *
 * - List-level rejections (book manifest, expected_sha, strict pre-validation)
 *   reject every op of the list with the same code.
 * - Ops apply in order, each to the state the previous one produced. When op k
 *   fails, ops before it are rolled back (`op_list_aborted`) and ops after it
 *   are not attempted.
 * - A changed document is re-validated once, after the last op.
 */
import type { NomaDocument } from "../noma/ast.js";
import { compactParse } from "../noma/compact-parse.js";
import { parseNoma } from "../noma/parse-noma.js";
import { commonEnds, type EditSpan, reparseEdited } from "../noma/reparse/reparse-edited.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { diagnosticChange, lineShiftOf, type DiagnosticChange, type LineShift } from "../validate/diagnostic-change.js";
import { summarize, type ValidationSummary } from "../validate/diagnostic.js";
import { validateNoma, type ValidateOptions } from "../validate/validate-noma.js";
import { validationCacheKey } from "../validate/validation-cache-key.js";
import { type EditBase, editBase, validateEdited } from "../validate/validate-edited.js";
import { reparseCompactLine } from "../noma/reparse/reparse-compact-line.js";
import { applyOp, opTargetId, validateOp } from "./apply-op.js";
import { applyFormatDocument, isFormatOp } from "./ops/format-op.js";
import { isPatchError, PatchError, type PatchErrorCode } from "./patch-error.js";
import type { PatchOp } from "./patch-op-schema.js";
import { compactTargets, NeedsTree } from "./compact-targets.js";
import { DocumentMemo, type DocumentState } from "./document-memo.js";
import { ResumableSha256 } from "./resumable-sha256.js";
import { sha256Hex } from "./sha256-hex.js";
import { assembledBytes, recordedEdit, recordEdits, releaseEditBuffer, useTextBytes, type RecordedEdit } from "./text-edit.js";

export { sha256Hex };

export type PatchResult = "applied" | "rejected" | "noop";

export interface OpOutcome {
  /** The op as submitted (kept verbatim for the transcript). */
  op: unknown;
  result: PatchResult;
  preSha256: string;
  postSha256: string;
  /** Engine diagnostics for this op (the rejection code, op_list_aborted, advisories); phase "pre". */
  diagnostics: Diagnostic[];
  error?: { code: PatchErrorCode; message: string };
  elapsedMs: number;
}

export interface PatchOutcome {
  result: PatchResult;
  /** The final text (the input when nothing changed). */
  text: string;
  preSha256: string;
  postSha256: string;
  ops: OpOutcome[];
  /** Validator diagnostics of the state before the list and after it (no phase). */
  preDiagnostics: Diagnostic[];
  postDiagnostics: Diagnostic[];
  preValidation: ValidationSummary;
  postValidation: ValidationSummary;
  /**
   * What the list changed in the validator's diagnostics: those it introduced and resolved,
   * and how many it left (see diagnostic-change.ts); nothing when the text did not change.
   */
  change: DiagnosticChange;
  /** List-level warnings (base_sha_drift). */
  warnings: Diagnostic[];
  /** The rejection that stopped the list. */
  error?: { code: PatchErrorCode; message: string; opIndex: number };
}

/** Advisory hook (Annex A.4): return advisory diagnostics for an op, never blocking. */
export type AdvisoryCheck = (doc: NomaDocument, op: PatchOp) => Diagnostic[];

export interface ApplyPatchOptions {
  strict?: boolean;
  /** Phase-0 whole-file precondition: the first 8+ hex chars of the document's sha256. */
  expectedSha?: string;
  /** The sha256 the caller prepared the patch against (drift is a warning). */
  baseSha256?: string;
  /** The target is a book manifest: every op is unsupported. */
  bookManifest?: boolean;
  validate?: ValidateOptions;
  advisory?: AdvisoryCheck;
  /** Reject the whole list up front (e.g. a document that is not valid UTF-8). */
  rejectAll?: { code: PatchErrorCode; message: string };
  /** sha256 of the document's bytes when they are not exactly `text` encoded as UTF-8. */
  preSha256?: string;
  /** The UTF-8 bytes of `text` when the caller read them from a file: an ASCII document is hashed from them (no encoding of the text). */
  textUtf8?: Uint8Array;
  /** Parse of `text`, when the caller already has it. It is consumed: the engine reuses its nodes and id index (read what you need from it first). */
  parsed?: NomaDocument;
  /** Called after each op that applied or did nothing, with its index (the CLI collects garbage there: prepare-short-run-jit.ts). */
  afterOp?: (index: number) => void;
  /**
   * Also apply `format_document` ops (ops/format-op.ts: fmt's implementation extension, layout
   * only): fmt and transcript replay say so. Without it they are `unsupported_op`, as any op
   * outside the catalog (§3.1).
   */
  formatOps?: boolean;
  /**
   * The ops are recorded ones being replayed (§5.5): a field the op does not take, which
   * another version or tool may have recorded, is left out instead of refused.
   */
  replayRecorded?: boolean;
  /** Clock for elapsed_ms (tests). */
  now?: () => number;
  /**
   * Start from the remembered state when `text` is what an earlier patch in this process
   * produced (its parse and sha256, see DocumentMemo), and remember this patch's result.
   * Default true; false measures or forces the cold path. The outcome is the same either way.
   */
  reuse?: boolean;
  /**
   * The caller calls preparePatchMemo() when idle (a long-lived server): a single op on a
   * text no earlier patch produced then skips building the node tree, and the remembered
   * result gets it from preparePatchMemo rather than now. Without preparation the next patch
   * of that text builds it itself, which costs more than building it now. Same outcomes.
   */
  prepareLater?: boolean;
}

/** Document states earlier patches produced in this process. */
const MEMO = new DocumentMemo();

/**
 * Build what the next patch of each remembered state needs and a one-shot patch left out
 * (its node tree, and its facts validated with the options of the patch that produced it),
 * so that patch starts warm. A long-lived process calls it when idle (the MCP server, after
 * answering a patch); without it, the next patch builds them itself. The outcomes are the
 * same either way.
 */
export function preparePatchMemo(): void {
  for (const state of MEMO.states()) {
    if (compactParse(state.doc) === undefined) continue;
    validateNoma(state.doc, { ...state.validateOptions, cacheBlockFacts: true, previous: state.doc });
  }
}

/** Forget every remembered document state (tests, benchmarks, memory pressure). */
export function clearPatchMemo(): void {
  MEMO.clear();
  releaseEditBuffer();
}

function engineDiagnostic(code: string, message: string, severity: Diagnostic["severity"] = "error", nodeId?: string): Diagnostic {
  const d: Diagnostic = { severity, code, message, phase: "pre" };
  if (nodeId !== undefined) d.nodeId = nodeId;
  return d;
}

export function applyPatch(text: string, ops: readonly unknown[], options: ApplyPatchOptions = {}): PatchOutcome {
  // Monotonic milliseconds from process.hrtime (the global `performance` loads node:perf_hooks on first use: ≈ 1.5 ms of a one-shot patch).
  const clock = options.now ?? (() => Number(process.hrtime.bigint()) / 1e6);
  // Only states the engine owns are remembered (never a caller's parse, which it may still
  // read, nor nodes shared with it), and only under their own text's sha256.
  const remember = options.reuse !== false && options.preSha256 === undefined && options.parsed === undefined;
  const hit = remember ? MEMO.take(text) : undefined;
  // A text patched once by a single op and let go: the result is kept as pieces of the bytes
  // read (text-edit.ts). Not for a list: each op's result would be a fresh document-sized string
  // on the collected heap, where an assembled one reuses its buffer and lives outside it.
  if (!remember && options.textUtf8 !== undefined && ops.length === 1) useTextBytes(text, options.textUtf8);
  // sha256 states that later texts resume (an op near the end hashes only the tail).
  let hash0: ResumableSha256 | undefined = hit?.hash;
  const hashOf0 = (): ResumableSha256 => (hash0 ??= ResumableSha256.of(text, undefined, options.textUtf8));
  const preSha256 = options.preSha256 ?? hashOf0().hex;
  const doc0 = options.parsed ?? hit?.doc ?? parseNoma(text);
  const keep = (t: string, doc: NomaDocument, hash: ResumableSha256, diagnostics: readonly Diagnostic[]): void => {
    if (!remember) return;
    const key = validationCacheKey(doc, options.validate);
    const state: DocumentState = { doc, hash };
    if (key !== null) state.validation = { key, diagnostics: diagnostics.map(copyDiagnostic) };
    if (options.validate !== undefined) state.validateOptions = options.validate;
    MEMO.put(t, state);
  };
  // Facts per block are remembered: the post-state shares every untouched block with this one,
  // and a remembered state (its facts kept from the patch that produced it) validates without
  // reading its blocks again, or not at all when its diagnostics cannot have changed.
  const validateOptions: ValidateOptions = { ...options.validate, cacheBlockFacts: true };
  const known = hit?.validation;
  // A single op on a fresh parse whose result is not remembered, or remembered to be prepared
  // later (see preparePatchMemo): validated from the block table before and after, the op
  // given only its targets (see compactTargets). The node tree and the facts the incremental
  // path takes over cost more than parsing and validating twice. A remembered state is
  // always patched incrementally.
  const oneShot = ops.length === 1 && hit === undefined && (!remember || options.prepareLater === true) ? compactTargets(doc0) : undefined;
  // One-shot, the result is validated from these diagnostics (validate-edited.ts): both under one clock.
  const oneShotOptions: ValidateOptions = { ...options.validate, now: options.validate?.now ?? new Date() };
  const preDiagnostics =
    known !== undefined && known.key === validationCacheKey(doc0, options.validate)
      ? known.diagnostics.map(copyDiagnostic)
      : oneShot !== undefined
        ? validateNoma(doc0, oneShotOptions)
        : validateNoma(doc0, { ...validateOptions, previous: doc0 });
  const preValidation = summarize(preDiagnostics);
  const warnings: Diagnostic[] = [];
  if (options.baseSha256 !== undefined && options.baseSha256.toLowerCase() !== preSha256) {
    warnings.push(
      engineDiagnostic(
        "base_sha_drift",
        `The document changed since the caller read it: base_sha256 ${options.baseSha256.slice(0, 12)}… ≠ pre_sha256 ${preSha256.slice(0, 12)}…; ` +
          `the patch was applied to the current state.`,
        "warning",
      ),
    );
  }
  const rejectAll = (code: PatchErrorCode, message: string): PatchOutcome => {
    keep(text, doc0, hashOf0(), preDiagnostics);
    return {
      result: "rejected",
      text,
      preSha256,
      postSha256: preSha256,
      ops: ops.map((op) => ({
        op,
        result: "rejected",
        preSha256,
        postSha256: preSha256,
        diagnostics: [engineDiagnostic(code, message)],
        error: { code, message },
        elapsedMs: 0,
      })),
      preDiagnostics,
      postDiagnostics: preDiagnostics,
      preValidation,
      postValidation: preValidation,
      change: unchangedDiagnostics(preDiagnostics),
      warnings,
      error: { code, message, opIndex: 0 },
    };
  };

  if (options.rejectAll !== undefined) return rejectAll(options.rejectAll.code, options.rejectAll.message);
  if (options.bookManifest === true) {
    return rejectAll(
      "unsupported_op",
      "Book manifests (.noma.yml) are not patch targets in v1.0; patch the chapter's .noma file with its unscoped ids (§2.3).",
    );
  }
  if (options.expectedSha !== undefined && !preSha256.startsWith(options.expectedSha.toLowerCase())) {
    return rejectAll(
      "sha_mismatch",
      `expected_sha ${options.expectedSha} does not match the document's current sha ${preSha256.slice(0, 8)}; re-read the document and rebuild the patch.`,
    );
  }
  if (options.strict === true && preValidation === "error") {
    const first = preDiagnostics.find((d) => d.severity === "error")!;
    return rejectAll(
      "pre_validation_blocked",
      `Strict mode: the document already has validator errors (first: [${first.code}] ${first.message}); fix them first or patch without --strict.`,
    );
  }

  const outcomes: OpOutcome[] = [];
  // The lines of the text before the list, for the line map of what it changed: an op list
  // re-parses in place (reparseEdited consumes the earlier line index), a single op on a
  // table-only parse reads them before its result is parsed.
  const preStarts = oneShot !== undefined ? doc0.lineStarts : doc0.lineStarts.slice();
  let current = text;
  let doc = doc0;
  let currentSha = preSha256;
  let currentHash: ResumableSha256 | undefined;
  // Where the text so far differs from `text` (null: nowhere yet; undefined: unknown).
  let span: EditSpan | null | undefined = null;
  for (let k = 0; k < ops.length; k++) {
    const started = clock();
    const raw = ops[k];
    let parsedOp: PatchOp | undefined;
    try {
      const format = options.formatOps === true && isFormatOp(raw);
      parsedOp = format ? undefined : validateOp(raw, options.replayRecorded === true);
      const op = parsedOp;
      const run = (on: NomaDocument): { advisories: Diagnostic[]; next: string; edit: RecordedEdit | null | undefined } => {
        const advisories = op !== undefined ? (options.advisory?.(on, op) ?? []) : [];
        // The op's edits are recorded, so the texts need not be compared to find what changed.
        recordEdits(current);
        let next: string;
        try {
          next = op !== undefined ? applyOp(on, op) : applyFormatDocument(on, raw);
        } catch (e) {
          recordedEdit();
          throw e;
        }
        return { advisories, next, edit: recordedEdit() };
      };
      let ran: ReturnType<typeof run>;
      try {
        ran = run(oneShot ?? doc);
      } catch (e) {
        if (!(e instanceof NeedsTree)) throw e;
        ran = run(doc);
      }
      const { advisories, next, edit } = ran;
      const known = edit !== undefined && edit !== null && edit.text === next ? edit : undefined;
      const changed = known !== undefined ? !sameBetween(current, next, known) : next !== current;
      let nextHash: ResumableSha256 | undefined;
      if (changed) nextHash = (currentHash ?? hashOf0()).resume(next, known?.prefix, assembledBytes(next));
      const nextSha = nextHash !== undefined ? nextHash.hex : currentSha;
      outcomes.push({
        op: raw,
        result: changed ? "applied" : "noop",
        preSha256: currentSha,
        postSha256: nextSha,
        diagnostics: advisories,
        elapsedMs: clock() - started,
      });
      if (changed) {
        current = next;
        currentSha = nextSha;
        currentHash = nextHash;
        span =
          known === undefined || span === undefined
            ? undefined
            : span === null
              ? known
              : { prefix: Math.min(span.prefix, known.prefix), suffix: Math.min(span.suffix, known.suffix) };
        // Re-parse only around the edit (the result equals a full parse; see reparseEdited).
        if (oneShot === undefined) doc = reparseEdited(doc, current, known);
      }
    } catch (e) {
      if (!isPatchError(e)) throw e;
      const failed: OpOutcome = {
        op: raw,
        result: "rejected",
        preSha256: currentSha,
        postSha256: currentSha,
        diagnostics: [engineDiagnostic(e.code, e.message, "error", parsedOp !== undefined ? safeTarget(parsedOp) : undefined)],
        error: { code: e.code, message: e.message },
        elapsedMs: clock() - started,
      };
      // Roll back: earlier ops become op_list_aborted, every record now has post = pre = the original state.
      const aborted = outcomes.map((o, i) => ({
        ...o,
        result: "rejected" as const,
        preSha256,
        postSha256: preSha256,
        diagnostics: [
          ...o.diagnostics,
          engineDiagnostic("op_list_aborted", `Rolled back: op ${k + 1} of the list was rejected (${e.code}); no bytes were written.`, "info"),
        ],
        error: { code: "op_list_aborted" as const, message: `op ${i + 1} was rolled back because op ${k + 1} was rejected` },
      }));
      failed.preSha256 = preSha256;
      failed.postSha256 = preSha256;
      if (doc === doc0) keep(text, doc0, hashOf0(), preDiagnostics);
      return {
        result: "rejected",
        text,
        preSha256,
        postSha256: preSha256,
        ops: [...aborted, failed],
        preDiagnostics,
        postDiagnostics: preDiagnostics,
        preValidation,
        postValidation: preValidation,
        change: unchangedDiagnostics(preDiagnostics),
        warnings,
        error: { code: e.code, message: e.message, opIndex: k },
      };
    }
    options.afterOp?.(k);
  }
  // Ops may undo each other: the list changed the text only if it differs in the end.
  const changed = span === null ? false : span !== undefined ? !sameBetween(text, current, span) : current !== text;
  // How the lines moved, read before the result is parsed (reparseCompactLine may reuse the line index).
  let shift: ((afterLines: number) => LineShift) | undefined;
  // One-shot: what the incremental post-validation needs of the original, read before the result is parsed.
  let base: EditBase | undefined;
  if (changed) {
    const [prefix, suffix] = span !== null && span !== undefined ? [span.prefix, span.suffix] : commonEnds(text, current);
    shift = lineShiftOf(preStarts, text.length, current, prefix, suffix);
    if (oneShot !== undefined) base = editBase(doc0, { prefix, suffix });
  }
  // One-shot: the result's table from the original's when the edit stayed within a directive's
  // opening line (reparse-compact-line.ts), else a fresh parse. Not for a result remembered for
  // the next patch (its ids would keep the original text alive beside the new one).
  if (changed && oneShot !== undefined)
    doc = (!remember && span !== null && span !== undefined ? reparseCompactLine(doc0, current, span) : undefined) ?? parseNoma(current);
  // One-shot, only what the op can have changed is validated again (validate-edited.ts); an op
  // list's states share their nodes and facts, which the validation takes over (`previous`).
  const postDiagnostics = !changed
    ? preDiagnostics
    : oneShot !== undefined
      ? base !== undefined
        ? validateEdited(doc, base, preDiagnostics, oneShotOptions)
        : validateNoma(doc, oneShotOptions)
      : validateNoma(doc, { ...validateOptions, previous: doc0 });
  keep(current, doc, currentHash ?? hashOf0(), postDiagnostics);
  return {
    result: changed ? "applied" : "noop",
    text: current,
    preSha256,
    postSha256: currentSha,
    ops: outcomes,
    preDiagnostics,
    postDiagnostics,
    preValidation,
    postValidation: summarize(postDiagnostics),
    change: shift !== undefined ? diagnosticChange(preDiagnostics, postDiagnostics, shift(doc.lineStarts.length - 1)) : unchangedDiagnostics(preDiagnostics),
    warnings,
  };
}

/** Nothing introduced or resolved: every diagnostic as it was. */
export function unchangedDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticChange {
  return { introduced: [], resolved: [], unchanged: diagnostics.length };
}

/** Whether `a` and `b`, equal in their first `prefix` and last `suffix` characters, are equal. */
function sameBetween(a: string, b: string, { prefix, suffix }: EditSpan): boolean {
  return a.length === b.length && a.slice(prefix, a.length - suffix) === b.slice(prefix, b.length - suffix);
}

function copyDiagnostic(d: Diagnostic): Diagnostic {
  return d.pos !== undefined ? { ...d, pos: { ...d.pos } } : { ...d };
}

function safeTarget(op: PatchOp): string | undefined {
  try {
    return opTargetId(op);
  } catch {
    return undefined;
  }
}

export { PatchError };
