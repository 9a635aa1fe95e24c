/**
 * The Diagnostic shape of Noma §4.3, and the summary derived from a list of them (§4.2).
 */

export type Severity = "info" | "warning" | "error";

export interface Diagnostic {
  severity: Severity;
  /** Machine-readable rule name (kebab-case for validator rules, snake_case for patch errors). */
  code: string;
  /** Human-readable; never parse it. */
  message: string;
  /** 1-based source position, when the diagnostic has one. */
  pos?: { line: number; column: number };
  /** Canonical id of the offending node, when it has one. */
  nodeId?: string;
  /** Present in transcript records only. */
  phase?: "pre" | "post";
  /** Last line of the offending block (ours, for editors and `file:line-endLine` output; not in transcripts). */
  endLine?: number;
}

export type ValidationSummary = "ok" | "warn" | "error";

/** Highest severity wins: error > warning > info; an empty list (or only infos) is "ok". */
export function summarize(diagnostics: readonly Diagnostic[]): ValidationSummary {
  let warn = false;
  for (const d of diagnostics) {
    if (d.severity === "error") return "error";
    if (d.severity === "warning") warn = true;
  }
  return warn ? "warn" : "ok";
}

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Stable order: by line, then column, then severity, then code. Diagnostics without a position come first. */
export function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  const la = a.pos?.line ?? 0;
  const lb = b.pos?.line ?? 0;
  if (la !== lb) return la - lb;
  const ca = a.pos?.column ?? 0;
  const cb = b.pos?.column ?? 0;
  if (ca !== cb) return ca - cb;
  if (a.severity !== b.severity) return RANK[a.severity] - RANK[b.severity];
  return a.code < b.code ? -1 : a.code > b.code ? 1 : 0;
}
