/**
 * Transcripts are append-only against history, for the PR check (against the
 * merge-base) and the pre-commit hook (against HEAD). Pure: reads are injected.
 *
 * For every changed transcript that existed in the history version:
 * - still there: its history version must be a byte prefix of it
 *   (`appendOnlyDiagnostics`);
 * - deleted while its document stays: an error;
 * - deleted together with its document: renamed, if git pairs the old path
 *   (the transcript's, or its document's) with a new one that has a
 *   transcript — then that new transcript is held to the old path's history;
 *   otherwise a deliberate removal of the document and its history.
 *
 * Truncating the newest records, recomputing the chain, or re-sealing an
 * edited record all verify on their own; only history shows them.
 *
 * Acknowledgements of outside edits and recoveries of interrupted patches the change appends
 * (or a transcript it creates holds) come back as information.
 */
import type { FileDiagnostics } from "../report/file-diagnostics.js";
import { documentTranscript, transcriptDocument } from "../layout/checked-path.js";
import { appendOnlyDiagnostics } from "./transcript-append-only.js";
import { historyAppended } from "../transcript/transcript-acknowledgements.js";
import { RECOVERY_OP } from "../transcript/recover-interrupted.js";

export interface TranscriptHistoryInput {
  /** Changed transcripts (present or deleted in the judged source). */
  transcripts: readonly string[];
  /** A path's text in the history version (the merge-base, HEAD), or null. */
  before: (path: string) => string | null;
  /** A path's text in the judged source (HEAD of the PR, the index), or null. */
  after: (path: string) => string | null;
  /** Renames old path → new path between the two (git's rename detection); asked only when needed. */
  renames: () => ReadonlyMap<string, string>;
  /** How findings name the history version ("HEAD", "the merge-base 1a2b3c4d5e6f"). */
  label: string;
}

export function transcriptHistoryDiagnostics(input: TranscriptHistoryInput): FileDiagnostics[] {
  const out: FileDiagnostics[] = [];
  for (const t of input.transcripts) {
    const before = input.before(t);
    if (before === null) {
      out.push(...createdWithHistory(t, input));
      continue;
    }
    const after = input.after(t);
    if (after !== null) {
      out.push({ file: t, diagnostics: appendOnlyDiagnostics(before, after, input.label) });
      continue;
    }
    const doc = transcriptDocument(t);
    if (input.after(doc) !== null) {
      out.push({ file: t, diagnostics: appendOnlyDiagnostics(before, null, input.label) });
      continue;
    }
    const renames = input.renames();
    const movedDoc = renames.get(doc);
    const moved = renames.get(t) ?? (movedDoc !== undefined ? documentTranscript(movedDoc) : undefined);
    if (moved === undefined) continue; // the document and its transcript removed together
    const now = input.after(moved);
    // Moved with its document: held to the old path's history; the document moved without it: deleted.
    if (now !== null) out.push({ file: moved, diagnostics: appendOnlyDiagnostics(before, now, `${input.label} (as ${t})`) });
    else if (movedDoc !== undefined)
      out.push({ file: t, diagnostics: appendOnlyDiagnostics(before, null, `${input.label} (its document moved to ${movedDoc})`) });
  }
  return out.filter((r) => r.diagnostics.length > 0);
}

/**
 * A transcript the change creates: the acknowledgements and recoveries it holds, as
 * information — unless it is an old transcript moved here (those were shown when made).
 */
function createdWithHistory(t: string, input: TranscriptHistoryInput): FileDiagnostics[] {
  const after = input.after(t);
  if (after === null || !(after.includes('"accept_outside_edit"') || after.includes(`"${RECOVERY_OP}"`))) return [];
  const notices = historyAppended("", after);
  if (notices.length === 0) return [];
  const renames = input.renames();
  for (const [from, to] of renames) if (to === t || (to === transcriptDocument(t) && input.before(documentTranscript(from)) !== null)) return [];
  return [{ file: t, diagnostics: notices }];
}
