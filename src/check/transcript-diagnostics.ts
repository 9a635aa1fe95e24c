/**
 * A transcript's findings as diagnostics of the transcript file: record
 * schema, hash chain, state chain, and whether the state it ends in is the
 * document's (an edit made outside the patch protocol is a warning, an error
 * under `transcripts: strict`). Findings about the document point at the
 * transcript's last line (the record whose state the document should be in).
 * Acknowledged outside edits and recovered patches are history, not findings: `transcript verify` lists them, and
 * the hook and the PR check show those the change makes (transcript-acknowledgements.ts).
 */
import type { Diagnostic } from "../validate/diagnostic.js";
import { transcriptLines, verifyTranscript } from "../transcript/verify-transcript.js";
import { withoutHistory } from "../transcript/transcript-acknowledgements.js";

export function transcriptDiagnostics(transcript: string, document: string | null, documentPath: string, strict: boolean): Diagnostic[] {
  const report = verifyTranscript(transcript, document, { strict });
  const last = Math.max(1, transcriptLines(transcript).length);
  return withoutHistory(report.findings).map((f) => {
    const d: Diagnostic = {
      severity: f.severity,
      code: f.code,
      message: f.line === undefined ? `${documentPath}: ${f.message}` : f.message,
      pos: { line: f.line ?? last, column: 1 },
    };
    return d;
  });
}
