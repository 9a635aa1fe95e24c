/**
 * Enumerate governed files: every file git knows (tracked, or untracked and
 * not ignored) that at least one spec, or the given spec, governs.
 */
import { listFiles } from "../git/list-files.js";
import { loadSpecs } from "./load-specs.js";
import { buildGovernance, type Governance, type Governor } from "./governance.js";
import { readAuditLocations } from "./read-audit-locations.js";

export interface GovernedFile {
  path: string;
  governed_by: Governor[];
}

/** Files git knows (tracked + untracked-not-ignored), sorted and de-duplicated. */
export function listRepoFiles(root: string): string[] {
  return [...new Set(listFiles(root, { untracked: "also" }))].sort();
}

/** Governed files of the repository (of one spec with `specPath`), in path order. */
export function governedFiles(root: string, options: { specPath?: string; governance?: Governance; files?: readonly string[] } = {}): GovernedFile[] {
  const governance = options.governance ?? buildGovernance(loadSpecs(root), readAuditLocations(root));
  const out: GovernedFile[] = [];
  for (const path of options.files ?? listRepoFiles(root)) {
    let governors = governance.governorsOf(path);
    if (options.specPath !== undefined) governors = governors.filter((g) => g.spec_path === options.specPath);
    if (governors.length > 0) out.push({ path, governed_by: governors });
  }
  return out;
}
