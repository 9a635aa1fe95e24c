/**
 * Patch a book (`book.noma.yml`) with one op list across its chapters: each op goes to the
 * chapter that owns its target id — a chapter-scoped section id (`risks/mitigation`), its
 * unscoped alias (`mitigation`) or a directive id — and is applied there with the chapter's
 * own ids (the scoped form rewritten to the unscoped one). Every chapter's ops are applied in
 * memory, the re-assembled book is validated (each chapter's post-validation resolves links
 * into the others as they will be), and then every changed chapter and its transcript are
 * written in one crash-safe transaction (book-transaction.ts), or nothing is.
 *
 * - An id two chapters hold is `id_conflict` (the op is ambiguous); an id no chapter holds is
 *   `target_missing`; an op that is not a patch op is `invalid_content`. These refusals come
 *   before any chapter is touched and record nothing (no chapter owns the op).
 * - An op refused by its chapter (a `baseHash` is checked against the chapter's block, as in a
 *   single-document patch) rejects the whole list: that chapter's transcript gets its records
 *   (rejected, as a single-document patch records them), no document is written.
 * - An op list that leaves one directive id in two chapters is `id_conflict`, nothing written.
 * - The book manifest itself gets no transcript: it is not a document.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { NomaError } from "../errors/noma-error.js";
import { containPath } from "../fsx/contain-path.js";
import { readTextFile } from "../fsx/read-text-file.js";
import { acquireFileLockSync, type HeldLock } from "../fsx/with-file-lock.js";
import { parseBook, parseBookManifest, parseChapter } from "../noma/parse-book.js";
import { applyPatch, type PatchOutcome } from "../patch/apply-patch.js";
import { validateOp } from "../patch/apply-op.js";
import { assertRecordableOps } from "../patch/assert-recordable-ops.js";
import { isPatchError, type PatchErrorCode } from "../patch/patch-error.js";
import { appendTranscript } from "../transcript/append-transcript.js";
import { interruptedRun, recoveryRecord } from "../transcript/recover-interrupted.js";
import { buildRecords, type Actor } from "../transcript/transcript-record.js";
import { commitBookTransaction, recoverBookTransaction, type TransactionFile } from "./book-transaction.js";
import { documentUri } from "./document-uri.js";
import { DocumentMissingError, lockPathFor, refuseSymlinks, transcriptPath } from "./patch-document.js";

export interface PatchBookOptions {
  actor: Actor;
  /** The repository root: chapters are contained in it, records name them relative to it. */
  root: string;
  strict?: boolean;
  reason?: string;
  parentOpId?: string;
  /** Compute and report, write nothing. */
  dryRun?: boolean;
  lockTimeoutMs?: number;
  now?: Date;
}

/** One chapter the list touched. */
export interface BookChapterPatch {
  /** The chapter, relative to the repository (POSIX). */
  file: string;
  /** Indexes in the book's op list of the ops routed here, in order. */
  opIndexes: number[];
  /** The ops as applied to the chapter (scoped ids rewritten to the chapter's own). */
  ops: unknown[];
  outcome: PatchOutcome;
  records: Record<string, unknown>[];
  transcriptPath: string;
  written: boolean;
}

export interface PatchBookResult {
  result: "applied" | "noop" | "rejected";
  /** The chapters ops were routed to, in the order the book lists them. */
  chapters: BookChapterPatch[];
  /** The refusal, with the index of the op in the book's list. */
  error?: { code: PatchErrorCode; message: string; opIndex: number; file?: string };
  /** Files an interrupted earlier transaction left half-written, finished before this one (repository-relative). */
  recovered: string[];
}

/** The book manifest is not valid, or lists a chapter that cannot be read. */
export class BookManifestInvalidError extends NomaError {
  static override readonly errorName: string = "BookManifestInvalidError";
  constructor(manifest: string, detail: string) {
    super("book-manifest-invalid", `${manifest}: ${detail}`);
  }
}

/** The op field naming the block an op acts on (its route), and every field naming an existing block. */
function routeField(op: Record<string, unknown>): string {
  if (typeof op["target"] === "string") return "target";
  if (op["op"] === "add_block") return "parent";
  if (op["op"] === "rename_id") return "from";
  return "id";
}
const REFERENCE_FIELDS = ["id", "target", "parent", "from", "reply_to"] as const;

interface Chapter {
  /** As the manifest writes it. */
  written: string;
  abs: string;
  rel: string;
  slug: string;
  text: string;
  /** Every id and alias the chapter holds on its own (unscoped), and its scoped ids → unscoped. */
  own: Set<string>;
  scoped: Map<string, string>;
  /** Directive ids (never scoped). */
  directives: Set<string>;
}

function readChapter(written: string, abs: string, rel: string, text: string): Chapter {
  const c = parseChapter(written, text);
  const own = new Set<string>();
  const directives = new Set<string>();
  for (const [id, node] of c.doc.nodeById) {
    const unscoped = c.scoped.get(id) ?? id;
    own.add(unscoped);
    if (node.type === "directive") directives.add(unscoped);
  }
  for (const [alias] of c.doc.aliasMap) if (!c.scoped.has(alias)) own.add(alias);
  return { written, abs, rel, slug: c.slug, text, own, scoped: c.scoped, directives };
}

/** Patch the book at `manifestAbs` (contained in the repository by the caller). */
export function patchBook(manifestAbs: string, ops: readonly unknown[], options: PatchBookOptions): PatchBookResult {
  assertRecordableOps(ops);
  const rel = (p: string): string => relative(options.root, p).split(sep).join("/");
  const manifestRel = rel(manifestAbs);
  if (!existsSync(manifestAbs) || !statSync(manifestAbs).isFile()) throw new DocumentMissingError(manifestAbs, manifestRel);
  const manifestText = readTextFile(manifestAbs);
  const manifest = parseBookManifest(manifestText);
  if (manifest.errors.length > 0) throw new BookManifestInvalidError(manifestRel, manifest.errors[0]!.message);
  const files = manifest.files.map((written) => {
    const relPath = containPath(join(dirname(manifestAbs), written), options.root, options.root);
    return { written, abs: join(options.root, relPath), rel: relPath };
  });

  const locks: HeldLock[] = [];
  const lockOptions = options.lockTimeoutMs !== undefined ? { timeoutMs: options.lockTimeoutMs } : {};
  try {
    if (options.dryRun !== true) {
      // The manifest's lock, then every chapter's in path order: two transactions never wait on each other in a cycle.
      for (const p of [manifestAbs, ...[...new Set(files.map((f) => f.abs))].sort()]) locks.push(acquireFileLockSync(lockPathFor(p), lockOptions));
    }
    const recovered =
      options.dryRun === true
        ? []
        : recoverBookTransaction(
            manifestAbs,
            files.flatMap((f) => [f.abs, transcriptPath(f.abs)]),
          ).map((p) => rel(p));
    return run(manifestAbs, manifestText, files, ops, options, recovered);
  } finally {
    for (const l of locks.reverse()) l.release();
  }
}

function run(
  manifestAbs: string,
  manifestText: string,
  files: ReadonlyArray<{ written: string; abs: string; rel: string }>,
  ops: readonly unknown[],
  options: PatchBookOptions,
  recovered: string[],
): PatchBookResult {
  const chapters = files.map((f) => {
    refuseSymlinks(f.abs, options.root);
    if (!existsSync(f.abs) || !statSync(f.abs).isFile())
      throw new BookManifestInvalidError(relative(options.root, manifestAbs), `chapter ${f.written} cannot be read`);
    return readChapter(f.written, f.abs, f.rel, readTextFile(f.abs));
  });
  const refuse = (code: PatchErrorCode, message: string, opIndex: number): PatchBookResult => ({
    result: "rejected",
    chapters: [],
    error: { code, message, opIndex },
    recovered,
  });

  // ---- route every op ----------------------------------------------------------
  const routed = new Map<number, { opIndexes: number[]; ops: unknown[] }>();
  for (let i = 0; i < ops.length; i++) {
    try {
      validateOp(ops[i]);
    } catch (e) {
      if (isPatchError(e)) return refuse(e.code, e.message, i);
      throw e;
    }
    // The op as given (a field it does not take was refused above), its ids rewritten below.
    const op: Record<string, unknown> = { ...(ops[i] as Record<string, unknown>) };
    const field = routeField(op);
    const key = op[field] as string;
    const owners: number[] = [];
    chapters.forEach((c, k) => {
      if (c.scoped.has(key) || c.own.has(key)) owners.push(k);
    });
    if (owners.length === 0)
      return refuse("target_missing", `${field} "${key}" is in no chapter of ${relative(options.root, manifestAbs).split(sep).join("/")}.`, i);
    if (owners.length > 1)
      return refuse(
        "id_conflict",
        `${field} "${key}" is held by ${owners.length} chapters (${owners.map((k) => chapters[k]!.rel).join(", ")}); ` +
          `address it by its chapter-scoped id (e.g. "${chapters[owners[0]!]!.slug}/${key}") or patch the chapter's file.`,
        i,
      );
    const c = chapters[owners[0]!]!;
    // The chapter's own ids on the wire: a scoped id of this chapter becomes its unscoped form.
    for (const f of REFERENCE_FIELDS) {
      const v = op[f];
      if (typeof v === "string" && c.scoped.has(v)) op[f] = c.scoped.get(v)!;
    }
    const group = routed.get(owners[0]!) ?? { opIndexes: [], ops: [] };
    group.opIndexes.push(i);
    group.ops.push(op);
    routed.set(owners[0]!, group);
  }
  const order = [...routed.keys()].sort((a, b) => a - b);

  // ---- apply in memory: first against the book as it is, then validated in the book as it will be ----
  const resolverOver = (texts: ReadonlyMap<number, string>, self: number): ((target: string) => true | string) => {
    let names: Set<string> | undefined;
    return (target) => {
      if (names === undefined) {
        const book = parseBook(manifestText, (written) => {
          const k = chapters.findIndex((c) => c.written === written);
          return k === -1 || k === self ? null : (texts.get(k) ?? chapters[k]!.text);
        });
        names = new Set([...book.ids, ...book.aliasMap.keys()]);
      }
      return names.has(target) ? true : "";
    };
  };
  const first = new Map<number, PatchOutcome>();
  for (const k of order) {
    const outcome = applyPatch(chapters[k]!.text, routed.get(k)!.ops, {
      ...(options.strict !== undefined ? { strict: options.strict } : {}),
      reuse: false,
      validate: { resolveOutside: resolverOver(new Map(), k) },
    });
    first.set(k, outcome);
    if (outcome.result === "rejected") {
      const group = routed.get(k)!;
      const bookIndex = group.opIndexes[outcome.error!.opIndex] ?? group.opIndexes[0]!;
      const patched = record(chapters[k]!, group, outcome, options);
      const written = options.dryRun === true ? [] : [{ path: patched.transcriptPath, data: patched.transcript }];
      if (options.dryRun !== true) commitBookTransaction(manifestAbs, written);
      return {
        result: "rejected",
        chapters: [{ ...patched.chapter, written: false }],
        error: { code: outcome.error!.code, message: outcome.error!.message, opIndex: bookIndex, file: chapters[k]!.rel },
        recovered,
      };
    }
  }
  const after = new Map<number, string>();
  for (const k of order) after.set(k, first.get(k)!.text);
  const outcomes = new Map<number, PatchOutcome>();
  for (const k of order) {
    const outcome = applyPatch(chapters[k]!.text, routed.get(k)!.ops, { reuse: false, validate: { resolveOutside: resolverOver(after, k) } });
    outcomes.set(k, outcome);
  }

  // ---- one directive id in two chapters, where the list put it ----------------------
  const holders = new Map<string, number[]>();
  chapters.forEach((c, k) => {
    const ids = after.has(k) ? readChapter(c.written, c.abs, c.rel, after.get(k)!).directives : c.directives;
    for (const id of ids) holders.set(id, [...(holders.get(id) ?? []), k]);
  });
  for (const [id, ks] of holders) {
    if (ks.length < 2 || ks.every((k) => !after.has(k) || chapters[k]!.directives.has(id))) continue;
    const k = ks.find((x) => after.has(x) && !chapters[x]!.directives.has(id))!;
    return refuse(
      "id_conflict",
      `the list gives ${chapters[k]!.rel} the id "${id}", which ${ks
        .filter((x) => x !== k)
        .map((x) => chapters[x]!.rel)
        .join(", ")} already holds: ids are unique across a book.`,
      routed.get(k)!.opIndexes[0]!,
    );
  }

  // ---- records, then one transaction ------------------------------------------------
  const results: BookChapterPatch[] = [];
  const writes: TransactionFile[] = [];
  const docs: TransactionFile[] = [];
  for (const k of order) {
    const outcome = outcomes.get(k)!;
    const patched = record(chapters[k]!, routed.get(k)!, outcome, options);
    writes.push({ path: patched.transcriptPath, data: patched.transcript });
    const changed = outcome.result === "applied";
    if (changed) docs.push({ path: chapters[k]!.abs, data: outcome.text });
    results.push({ ...patched.chapter, written: changed && options.dryRun !== true });
  }
  if (options.dryRun !== true) commitBookTransaction(manifestAbs, [...writes, ...docs]);
  const applied = results.some((r) => r.outcome.result === "applied");
  return { result: applied ? "applied" : "noop", chapters: results, recovered };
}

/** A chapter's records and its transcript's new bytes (healing an interrupted single-document patch first, as patchDocument does). */
function record(
  c: Chapter,
  group: { opIndexes: number[]; ops: unknown[] },
  outcome: PatchOutcome,
  options: PatchBookOptions,
): { chapter: Omit<BookChapterPatch, "written">; transcriptPath: string; transcript: string } {
  const docUri = documentUri(c.abs, options.root);
  const records = buildRecords(outcome, {
    docUri,
    actor: options.actor,
    ...(options.reason !== undefined ? { reason: options.reason } : {}),
    ...(options.parentOpId !== undefined ? { parentOpId: options.parentOpId } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  const tPath = transcriptPath(c.abs);
  const heal = (existing: readonly string[]): Record<string, unknown>[] => {
    const interrupted = interruptedRun(existing, outcome.preSha256);
    return interrupted === null ? [] : [recoveryRecord(interrupted, outcome, { docUri, ...(options.now !== undefined ? { now: options.now } : {}) })];
  };
  const { lines, previous } = appendTranscript(tPath, records, true, heal);
  let before = previous?.toString("utf8") ?? "";
  if (before.length > 0 && !before.endsWith("\n")) before += "\n";
  return {
    chapter: {
      file: c.rel,
      opIndexes: group.opIndexes,
      ops: group.ops,
      outcome,
      records: lines.map((l) => JSON.parse(l) as Record<string, unknown>),
      transcriptPath: tPath,
    },
    transcriptPath: tPath,
    transcript: before + lines.join(""),
  };
}
