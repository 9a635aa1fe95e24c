import { CONFIDENCE_PROFILES } from "../profiles.js";
import { checkDirective, isCheckedDirective } from "./check-directive.js";
import type { Validation } from "../validation.js";

/**
 * The one-directive rules (check-directive.ts). With a facts index, the directives that had
 * findings are remembered (as indexes into its directives); a validation that took the
 * facts over from an earlier one checks again only those and the directives it collected
 * anew: every other directive is the same node, and its findings (none) the same.
 */
export function directiveChecks(v: Validation, declared: readonly string[]): void {
  const needConfidence = declared.some((p) => CONFIDENCE_PROFILES.has(p));
  const facts = v.facts;
  if (v.rows !== undefined) {
    // The checks keep nothing of a directive: one fact object is moved from row to row.
    for (const name of v.names()) if (isCheckedDirective(name)) v.rows.eachNamed(name, (d) => checkDirective(v, d, needConfidence));
    return;
  }
  if (facts === undefined) {
    for (const name of v.names()) if (isCheckedDirective(name)) for (const d of v.named(name)) checkDirective(v, d, needConfidence);
    return;
  }
  const key = JSON.stringify([needConfidence, [...new Set(v.options.ignoreRules ?? [])].sort()]);
  const dirs = facts.directives;
  const flagged: number[] = [];
  const check = (k: number): void => {
    const before = v.out.length;
    checkDirective(v, dirs[k]!, needConfidence);
    if (v.out.length > before) flagged.push(k);
  };
  const splice = facts.splice;
  if (facts.local !== undefined && facts.local.key === key) {
    for (const k of facts.local.flagged) check(k);
  } else if (splice !== undefined && splice.local !== undefined && splice.local.key === key) {
    const { from, oldTo, newTo } = splice.dirs;
    const shift = newTo - oldTo;
    const earlier = splice.local.flagged;
    for (const k of earlier) if (k < from) check(k);
    for (let k = from; k < newTo; k++) check(k);
    for (const k of earlier) if (k >= oldTo) check(k + shift);
  } else {
    for (let k = 0; k < dirs.length; k++) check(k);
  }
  facts.local = { key, flagged };
}
