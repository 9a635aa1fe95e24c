/**
 * The one test of "outside the root" (pure): whether the absolute path `p` lies outside the
 * directory `root` — both already resolved the same way (real paths, when links matter).
 * The root itself is inside.
 */
import { isAbsolute, relative, sep } from "node:path";

export function isOutside(root: string, p: string): boolean {
  const rel = relative(root, p);
  return rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel);
}
