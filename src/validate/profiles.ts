/**
 * Validation profiles and their directive allowlists.
 *
 * The spec names the profiles but not their allowlists; these are ours,
 * written to accept what each kind of document naturally uses. Every profile
 * includes the structural and review directives (`BASE`).
 */

const BASE = [
  "section", "note", "callout", "aside", "tip", "warning", "info", "summary", "abstract", "details",
  "figure", "table", "comment", "footnote", "endnote", "change_request", "toc", "include",
];

const TECHNICAL = [
  ...BASE, "example", "diagram", "dataset", "plot", "plotly", "api", "endpoint", "param", "decision", "adr",
  "risk", "agent_task", "todo", "control", "computed_metric", "computed_plot", "state_change", "glossary",
  "term", "tabs", "tab", "html", "svg", "script", "citation",
];

const RESEARCH = [
  ...BASE, "claim", "evidence", "counterevidence", "citation", "assumption", "hypothesis", "question",
  "finding", "method", "limitation", "risk", "decision", "dataset", "plot", "plotly", "diagram",
];

const MEMORY = [...BASE, "memory", "fact", "preference", "episode", "entity", "relation", "observation", "state_change", "agent_task", "todo"];

export const PROFILE_ALLOWLISTS: Record<string, readonly string[]> = {
  minimal: BASE,
  technical: TECHNICAL,
  research: RESEARCH,
  memory: MEMORY,
  "technical-docs": TECHNICAL,
  "research-memo": [...RESEARCH, "recommendation", "agent_task", "todo"],
  "investment-thesis": [...RESEARCH, "thesis", "catalyst", "valuation", "metric", "kpi", "scenario", "recommendation", "control", "computed_metric", "computed_plot"],
  "agent-memory": [...MEMORY, "decision", "citation"],
  adr: [...BASE, "adr", "decision", "context", "consequence", "option", "alternative", "risk", "citation"],
  spec: [...TECHNICAL, "requirement", "behavior", "constraint", "invariant", "acceptance", "scenario", "open_question"],
};

export const KNOWN_PROFILES = Object.keys(PROFILE_ALLOWLISTS);

/** Profiles whose claims must state a confidence. */
export const CONFIDENCE_PROFILES = new Set(["research", "research-memo", "investment-thesis"]);

/** Names declared by frontmatter `profile:` / `profiles:` (a string, or a list of strings). */
export function declaredProfiles(frontmatter: unknown): string[] {
  if (frontmatter === null || typeof frontmatter !== "object" || Array.isArray(frontmatter)) return [];
  const fm = frontmatter as Record<string, unknown>;
  const out: string[] = [];
  for (const key of ["profile", "profiles"]) {
    const v = fm[key];
    if (typeof v === "string") out.push(...v.split(/[\s,]+/).filter(Boolean));
    else if (Array.isArray(v)) for (const x of v) if (typeof x === "string" && x.length > 0) out.push(x);
  }
  return [...new Set(out)];
}
