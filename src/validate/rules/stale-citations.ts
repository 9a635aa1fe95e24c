/** stale-citation: a ::citation accessed longer ago than its stale window (the block's, the document's, else the option's). */
import { attrOf } from "../directive-fact.js";
import { parseDate, str } from "../rule-values.js";
import { DEFAULT_STALE_DAYS } from "../default-stale-days.js";
import type { Validation } from "../validation.js";

const DAY_MS = 86_400_000;

export function staleCitations(v: Validation): void {
  const now = (v.options.now ?? new Date()).getTime();
  const fm = v.doc.frontmatter?.data;
  const fmDays = fm !== null && typeof fm === "object" && !Array.isArray(fm) ? (fm as Record<string, unknown>)["stale_citation_days"] : undefined;
  const docDays = typeof fmDays === "number" ? fmDays : (v.options.staleDays ?? DEFAULT_STALE_DAYS);
  const citations = v.named("citation");
  for (let k = 0; k < citations.length; k++) {
    const c = citations[k]!;
    const accessed = str(attrOf(c, "accessed"));
    if (accessed === undefined) continue;
    const t = parseDate(accessed);
    if (t === null) continue;
    const own = attrOf(c, "stale_after_days");
    const days = typeof own === "number" ? own : docDays;
    const age = Math.floor((now - t) / DAY_MS);
    if (age > days) {
      v.report("stale-citation", `::citation accessed=${accessed} is ${age} days old (stale after ${days} days).`, c);
    }
  }
}
