/**
 * Check a capability sidecar (`<doc>.capabilities.yml`, Annex A): its problems as
 * diagnostics. Its own module, so checking documents never loads the sidecar
 * schema (zod) unless a sidecar is judged.
 */
import { readCapabilities } from "../capability/read-capabilities.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import type { CheckOptions } from "./check-noma-text.js";

export function checkSidecar(text: string, options: Pick<CheckOptions, "ignoreRules">): Diagnostic[] {
  return readCapabilities(text)
    .problems.map((p) => {
      const d: Diagnostic = { severity: p.severity, code: p.code, message: p.message };
      if (p.line !== undefined) d.pos = { line: p.line, column: 1 };
      return d;
    })
    .filter((d) => !(options.ignoreRules ?? []).includes(d.code));
}
