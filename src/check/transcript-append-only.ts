/**
 * Pure: a transcript may only grow. Its version at the base must be a byte
 * prefix of its version at the head; otherwise every base line that was
 * edited or removed is reported, by line number. (Truncating the newest
 * records leaves no trace inside the file, so only history can show it.)
 * Appended acknowledgements of outside edits and recoveries come back as information.
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import { transcriptLines } from "../transcript/verify-transcript.js";
import { historyAppended } from "../transcript/transcript-acknowledgements.js";

export const MAX_REWRITE_FINDINGS = 20;

export function appendOnlyDiagnostics(base: string, head: string | null, baseLabel = "the base"): Diagnostic[] {
  if (head === null) {
    return [
      {
        severity: "error",
        code: "transcript-rewritten",
        message: `The transcript existed at ${baseLabel} and was deleted; transcripts are append-only.`,
        pos: { line: 1, column: 1 },
      },
    ];
  }
  // Growth: the acknowledgements and recoveries it appends are shown (information).
  if (head.startsWith(base)) return historyAppended(base, head);
  const was = transcriptLines(base);
  const now = transcriptLines(head);
  const out: Diagnostic[] = [];
  let changed = 0;
  for (let i = 0; i < was.length; i++) {
    const before = was[i]!;
    const after = now[i];
    // The base's last line may lack its line break; appending one is growth, not an edit.
    if (after === before || (i === was.length - 1 && !before.endsWith("\n") && after?.startsWith(before) === true)) continue;
    changed++;
    if (out.length >= MAX_REWRITE_FINDINGS) continue;
    const line = i + 1;
    out.push(
      after === undefined
        ? {
            severity: "error",
            code: "transcript-rewritten",
            message: `Line ${line} existed at ${baseLabel} and was removed; transcripts are append-only.`,
            pos: { line: Math.max(1, now.length), column: 1 },
          }
        : {
            severity: "error",
            code: "transcript-rewritten",
            message: `Line ${line} differs from its version at ${baseLabel}: an earlier record was edited (transcripts are append-only).`,
            pos: { line, column: 1 },
          },
    );
  }
  if (changed > out.length)
    out.push({
      severity: "error",
      code: "transcript-rewritten",
      message: `…and ${changed - out.length} more lines of ${baseLabel}'s version were edited or removed.`,
      pos: { line: out[out.length - 1]?.pos?.line ?? 1, column: 1 },
    });
  return out;
}
