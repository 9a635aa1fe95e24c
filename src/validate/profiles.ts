/**
 * Validation profiles and the directives each admits.
 *
 * The spec names the profiles (§4.4) and says a directive "not in the declared profile's
 * allowlist" is out of profile, but lists no allowlist. Ours: a profile restricts only the
 * directives that belong to one kind of document — research (claims and their evidence),
 * memory, architecture decisions, specifications, investment theses, API references.
 * Structural, presentational, review and data directives (sections, callouts, tables,
 * figures, comments, datasets, plots, controls, citations, risks, decisions, tasks…) and
 * every name no profile claims (extension directives; unknown things pass through, §1.3)
 * are admitted by every profile. A directive is out of profile when it belongs to some
 * profile's kind and to none of the declared profiles' kinds.
 */

/** The directives of each kind of document. */
export const DOMAIN_DIRECTIVES = {
  research: ["claim", "evidence", "counterevidence", "hypothesis", "assumption", "finding", "limitation"],
  memory: ["memory", "fact", "preference", "episode", "entity", "relation", "observation"],
  adr: ["adr", "consequence", "alternative"],
  spec: ["requirement", "acceptance", "invariant", "open_question"],
  investment: ["thesis", "catalyst", "valuation"],
  api: ["api", "endpoint", "param"],
} as const satisfies Record<string, readonly string[]>;

type Domain = keyof typeof DOMAIN_DIRECTIVES;

/** The kinds each known profile admits (besides everything no kind claims). */
const PROFILE_DOMAINS: Record<string, readonly Domain[]> = {
  minimal: [],
  technical: ["api", "adr"],
  research: ["research"],
  memory: ["memory"],
  "technical-docs": ["api", "adr"],
  "research-memo": ["research"],
  "investment-thesis": ["research", "investment"],
  "agent-memory": ["memory"],
  adr: ["adr"],
  spec: ["spec", "api", "adr"],
};

export const KNOWN_PROFILES = Object.keys(PROFILE_DOMAINS);

/** Profile → the kind-specific directive names it admits. */
export const PROFILE_DIRECTIVES: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(PROFILE_DOMAINS).map(([p, domains]) => [p, domains.flatMap((d) => DOMAIN_DIRECTIVES[d])]),
);

const CLAIMED = new Set<string>(Object.values(DOMAIN_DIRECTIVES).flat());

/** The directive names out of profile when `profiles` (known ones) are declared: those of the kinds none of them admits. */
export function outOfProfileNames(profiles: readonly string[]): Set<string> {
  const admitted = new Set<string>();
  for (const p of profiles) for (const name of PROFILE_DIRECTIVES[p] ?? []) admitted.add(name);
  const out = new Set<string>();
  for (const name of CLAIMED) if (!admitted.has(name)) out.add(name);
  return out;
}

/** The kind of document a directive name belongs to (research, memory, …), or undefined. */
export function directiveDomain(name: string): string | undefined {
  for (const [domain, names] of Object.entries(DOMAIN_DIRECTIVES)) if ((names as readonly string[]).includes(name)) return domain;
  return undefined;
}

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
