/**
 * `check --format json`: the diagnostics in the JSON envelope (json-envelope.ts);
 * `result.files` lists every checked file with its diagnostics.
 */
import type { FileDiagnostics } from "./file-diagnostics.js";
import { countDiagnostics } from "./file-diagnostics.js";
import { formatJsonEnvelope } from "./json-envelope.js";

/** What `check --max-warnings N` says when there are more warnings than N. */
export function tooManyWarningsMessage(warnings: number, maxWarnings: number): string {
  return `Too many warnings: ${warnings}, more than --max-warnings ${maxWarnings} allows.`;
}

/** `maxWarnings` (`--max-warnings`): more warnings than that fail the check too (ok: false, said in `warnings`). */
export function formatDiagnosticsJson(files: readonly FileDiagnostics[], extra: Record<string, unknown> = {}, maxWarnings?: number): string {
  const summary = countDiagnostics(files);
  const tooManyWarnings = maxWarnings !== undefined && summary.warnings > maxWarnings;
  return formatJsonEnvelope("check", {
    ok: summary.errors === 0 && !tooManyWarnings,
    summary: { ...summary },
    warnings: tooManyWarnings ? [tooManyWarningsMessage(summary.warnings, maxWarnings)] : [],
    result: { ...extra, files: files.map((f) => ({ file: f.file, diagnostics: f.diagnostics })) },
  });
}
