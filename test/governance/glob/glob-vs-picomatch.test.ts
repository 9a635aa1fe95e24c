/**
 * The product's glob matcher end to end (`compileGlob`: normalisation, limits, picomatch's
 * expression, the linear matcher) against picomatch's answer as the product has always asked
 * for it (`picomatch.makeRe(glob, { dot: true, windows: false }).test(path)`, run by V8; picomatch's
 * `isMatch` adds an equality shortcut the product never used) on generated globs and paths: the
 * same answer for every pair, and on long
 * names work proportional to the name (the matcher's step counter, never time). The pieces are
 * compared one by one in glob-regex-source.test.ts and linear-regex.test.ts; this compares the
 * answer a spec's glob gives a path.
 */
import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { compileGlob, globMatcher, normalizeGlob } from "../../../src/governance/glob.js";
import { GlobError } from "../../../src/governance/glob.js";
import { globArb, picomatchTerminates, referenceSubject } from "./glob-pieces.js";

const PICO = { dot: true, windows: false } as const;

/** Repository-relative paths over the characters globs treat specially. */
const pathArb = fc
  .array(fc.constantFrom("a", "b", "ab", ".", "..", "/", "x.ts", "src/", ".notarai/", "-", "[", "]", "!", "é", "(", ")", "{", "}", ",", " ", "_", "9"), {
    maxLength: 10,
  })
  .map((a) => a.join(""));

/**
 * picomatch's answer for the glob as the product normalises it (an empty glob matches nothing in both), and the
 * path both are asked about: shortened where V8's backtracking could take exponential time (`referenceSubject`).
 */
function picoTest(glob: string): { test: (path: string) => boolean; subject: (path: string) => string } {
  const g = normalizeGlob(glob);
  if (g.length === 0) return { test: () => false, subject: (path) => path };
  const re = picomatch.makeRe(g, PICO);
  return { test: (path) => re.test(path), subject: (path) => referenceSubject(re.source, path) };
}

describe("compileGlob answers as picomatch does", () => {
  it("on generated globs and paths", () => {
    let refused = 0;
    let matched = 0;
    let compared = 0;
    fc.assert(
      fc.property(globArb.filter(picomatchTerminates), fc.array(pathArb, { minLength: 1, maxLength: 8 }), (glob, paths) => {
        let test: (path: string) => boolean;
        try {
          test = compileGlob(glob);
        } catch (e) {
          // Only a backreference is refused (these globs are short and shallow).
          expect(e).toBeInstanceOf(GlobError);
          expect((e as Error).message).toMatch(/cannot be matched in linear time \(.*backreference/);
          refused++;
          return;
        }
        const theirs = picoTest(glob);
        for (const path of paths.map(theirs.subject)) {
          const ours = test(path);
          expect({ glob, path, match: ours }).toEqual({ glob, path, match: theirs.test(path) });
          compared++;
          if (ours) matched++;
        }
      }),
      { numRuns: 1_000 },
    );
    // The comparison is not vacuous: many pairs, some of them matching; refusals are rare.
    expect(compared).toBeGreaterThan(1_000);
    expect(matched).toBeGreaterThan(50);
    expect(refused).toBeLessThan(300);
  });

  it("on paths built from the glob's own text (so that many match)", () => {
    let matched = 0;
    fc.assert(
      fc.property(
        globArb.filter(picomatchTerminates),
        fc.array(fc.constantFrom("", "a", "/", "b/", ".x"), { minLength: 2, maxLength: 2 }),
        (glob, [pre, post]) => {
          const g = normalizeGlob(glob);
          let test: (path: string) => boolean;
          try {
            test = compileGlob(glob);
          } catch {
            return;
          }
          // The glob's literal characters (wildcards dropped) as a path, and variations around it.
          const literal = g.replace(/[*?[\]{}()!+@|\\,]/g, "");
          const theirs = picoTest(glob);
          for (const path of [literal, `${pre}${literal}${post}`, `${literal}/${post}`].map(theirs.subject)) {
            const ours = test(path);
            expect({ glob, path, match: ours }).toEqual({ glob, path, match: theirs.test(path) });
            if (ours) matched++;
          }
        },
      ),
      { numRuns: 1_000 },
    );
    expect(matched).toBeGreaterThan(40);
  });
});

describe("compileGlob's work is proportional to the path, whatever the glob", () => {
  it("generated globs on long paths: four times the path, at most about four times the steps", () => {
    fc.assert(
      fc.property(globArb.filter(picomatchTerminates), fc.constantFrom("a", "ab", "a/", "a.b/", "x/a", "é"), (glob, unit) => {
        const g = normalizeGlob(glob);
        if (g.length === 0) return;
        const steps = (path: string): number => {
          let m: ReturnType<typeof globMatcher>;
          try {
            m = globMatcher(g);
          } catch {
            return -1;
          }
          m.test(path);
          return m.steps;
        };
        const s1 = steps(unit.repeat(100));
        if (s1 < 0) return;
        const s4 = steps(unit.repeat(400));
        expect({ glob, unit, steps: s4 <= 4 * s1 + 50 }).toEqual({ glob, unit, steps: true });
      }),
      { numRuns: 1_000 },
    );
  });
});
