/**
 * The one glob semantics of the product: picomatch with `dot: true`, POSIX
 * separators on every platform, matched against repository-relative paths.
 * `src/**` means every file under `src/` at any depth; a pattern ending in
 * `/` means everything under that directory; a leading `./` or `/` is dropped.
 *
 * The glob's meaning is picomatch's regular expression (glob/glob-regex-source.ts
 * builds the same text), matched by a matcher linear in the path whatever the
 * glob (glob/linear-regex.ts): a backtracking engine takes exponential time on
 * globs like `x/*a*a*a*a*b` against a long name. The ordinary globs, whose expression is
 * proven linear for a backtracking engine too (glob/backtracking-bound.ts), run on V8's
 * RegExp instead, 1–20× faster (glob/glob-fast-path.ts). A glob longer than
 * MAX_GLOB_LENGTH, nesting `(` or `{` deeper than MAX_GLOB_NESTING, or holding a
 * backreference (`\1` after a group: not a regular language) is refused.
 */
import { NomaError } from "../errors/noma-error.js";
import { compileGlobTester, type GlobTester } from "./glob/glob-fast-path.js";
import { globRegexSource } from "./glob/glob-regex-source.js";
import { compileLinearRegex, type LinearRegex } from "./glob/linear-regex.js";
import { UnsupportedRegexError } from "./glob/regex-syntax.js";

/** The picomatch options whose meaning every glob has. */
export const GLOB_OPTIONS = { dot: true, windows: false } as const;

/** The longest glob accepted (a path is at most 4096 bytes on Linux). */
export const MAX_GLOB_LENGTH = 4096;
/** The deepest nesting of `(` and `{` accepted in a glob. */
export const MAX_GLOB_NESTING = 32;

/** Normalise a spec glob to the form matched against repository-relative paths. */
export function normalizeGlob(glob: string): string {
  let g = glob.trim();
  while (g.startsWith("./")) g = g.slice(2);
  while (g.startsWith("/")) g = g.slice(1);
  if (g.endsWith("/")) g = `${g}**`;
  return g;
}

export type PathTest = (path: string) => boolean;

/** A glob the matcher refuses (too long, too deeply nested, a backreference). */
export class GlobError extends NomaError {
  static override readonly errorName: string = "GlobError";
  /** `where`: the file holding the glob, when known. */
  constructor(
    readonly glob: string,
    readonly reason: string,
    where?: string,
  ) {
    const shown = glob.length > 80 ? `${glob.slice(0, 77)}...` : glob;
    super("glob-unsupported", `the glob ${JSON.stringify(shown)}${where === undefined ? "" : ` in ${where}`} ${reason}`);
  }
}

/** How deep `(` and `{` nest in a glob (escaped ones aside). */
function nesting(glob: string): number {
  let depth = 0;
  let max = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\") i++;
    else if (c === "(" || c === "{") max = Math.max(max, ++depth);
    else if ((c === ")" || c === "}") && depth > 0) depth--;
  }
  return max;
}

/** The expression of an already normalised, non-empty glob, after the limits. */
function globSource(g: string): string {
  if (g.length > MAX_GLOB_LENGTH) throw new GlobError(g, `is ${g.length} characters long; a glob may have at most ${MAX_GLOB_LENGTH}`);
  if (nesting(g) > MAX_GLOB_NESTING) throw new GlobError(g, `nests ( or { more than ${MAX_GLOB_NESTING} deep`);
  const source = globRegexSource(g);
  try {
    new RegExp(source);
  } catch {
    return "$^"; // picomatch's answer to a glob whose expression is invalid: it matches nothing
  }
  return source;
}

function refuseBackreference<T>(g: string, compile: () => T): T {
  try {
    return compile();
  } catch (e) {
    if (e instanceof UnsupportedRegexError) throw new GlobError(g, `cannot be matched in linear time (${e.message})`);
    throw e;
  }
}

/** The linear matcher of an already normalised, non-empty glob (whatever its shape; its `steps` count its work). */
export function globMatcher(g: string): LinearRegex {
  const source = globSource(g);
  return refuseBackreference(g, () => compileLinearRegex(source));
}

/**
 * The tester the product uses for an already normalised, non-empty glob: V8's RegExp when the
 * glob's expression is in the safe subset (glob/backtracking-bound.ts), else the linear matcher.
 */
export function globTester(g: string): GlobTester {
  const source = globSource(g);
  return refuseBackreference(g, () => compileGlobTester(source));
}

/** A predicate for one glob. */
export function compileGlob(glob: string): PathTest {
  const g = normalizeGlob(glob);
  if (g.length === 0) return () => false;
  const m = globTester(g);
  return (path) => m.test(path);
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
    const m = globTester(g);
    return (path) => m.test(path.slice(path.lastIndexOf("/") + 1));
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
