/**
 * The attributes each directive is known to take: those the validator's rules read of it
 * (check-directive.ts, validate-noma.ts), those the patch engine's review ops write
 * (add_comment, add_footnote, add_change_request, resolve_comment), and the attributes
 * every block takes (`id`, `aliases`, `noverify`). An editor completes from it; unknown
 * attributes stay valid (§1.3: implementations ignore them), so this is what is known, not
 * what is allowed. Directive names here are the ones the validator or the profiles know
 * (profiles.ts lists the kinds of document they belong to).
 */
import { DOMAIN_DIRECTIVES } from "./profiles.js";

/** Every block's own attributes. */
export const COMMON_ATTRIBUTES: readonly string[] = ["id", "aliases", "noverify"];

/** Attributes by directive name, besides COMMON_ATTRIBUTES. */
export const DIRECTIVE_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  claim: ["confidence"],
  evidence: ["for"],
  counterevidence: ["for"],
  risk: ["owner"],
  decision: ["status"],
  adr: ["status", "owner", "date", "decision"],
  citation: ["source", "url", "doi", "accessed", "stale_after_days"],
  change_request: ["target", "action", "from", "to", "text", "author", "date"],
  comment: ["parent", "target", "reply_to", "author", "initials", "date", "status", "resolved_by", "resolved_at"],
  footnote: ["for", "label"],
  endnote: ["for", "label"],
  agent_task: ["scope"],
  todo: ["scope"],
  control: ["type", "kind", "lock", "default", "min", "max"],
  computed_metric: ["formula"],
  computed_plot: ["formula", "domain", "var", "variable", "domain_var", "x_var"],
  state_change: ["block", "from", "to"],
  diagram: ["kind"],
  plotly: [],
  figure: ["alt", "caption"],
  html: ["trusted"],
  svg: ["trusted"],
  script: ["trusted"],
  memory: ["type", "confidence", "last_seen"],
  plot: ["dataset", "column", "data", "xlabels"],
  dataset: ["src", "format"],
};

/** Every directive name the validator or the profiles know, sorted. */
export function knownDirectiveNames(): string[] {
  const names = new Set<string>(Object.keys(DIRECTIVE_ATTRIBUTES));
  for (const list of Object.values(DOMAIN_DIRECTIVES)) for (const n of list) names.add(n);
  return [...names].sort();
}

/** The attributes known for directive `name` (its own first, then the common ones). */
export function knownAttributes(name: string): string[] {
  return [...new Set([...(DIRECTIVE_ATTRIBUTES[name] ?? []), ...COMMON_ATTRIBUTES])];
}
