/**
 * `coverage`: tracked files that no spec governs. The policy comes from the
 * system spec's `coverage` (`warn` by default): `strict` makes uncovered files
 * a finding, `off` turns the report into information only. Files the system
 * spec excludes, and the audit records the tools write, are out of scope, not
 * uncovered.
 */
import { listFiles } from "../git/list-files.js";
import { loadSpecs, type SpecSet } from "./load-specs.js";
import type { AuditLocations } from "./audit-paths.js";
import { buildGovernance, isInternalPath } from "./governance.js";
import { readAuditLocations } from "./read-audit-locations.js";

export type CoveragePolicy = "warn" | "strict" | "off";

export interface CoverageReport {
  policy: CoveragePolicy;
  /** The system spec's coverage.message, or null. */
  message: string | null;
  /** The spec the policy came from, or null (default policy). */
  policy_source: string | null;
  tracked: number;
  governed: number;
  excluded: number;
  /** Tracked files no spec governs (sorted). */
  uncovered: string[];
  /** Whether uncovered files are a finding (policy strict and some uncovered). */
  failing: boolean;
}

/** Pure: coverage of `tracked` files under `specs` (`audit`: where the audit records live; default: the defaults). */
export function computeCoverage(specs: SpecSet, tracked: readonly string[], audit?: AuditLocations): CoverageReport {
  const governance = buildGovernance(specs, audit);
  const cov = specs.system?.data?.coverage;
  const policy: CoveragePolicy = cov?.policy ?? "warn";
  let governed = 0;
  let excluded = 0;
  const uncovered: string[] = [];
  for (const p of tracked) {
    if (isInternalPath(p)) {
      excluded++;
      continue;
    }
    if (governance.governorsOf(p).length > 0) governed++;
    else if (governance.isExcluded(p)) excluded++;
    else uncovered.push(p);
  }
  return {
    policy,
    message: cov?.message ?? null,
    policy_source: cov !== undefined ? (specs.system?.path ?? null) : null,
    tracked: tracked.length,
    governed,
    excluded,
    uncovered,
    failing: policy === "strict" && uncovered.length > 0,
  };
}

/** Coverage of the repository's tracked files. */
export function coverageReport(root: string, specs: SpecSet = loadSpecs(root)): CoverageReport {
  const tracked = [...new Set(listFiles(root))].sort();
  return computeCoverage(specs, tracked, readAuditLocations(root));
}
