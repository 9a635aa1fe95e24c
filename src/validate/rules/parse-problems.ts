/** The parse's own problems (unclosed directives and fences, bad frontmatter, …), as diagnostics. */
import type { Diagnostic } from "../diagnostic.js";
import { isRuleCode } from "../rule-catalog.js";
import type { Validation } from "../validation.js";

export function parseProblems(v: Validation): void {
  for (const p of v.doc.problems) {
    if (!isRuleCode(p.code)) continue;
    if ((v.options.ignoreRules ?? []).includes(p.code)) continue;
    const d: Diagnostic = { severity: p.severity, code: p.code, message: p.message, pos: { line: p.line, column: p.column ?? 1 } };
    if (p.endLine !== undefined && p.endLine !== p.line) d.endLine = p.endLine;
    v.out.push(d);
  }
}
