import type { DirectiveFact } from "../directive-fact.js";
import { EvidenceIndex } from "../evidence-index.js";
import type { Validation } from "../validation.js";

/**
 * claim-without-evidence, as EvidenceIndex defines it. With a facts index the index is kept
 * with the facts and updated from the earlier one's when the facts were taken over (and
 * the ids with them); from the block table, RowView reads the same answer off the parse's
 * references; otherwise an index is built for this validation.
 */
export function claimsWithoutEvidence(v: Validation): void {
  if (v.options.requireEvidenceForClaims === false) return;
  const report = (c: DirectiveFact): void =>
    v.report("claim-without-evidence", `::claim${c.id !== undefined ? ` "${c.id}"` : ""} has no ::evidence or ::counterevidence pointing at it with for=.`, c);
  const aliasMap = v.doc.aliasMap;
  const facts = v.facts;
  if (v.rows !== undefined) {
    for (const c of v.rows.unsupportedClaims()) report(c);
    return;
  }
  if (facts === undefined) {
    for (const c of EvidenceIndex.build(aliasMap, [...v.named("evidence"), ...v.named("counterevidence")], v.named("claim")).unsupported) report(c);
    return;
  }
  let index = facts.evidence;
  if (index === undefined || index.aliasMap !== aliasMap) {
    const splice = facts.splice;
    const earlier = splice?.evidence;
    if (splice?.reused && earlier !== undefined && earlier.aliasMap === aliasMap) {
      earlier.update(splice.gone, facts.directives.slice(splice.dirs.from, splice.dirs.newTo));
      index = earlier;
    } else {
      index = EvidenceIndex.build(aliasMap, [...v.named("evidence"), ...v.named("counterevidence")], v.named("claim"));
    }
    facts.evidence = index;
  }
  for (const c of index.unsupported) report(c);
}
