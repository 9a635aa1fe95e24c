/**
 * Which spec files there are: light on purpose (no YAML, no schemas), so the warm
 * reconciliation path can list specs without loading the validator.
 */
import { listFiles } from "../git/list-files.js";
import { statSync } from "node:fs";
import { join } from "node:path";
import { isSpecPath } from "./glob.js";

/**
 * Repository-relative paths of the spec files git knows under `.notarai/` that
 * exist on disk. `known`: git's file list when the caller already has it.
 */
export function listSpecPaths(root: string, known?: Iterable<string>): string[] {
  const listed = known ?? listFiles(root, { untracked: "also", pathspecs: [".notarai"] });
  const out = new Set<string>();
  for (const p of listed) {
    if (!p.startsWith(".notarai/") || !isSpecPath(p)) continue;
    try {
      statSync(join(root, p)); // any file there: one that is not a regular file is refused where it is read, never left out
      out.add(p);
    } catch {
      /* tracked but deleted in the work tree */
    }
  }
  return [...out].sort();
}
