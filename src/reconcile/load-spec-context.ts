/**
 * Load the specs (validated) and their governance: the spec context every
 * reconciliation tool starts from.
 */
import { buildGovernance } from "../governance/governance.js";
import { loadSpecs } from "../spec/load-specs.js";
import { warnSpecProblems, type SpecContext, type ToolOptions } from "./reconcile-context.js";

/** Load specs and governance (`known`: git's file list, if at hand); every invalid spec yields one warning (it still governs its own file). */
export function loadSpecContext(root: string, options: ToolOptions = {}, known?: Iterable<string>): SpecContext {
  const specs = loadSpecs(root, known);
  warnSpecProblems(specs, options);
  return { root, specs, governance: buildGovernance(specs) };
}
