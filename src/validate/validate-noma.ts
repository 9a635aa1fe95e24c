/**
 * The Noma validator (§4): a parsed document → Diagnostic[].
 *
 * One pass collects directives, references and wikilinks (validation.ts, with the
 * incremental facts index of facts-index.ts); the rules (rules/, one module per rule or
 * group of related rules) then run over those collections, in the order validateNoma
 * calls them, so validation stays linear in the document size. Pure: the clock and
 * dataset-file lookups are injected through options (validate-options.ts).
 *
 * Suppression: a directive carrying `noverify` silences every diagnostic about
 * itself and its own prose (child directives are blocks of their own);
 * `ignoreRules` silences codes for the whole run (unknown codes produce one
 * `unknown-ignore-rule` info each).
 */
import type { NomaDocument } from "../noma/ast.js";
import { compactParse } from "../noma/compact-parse.js";
import { compareDiagnostics, type Diagnostic } from "./diagnostic.js";
import { declaredProfiles } from "./profiles.js";
import { isRuleCode } from "./rule-catalog.js";
import { attrOf } from "./directive-fact.js";
import { collectBlock, type Facts } from "./collect-facts.js";
import { RowView } from "./row-view.js";
import { factsOf } from "./facts-index.js";
import { Validation } from "./validation.js";
import type { ValidateOptions } from "./validate-options.js";
import { walkOrder } from "./walk-order.js";
import { parseProblems } from "./rules/parse-problems.js";
import { duplicateIds } from "./rules/duplicate-ids.js";
import { brokenReferences } from "./rules/broken-references.js";
import { unknownProfiles } from "./rules/unknown-profiles.js";
import { outOfProfile } from "./rules/out-of-profile.js";
import { directiveChecks } from "./rules/directive-checks.js";
import { claimsWithoutEvidence } from "./rules/claims-without-evidence.js";
import { staleCitations } from "./rules/stale-citations.js";
import { computedBlocks } from "./rules/computed-blocks.js";
import { plotsAndDatasets } from "./rules/plots-and-datasets.js";
import { memoryLinks } from "./rules/memory-links.js";

export type { ValidateOptions } from "./validate-options.js";

/** Validate a parsed document. Diagnostics come back sorted by position. */
export function validateNoma(doc: NomaDocument, options: ValidateOptions = {}): Diagnostic[] {
  const v = new Validation(doc, options);
  v.collect();
  const declared = declaredOf(doc, options);
  parseProblems(v);
  duplicateIds(v);
  brokenReferences(v);
  unknownProfiles(v, declared);
  outOfProfile(v, declared);
  directiveChecks(v, declared);
  claimsWithoutEvidence(v);
  staleCitations(v);
  computedBlocks(v);
  plotsAndDatasets(v);
  memoryLinks(v);
  return finishDiagnostics(v.out, options);
}

function declaredOf(doc: NomaDocument, options: ValidateOptions): string[] {
  return options.profile !== undefined ? [options.profile] : declaredProfiles(doc.frontmatter?.data);
}

/**
 * The diagnostics of `doc` that its parse and frontmatter decide alone, whatever its blocks
 * hold: the parse's problems, duplicate ids and unknown profiles (unsorted; see
 * RULE_READS). Nothing is collected from the blocks.
 */
export function documentLevelDiagnostics(doc: NomaDocument, options: ValidateOptions = {}): Diagnostic[] {
  const v = new Validation(doc, options);
  parseProblems(v);
  duplicateIds(v);
  unknownProfiles(v, declaredOf(doc, options));
  return v.out;
}

/** A validation's diagnostics in their order: sorted by position, the notes on ignored codes this validator does not know first. */
export function finishDiagnostics(out: Diagnostic[], options: ValidateOptions): Diagnostic[] {
  out.sort(compareDiagnostics);
  for (const code of new Set(options.ignoreRules ?? [])) {
    if (!isRuleCode(code)) {
      out.unshift({ severity: "info", code: "unknown-ignore-rule", message: `--ignore-rule "${code}" is not a rule this validator knows; it has no effect.` });
    }
  }
  return out;
}

/**
 * Whether validating `doc` reads the clock: only stale-citation does, for a ::citation
 * with an accessed= date. When false, the diagnostics depend on the document and the
 * (clock-free) options alone.
 */
export function validationReadsClock(doc: NomaDocument): boolean {
  const facts = factsOf(doc);
  const compact = facts === undefined ? compactParse(doc) : undefined;
  if (compact !== undefined) return new RowView(doc, compact).anyWithAttr("citation", "accessed");
  const directives =
    facts?.byName !== undefined
      ? (facts.byName.get("citation") ?? [])
      : facts !== undefined
        ? facts.directives
        : (() => {
            const sink: Facts = { directives: [], refs: [], wikilinks: [] };
            for (const node of walkOrder(doc.children, [])) collectBlock(sink, node, null);
            return sink.directives;
          })();
  return directives.some((d) => d.name === "citation" && attrOf(d, "accessed") !== undefined);
}
