/**
 * The one transcript writer: append records to `<doc>.patches` atomically (temp file, fsync,
 * rename), chained to the last line and sealed (transcript-record.ts). Used by `patch` and
 * `transcript accept`, each under the document's lock.
 */
import { assertTranscriptPath } from "./may-hold-transcript.js";
import { readRegularFileIfPresent } from "../fsx/read-regular-file.js";
import { decodeText } from "../fsx/utf8-text.js";
import { writeFileAtomic } from "../fsx/write-file-atomic.js";
import { chainLines } from "./transcript-record.js";
import { transcriptLines } from "./verify-transcript.js";

/**
 * Append `records` to the transcript at `path`, after the records `heal` returns for the
 * existing lines (a recovery record); returns the lines written and what the file held before.
 * A last line without its line break gets one first. `dryRun` computes and writes nothing.
 */
export function appendTranscript(
  path: string,
  records: readonly Record<string, unknown>[],
  dryRun: boolean,
  heal: (existing: readonly string[]) => Record<string, unknown>[] = () => [],
  /** How refusals name the transcript (default: `path`). */
  label = path,
): { lines: string[]; previous: Buffer | null } {
  // Only a document has a transcript (may-hold-transcript.ts), whoever calls.
  assertTranscriptPath(path, label);
  // Only a regular file, never a blocking open (a FIFO is refused); bytes that are not UTF-8
  // text are refused, never rewritten with U+FFFD in their place.
  const previous = readRegularFileIfPresent(path, label);
  let before = previous !== null ? decodeText(previous, label) : "";
  let last: string | null = null;
  let prepend: Record<string, unknown>[] = [];
  if (before.length > 0) {
    const existing = transcriptLines(before);
    prepend = heal(existing);
    last = existing[existing.length - 1]!;
    if (!last.endsWith("\n")) {
      before += "\n";
      last += "\n";
    }
  }
  const lines = chainLines(prepend.length > 0 ? [...prepend, ...records] : records, last);
  if (!dryRun) writeFileAtomic(path, before + lines.join(""));
  return { lines, previous };
}
