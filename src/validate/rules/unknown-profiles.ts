/** unknown-profile: a declared profile this validator does not know. */
import { KNOWN_PROFILES } from "../profiles.js";
import type { Validation } from "../validation.js";

export function unknownProfiles(v: Validation, declared: string[]): void {
  for (const p of declared) {
    if (!KNOWN_PROFILES.includes(p)) {
      v.report(
        "unknown-profile",
        `Unknown profile "${p}" (known: ${KNOWN_PROFILES.join(", ")}).`,
        null,
        null,
        v.doc.frontmatter !== undefined && v.options.profile === undefined ? 1 : undefined,
      );
    }
  }
}
