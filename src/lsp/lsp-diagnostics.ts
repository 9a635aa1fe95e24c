/**
 * The library's diagnostics as the editor shows them: the same code, severity, message and
 * start position as `check` prints (1-based line and column → 0-based), the range over the
 * block the diagnostic is about (to its last line), or over the `[[link]]` it points at, or
 * else to the end of its line.
 */
import { type Diagnostic as LspDiagnostic, DiagnosticSeverity } from "vscode-languageserver/node";
import type { Diagnostic } from "../validate/diagnostic.js";

const SEVERITY: Record<Diagnostic["severity"], DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
};

/** The server's name for the diagnostics it publishes. */
export const DIAGNOSTIC_SOURCE = "noma-reconcile";

/** `line` (0-based) of the text, without its line break ("" past the end). */
export type LineOf = (line: number) => string;

export function lspDiagnostic(d: Diagnostic, lineOf: LineOf): LspDiagnostic {
  const line = Math.max(0, (d.pos?.line ?? 1) - 1);
  const text = lineOf(line);
  const character = Math.min(Math.max(0, (d.pos?.column ?? 1) - 1), text.length);
  let end = { line, character: text.length };
  if (d.endLine !== undefined && d.endLine - 1 > line) {
    end = { line: d.endLine - 1, character: lineOf(d.endLine - 1).length };
  } else if (text.startsWith("[[", character)) {
    const close = text.indexOf("]]", character + 2);
    if (close !== -1) end = { line, character: close + 2 };
  }
  if (end.line === line && end.character <= character) end = { line, character: Math.max(character, text.length) };
  const out: LspDiagnostic = {
    range: { start: { line, character }, end },
    severity: SEVERITY[d.severity],
    code: d.code,
    source: DIAGNOSTIC_SOURCE,
    message: d.message,
  };
  if (d.nodeId !== undefined) out.data = { nodeId: d.nodeId };
  return out;
}

/** A text's lines, for lspDiagnostic. */
export function linesOf(text: string): LineOf {
  let lines: string[] | undefined;
  return (line) => {
    lines ??= text.split(/\r\n|\r|\n/);
    return lines[line] ?? "";
  };
}
