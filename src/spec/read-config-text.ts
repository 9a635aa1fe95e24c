/**
 * The root configuration's text as the work tree holds it (light: no parser), for
 * callers that only need to know whether it changed before parsing it.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CONFIG_PATH } from "../layout/checked-path.js";
import { symlinkEscape } from "../fsx/symlink-escape.js";

/** The text of `path` (default `.notarai/config.yaml`) in the work tree, or null when there is none (or it is a link out of the repository). */
export function readConfigText(root: string, path: string = CONFIG_PATH): string | null {
  if (symlinkEscape(root, path) !== null) return null;
  try {
    return readFileSync(join(root, path), "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return null;
    throw e;
  }
}
