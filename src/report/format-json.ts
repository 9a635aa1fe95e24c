/**
 * `check --format json`: the diagnostics in the JSON envelope (json-envelope.ts);
 * `result.files` lists every checked file with its diagnostics.
 */
import type { FileDiagnostics } from "./file-diagnostics.js";
import { countDiagnostics } from "./file-diagnostics.js";
import { formatJsonEnvelope } from "./json-envelope.js";

export function formatDiagnosticsJson(files: readonly FileDiagnostics[], extra: Record<string, unknown> = {}): string {
  const summary = countDiagnostics(files);
  return formatJsonEnvelope("check", {
    ok: summary.errors === 0,
    summary: { ...summary },
    result: { ...extra, files: files.map((f) => ({ file: f.file, diagnostics: f.diagnostics })) },
  });
}
