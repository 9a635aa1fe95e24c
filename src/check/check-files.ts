/**
 * The one judgement behind `check`, the pre-commit hook and the PR check:
 * given the paths to judge and a reader over ONE source (the index, a commit
 * or the work tree), return diagnostics per file. Pure: every read is injected.
 *
 * - documents, book manifests, capability sidecars: the validator;
 * - transcripts (`<doc>.patches`): records, hash chain, state chain, and that
 *   the state they end in is the document's in the same source; a judged
 *   document's transcript is judged with it;
 * - specs: schema and `$ref`s, resolved against the same source;
 * - book chapters: in their books' context (links into other chapters resolve), the books
 *   read from the same source; given the source before a change, also the unchanged
 *   chapters the change breaks (book-ripple.ts).
 */
import type { NomaConfig } from "../config/config-defaults.js";
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import { checkNomaText, type CheckOptions } from "./check-noma-text.js";
import { checkedPathKind, documentTranscript, transcriptDocument } from "../layout/checked-path.js";
import type { BookContext } from "./book-context.js";
import { bookRipple } from "./book-ripple.js";
import { unreadableDiagnostic } from "./unreadable-diagnostic.js";

export interface CheckBooks {
  /** The books of the judged source. */
  context: BookContext;
  /** The work tree: the manifest of every book a judged chapter's links were looked up in is judged too (its problems shown once, at the manifest). */
  withManifests?: boolean;
  /** The hook and the PR check: the books before the change, to judge the unchanged chapters it breaks. */
  before?: BookContext;
  /** Paths never judged (the configuration's `exclude`), for chapters judged because of others. */
  excluded?: (path: string) => boolean;
}

export interface CheckFilesInput {
  /** Repository-relative paths to judge (paths of other kinds are ignored; absent ones are skipped). */
  targets: readonly string[];
  /**
   * A path's text in the judged source, or null when it has none. A file the source holds but
   * that cannot be read as text throws (NotUtf8TextError, FileUnreadableError): a judged file is
   * then an error diagnostic of its own (unreadable-diagnostic.ts), never skipped.
   */
  read: (path: string) => string | null;
  /** Every spec path in the judged source (consulted only when a spec is judged). */
  specPaths: () => readonly string[] | Promise<readonly string[]>;
  config: Pick<NomaConfig, "transcripts">;
  document?: CheckOptions;
  /** Judge chapters in their books' context (without: each document on its own). */
  books?: CheckBooks;
}

/**
 * Transcripts, sidecars and specs are judged by modules loaded when one is met (zod, the
 * patch engine's replay, the spec schemas): checking documents alone never loads them.
 */
export async function checkFiles(input: CheckFilesInput): Promise<FileDiagnostics[]> {
  const results = new Map<string, FileDiagnostics>();
  const specs: string[] = [];
  const transcripts = new Set<string>();
  // A judged document's text, kept for judging its transcript against it (read once, not twice).
  const documentTexts = new Map<string, string>();
  // A transcript or spec named among the targets will be judged: its module loads (file reads
  // and compilation) while the documents are parsed, not after.
  const kinds = input.targets.map(checkedPathKind);
  const transcriptModule = kinds.includes("transcript") ? import("./transcript-diagnostics.js") : undefined;
  const specModule = kinds.includes("spec") ? import("./spec-diagnostics.js") : undefined;
  for (const p of [transcriptModule, specModule]) p?.catch(() => undefined);
  /** A judged file's text, or null: absent, or it cannot be read (then its diagnostic says why). */
  const readJudged = (file: string): string | null => {
    try {
      return input.read(file);
    } catch (e) {
      const d = unreadableDiagnostic(e);
      if (d === null) throw e;
      add(results, { file, diagnostics: [d] });
      return null;
    }
  };
  for (const file of input.targets) {
    const kind = checkedPathKind(file);
    if (kind === "spec") specs.push(file);
    else if (kind === "transcript") transcripts.add(file);
    else if (kind === "sidecar") {
      const text = readJudged(file);
      if (text === null) continue;
      const { checkSidecar } = await import("./check-sidecar.js");
      results.set(file, { file, diagnostics: checkSidecar(text, input.document ?? {}) });
    } else if (kind === "document" || kind === "book") {
      const text = readJudged(file);
      if (text === null) continue;
      const resolveOutside = kind === "document" ? input.books?.context.lookupFor(file) : undefined;
      results.set(file, checkNomaText(file, text, resolveOutside !== undefined ? { ...input.document, resolveOutside } : (input.document ?? {})));
      if (kind === "document") {
        transcripts.add(documentTranscript(file));
        documentTexts.set(file, text);
      }
    }
  }
  if (input.books !== undefined) for (const r of judgeBooks({ ...input, read: readJudged }, input.books, results)) add(results, r);
  const strict = input.config.transcripts === "strict";
  for (const file of transcripts) {
    const doc = transcriptDocument(file);
    const docText = documentTexts.get(doc);
    documentTexts.delete(doc);
    const text = readJudged(file);
    if (text === null) continue;
    const { transcriptDiagnostics } = await (transcriptModule ?? import("./transcript-diagnostics.js"));
    // A document that cannot be read is an error of its own; its transcript is judged without it.
    const against = docText !== undefined ? docText : results.has(doc) ? null : readJudged(doc);
    results.set(file, { file, diagnostics: transcriptDiagnostics(text, against, doc, strict) });
  }
  if (specs.length > 0) {
    const { specDiagnostics } = await (specModule ?? import("./spec-diagnostics.js"));
    const judged = new Set(specs);
    // A judged spec that cannot be read is an error of its own; another one is left out of the set.
    const readSpec = (p: string): string | null => {
      if (judged.has(p)) return readJudged(p);
      try {
        return input.read(p);
      } catch (e) {
        if (unreadableDiagnostic(e) === null) throw e;
        return null;
      }
    };
    // A spec named for judging is judged even where the listing misses it (a file git does not list, such as a FIFO).
    const all = [...new Set([...(await input.specPaths()), ...specs])].sort();
    for (const r of specDiagnostics(specs, all, readSpec)) add(results, r);
  }
  return [...results.values()].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

function add(results: Map<string, FileDiagnostics>, r: FileDiagnostics): void {
  const have = results.get(r.file);
  if (have === undefined) results.set(r.file, r);
  else have.diagnostics.push(...r.diagnostics);
}

/** The books around the judged documents: their manifests (the work tree), the chapters a change breaks (hook, PR check). */
function judgeBooks(input: CheckFilesInput, books: CheckBooks, results: ReadonlyMap<string, FileDiagnostics>): FileDiagnostics[] {
  const judged = new Set(results.keys());
  const excluded = (p: string): boolean => books.excluded?.(p) === true;
  const out: FileDiagnostics[] = [];
  if (books.withManifests === true) {
    for (const m of [...books.context.consulted].sort()) {
      if (judged.has(m) || excluded(m)) continue;
      const text = input.read(m);
      if (text !== null) out.push(checkNomaText(m, text, input.document ?? {}));
    }
  }
  if (books.before !== undefined) {
    out.push(
      ...bookRipple({
        changed: input.targets.filter((p) => checkedPathKind(p) === "document" || checkedPathKind(p) === "book"),
        judged,
        excluded,
        after: books.context,
        before: books.before,
        judgeChapter: (file, text, resolveOutside) => checkNomaText(file, text, { ...input.document, resolveOutside }).diagnostics,
        judgeManifest: (file, text) => checkNomaText(file, text, input.document ?? {}).diagnostics,
      }),
    );
  }
  return out;
}
