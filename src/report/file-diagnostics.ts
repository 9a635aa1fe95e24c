/**
 * The unit every reporting command renders: diagnostics grouped by file.
 */
import type { Diagnostic } from "../validate/diagnostic.js";

export interface FileDiagnostics {
  /** Repo-relative POSIX path. */
  file: string;
  diagnostics: Diagnostic[];
}

export interface DiagnosticCounts {
  files: number;
  errors: number;
  warnings: number;
  infos: number;
}

export function countDiagnostics(files: readonly FileDiagnostics[]): DiagnosticCounts {
  const c: DiagnosticCounts = { files: files.length, errors: 0, warnings: 0, infos: 0 };
  for (const f of files) {
    for (const d of f.diagnostics) {
      if (d.severity === "error") c.errors++;
      else if (d.severity === "warning") c.warnings++;
      else c.infos++;
    }
  }
  return c;
}

/**
 * `file:line:col` (the prefix editors, terminals and problem matchers make clickable), or just
 * `file` for file-level diagnostics. The block's last line is not part of it: a `-N` suffix would
 * read as a column range; `lineSpan` says it apart.
 */
export function location(file: string, d: Diagnostic): string {
  if (d.pos === undefined) return file;
  return `${file}:${d.pos.line}:${d.pos.column}`;
}

/** ` (lines 3-5)` when the diagnostic spans several lines, else "": written after the message. */
export function lineSpan(d: Diagnostic): string {
  if (d.pos === undefined || d.endLine === undefined || d.endLine === d.pos.line) return "";
  return ` (lines ${d.pos.line}-${d.endLine})`;
}
