/**
 * Human output: one line per diagnostic,
 * `SEVERITY [code] <file>:<line>:<col>: message[ (lines <line>-<endLine>)]`, or `✓ No issues found.`
 */
import type { FileDiagnostics } from "./file-diagnostics.js";
import { lineSpan, location } from "./file-diagnostics.js";

export interface TextStyle {
  color: boolean;
}

const PAINT = { error: "\u001b[31m", warning: "\u001b[33m", info: "\u001b[36m", reset: "\u001b[0m", dim: "\u001b[2m", green: "\u001b[32m" };

export function formatDiagnosticsText(files: readonly FileDiagnostics[], style: TextStyle = { color: false }): string {
  const lines: string[] = [];
  for (const f of files) {
    for (const d of f.diagnostics) {
      const sev = d.severity.toUpperCase();
      const shown = style.color ? `${PAINT[d.severity]}${sev}${PAINT.reset}` : sev;
      const code = style.color ? `${PAINT.dim}[${d.code}]${PAINT.reset}` : `[${d.code}]`;
      lines.push(`${shown} ${code} ${location(f.file, d)}: ${d.message}${lineSpan(d)}`);
    }
  }
  if (lines.length === 0) return style.color ? `${PAINT.green}✓${PAINT.reset} No issues found.\n` : "✓ No issues found.\n";
  return `${lines.join("\n")}\n`;
}
