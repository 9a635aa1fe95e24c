/**
 * The one glob semantics of the product: picomatch with `dot: true`, POSIX
 * separators on every platform, matched against repository-relative paths.
 * `src/**` means every file under `src/` at any depth; a pattern ending in
 * `/` means everything under that directory; a leading `./` or `/` is dropped.
 */
import picomatch from "picomatch";

export const GLOB_OPTIONS = { dot: true, windows: false } as const;

/** Normalise a spec glob to the form matched against repository-relative paths. */
export function normalizeGlob(glob: string): string {
  let g = glob.trim();
  while (g.startsWith("./")) g = g.slice(2);
  while (g.startsWith("/")) g = g.slice(1);
  if (g.endsWith("/")) g = `${g}**`;
  return g;
}

export type PathTest = (path: string) => boolean;

/** A predicate for one glob. */
export function compileGlob(glob: string): PathTest {
  const g = normalizeGlob(glob);
  if (g.length === 0) return () => false;
  const re = picomatch.makeRe(g, GLOB_OPTIONS);
  return (path) => re.test(path);
}

/**
 * Exclude patterns given on the command line or to `get_spec_diff`: a pattern
 * without `/` matches the file name at any depth (`*.lock`, `Cargo.lock`),
 * like .gitignore; a pattern with `/` matches the whole path.
 */
export function compileExcludePattern(pattern: string): PathTest {
  const g = normalizeGlob(pattern);
  if (g.length === 0) return () => false;
  if (!g.includes("/")) {
    const re = picomatch.makeRe(g, GLOB_OPTIONS);
    return (path) => re.test(path.slice(path.lastIndexOf("/") + 1));
  }
  return compileGlob(g);
}

/** Glob matching a spec file. */
export const SPEC_FILE_GLOB = ".notarai/**/*.spec.yaml";
const specFileTest = compileGlob(SPEC_FILE_GLOB);

/** Whether `path` is a spec file (`.notarai/**\/*.spec.yaml`). */
export function isSpecPath(path: string): boolean {
  return specFileTest(path);
}
