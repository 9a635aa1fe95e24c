/**
 * The fast path of glob matching: V8's own RegExp, on the very expression picomatch builds,
 * for the globs whose expression backtracking-bound.ts proves linear for a backtracking
 * engine (the ordinary shapes: literals, one `*` per segment, one `**`, `?`, classes, brace
 * alternations of literals); every other expression runs on the linear matcher
 * (linear-regex.ts). Same answers either way (both are V8's answer; fuzzed against each other
 * and picomatch in test/governance/glob/glob-fast-path.test.ts); the figures: docs/perf/glob.md.
 */
import { MAX_BACKTRACKING_PATHS, backtrackingBound } from "./backtracking-bound.js";
import { compileLinearRegex, type LinearRegex } from "./linear-regex.js";
import { literalStart } from "./regex-automaton.js";
import { parseRegex } from "./regex-syntax.js";

export interface GlobTester {
  test(path: string): boolean;
  /** Whether V8's RegExp answers (the expression is in the safe subset). */
  readonly native: boolean;
}

/**
 * A tester for `source` (an expression V8 accepts, no flags): V8's RegExp when the
 * expression is in the safe subset, else the linear matcher. Throws UnsupportedRegexError on a
 * backreference.
 */
export function compileGlobTester(source: string): GlobTester {
  const tree = parseRegex(source);
  if (backtrackingBound(tree) > MAX_BACKTRACKING_PATHS) return linearTester(compileLinearRegex(source));
  const re = new RegExp(source);
  // The linear matcher's shortcuts, cheaper than any engine: a literal glob is one comparison; a path
  // without the glob's literal start is refused before the engine runs.
  const { prefix, exact } = literalStart(tree);
  if (exact !== null) return { native: true, test: (path) => path === exact };
  let linear: LinearRegex | undefined;
  return {
    native: true,
    test(path: string): boolean {
      if (!path.startsWith(prefix)) return false;
      try {
        return re.test(path);
      } catch {
        // V8 out of memory for its backtracking stack (never seen below 10 million characters): the linear matcher answers.
        linear ??= compileLinearRegex(source);
        return linear.test(path);
      }
    },
  };
}

function linearTester(m: LinearRegex): GlobTester {
  return { native: false, test: (path) => m.test(path) };
}
