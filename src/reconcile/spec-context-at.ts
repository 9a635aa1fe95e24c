/**
 * The specs and their governance as one source holds them (a commit, for the
 * PR check): the same validation and `$ref` resolution `loadSpecContext`
 * applies to the work tree, over texts read from that source.
 */
import { buildGovernance, type Governance } from "../governance/governance.js";
import type { AuditLocations } from "../governance/audit-paths.js";
import { isSpecPath } from "../governance/glob.js";
import { buildSpecSet, type SpecSet } from "../governance/load-specs.js";
import { validateSpecText } from "../governance/validate-spec-text.js";
import { warnSpecProblems, type ToolOptions } from "./reconcile-context.js";

export interface SourceSpecContext {
  specs: SpecSet;
  governance: Governance;
}

/**
 * `paths`: every path the source holds under `.notarai/` (spec files are picked by
 * `isSpecPath`); `read`: a path's text in the source. One warning per invalid spec.
 */
export function specContextAt(
  paths: readonly string[],
  read: (path: string) => string | null,
  options: ToolOptions = {},
  audit?: AuditLocations,
): SourceSpecContext {
  const files = [];
  for (const p of paths) {
    if (!isSpecPath(p)) continue;
    const text = read(p);
    if (text !== null) files.push(validateSpecText(p, text));
  }
  const specs = buildSpecSet(files);
  warnSpecProblems(specs, options);
  return { specs, governance: buildGovernance(specs, audit) };
}
