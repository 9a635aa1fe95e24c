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
 * exist on disk (or that cannot be looked at: their reading then says why). `known`: git's file list when the caller already has it.
 */
export function listSpecPaths(root: string, known?: Iterable<string>): string[] {
  const listed = known ?? listFiles(root, { untracked: "also", pathspecs: [".notarai"] });
  const out = new Set<string>();
  for (const p of listed) {
    if (!p.startsWith(".notarai/") || !isSpecPath(p)) continue;
    try {
      if (statSync(join(root, p)).isFile()) out.add(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // Tracked but deleted in the work tree; any other failure (a symbolic link loop, no permission) is
      // listed, so that reading it reports the file and the OS error rather than passing it over.
      if (code !== "ENOENT" && code !== "ENOTDIR") out.add(p);
    }
  }
  return [...out].sort();
}
