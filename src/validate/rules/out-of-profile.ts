/** out-of-profile-directive: directives of a kind of document none of the declared profiles admits. */
import { directiveDomain, KNOWN_PROFILES, outOfProfileNames } from "../profiles.js";
import type { Validation } from "../validation.js";

export function outOfProfile(v: Validation, declared: string[]): void {
  const known = declared.filter((p) => KNOWN_PROFILES.includes(p));
  if (known.length === 0) return;
  const excluded = outOfProfileNames(known);
  for (const name of v.names()) {
    if (!excluded.has(name)) continue;
    const what = `::${name} belongs to ${directiveDomain(name)} documents, outside the ${known.join("/")} profile${known.length > 1 ? "s" : ""}.`;
    for (const d of v.named(name)) v.report("out-of-profile-directive", what, d);
  }
}
