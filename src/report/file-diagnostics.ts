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

/** `file:line:col[-endLine]`, or just `file` for file-level diagnostics. */
export function location(file: string, d: Diagnostic): string {
  if (d.pos === undefined) return file;
  const end = d.endLine !== undefined && d.endLine !== d.pos.line ? `-${d.endLine}` : "";
  return `${file}:${d.pos.line}:${d.pos.column}${end}`;
}
