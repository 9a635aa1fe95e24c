/**
 * Load the specs (validated) and their governance: the spec context every
 * reconciliation tool starts from.
 */
import { buildGovernance } from "../governance/governance.js";
import { readAuditLocations } from "../governance/read-audit-locations.js";
import { listSpecPaths } from "../governance/list-spec-paths.js";
import { loadSpecs, specSetOfTexts } from "../governance/load-specs.js";
import { warnSpecProblems, type SpecContext, type ToolOptions } from "./reconcile-context.js";
import { recallSpecSet, rememberSpecSet, specTexts } from "./spec-set-memo.js";

/**
 * Load specs and governance (`known`: git's file list, if at hand); every invalid spec
 * yields one warning (it still governs its own file). The audit records are located
 * from `options.audit`, else from the work tree's configuration. The same spec texts validated earlier in
 * this process give the set remembered then (spec-set-memo.ts).
 */
export function loadSpecContext(root: string, options: ToolOptions = {}, known?: Iterable<string>): SpecContext {
  // Unknown configuration keys are `check`'s to report (the PR check would print them twice); invalid values throw.
  const audit = options.audit ?? readAuditLocations(root);
  const list = listSpecPaths(root, known);
  const texts = specTexts(root, list);
  let specs = texts !== null ? recallSpecSet(texts) : null;
  if (specs === null) {
    // The texts just read are validated; read again only when one could not be read as text (its reading reports why).
    specs = texts !== null ? specSetOfTexts(texts) : loadSpecs(root, list);
    if (texts !== null) rememberSpecSet(texts, specs);
  }
  warnSpecProblems(specs, options);
  return { root, specs, governance: buildGovernance(specs, audit) };
}
