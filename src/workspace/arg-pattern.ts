/**
 * The patterns of the command allowlist, one per argument: literal text where `*`
 * matches any run of characters (none included, `/` included), `\*` is a literal
 * star and `\\` a literal backslash. Matching is linear-time greedy wildcard
 * matching with one backtrack point (no regular expressions, so no catastrophic
 * backtracking on hostile arguments).
 */
import { NomaError } from "../errors/noma-error.js";

export type PatternPart = { star: true } | { star: false; text: string };

export class PatternSyntaxError extends NomaError {
  static override readonly errorName: string = "PatternSyntaxError";
  constructor(message: string) {
    super("pattern-syntax", message);
  }
}

/** Parse a pattern into literal runs and stars (adjacent stars collapse). */
export function parseArgPattern(pattern: string): PatternPart[] {
  const parts: PatternPart[] = [];
  let text = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next !== "*" && next !== "\\")
        throw new PatternSyntaxError(`${JSON.stringify(pattern)}: "\\" must be followed by "*" or "\\" (write \\\\ for a backslash)`);
      text += next;
      i++;
    } else if (c === "*") {
      if (text.length > 0) parts.push({ star: false, text });
      text = "";
      if (parts.length === 0 || !parts[parts.length - 1]!.star) parts.push({ star: true });
    } else text += c;
  }
  if (text.length > 0) parts.push({ star: false, text });
  return parts;
}

/** True when the pattern has a star (it matches more than one literal argument). */
export function hasWildcard(parts: readonly PatternPart[]): boolean {
  return parts.some((p) => p.star);
}

/** Does `value` match the parsed pattern? */
export function matchArgPattern(parts: readonly PatternPart[], value: string): boolean {
  // Expand to a char-level pattern: null = star.
  const pat: Array<string | null> = [];
  for (const p of parts) {
    if (p.star) pat.push(null);
    else for (const ch of p.text) pat.push(ch);
  }
  const chars = Array.from(value);
  let pi = 0;
  let vi = 0;
  let starPi = -1;
  let starVi = 0;
  while (vi < chars.length) {
    if (pi < pat.length && pat[pi] !== null && pat[pi] === chars[vi]) {
      pi++;
      vi++;
    } else if (pi < pat.length && pat[pi] === null) {
      starPi = pi++;
      starVi = vi;
    } else if (starPi !== -1) {
      pi = starPi + 1;
      vi = ++starVi;
    } else return false;
  }
  while (pi < pat.length && pat[pi] === null) pi++;
  return pi === pat.length;
}
