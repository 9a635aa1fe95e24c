/**
 * Machine output: a stable, versioned envelope. Consumers should branch on
 * `schema` and ignore fields they do not know.
 */
import type { FileDiagnostics } from "./file-diagnostics.js";
import { countDiagnostics } from "./file-diagnostics.js";
import { TOOL_NAME, TOOL_VERSION } from "../version.js";

export function formatDiagnosticsJson(files: readonly FileDiagnostics[], extra: Record<string, unknown> = {}): string {
  const summary = countDiagnostics(files);
  const envelope = {
    schema: "noma-reconcile/check@1",
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    ok: summary.errors === 0,
    summary,
    ...extra,
    files: files.map((f) => ({ file: f.file, diagnostics: f.diagnostics })),
  };
  return `${JSON.stringify(envelope, null, 2)}\n`;
}
