/**
 * The configuration's `exclude` globs: paths check, the hook and the PR check
 * never judge (e.g. deliberately invalid test fixtures). One glob semantics:
 * the governance globs' (picomatch, dot files included).
 */
import { compileGlob } from "../governance/glob.js";

/** Keep what the configuration's `exclude` globs do not name (explicit file arguments always stay). */
export function applyExclude(paths: readonly string[], exclude: readonly string[], keep: ReadonlySet<string> = new Set()): string[] {
  if (exclude.length === 0) return [...paths];
  const excluded = excludedBy(exclude, keep);
  return paths.filter((p) => !excluded(p));
}

/** Whether the configuration's `exclude` globs name a path (never one of `keep`). */
export function excludedBy(exclude: readonly string[], keep: ReadonlySet<string> = new Set()): (path: string) => boolean {
  const tests = exclude.map(compileGlob);
  return (p) => !keep.has(p) && tests.some((t) => t(p));
}
