/**
 * The glob's regular expression is picomatch's, character for character: generated globs
 * (every construct picomatch knows, well-formed and broken, and random characters) give the
 * source text `picomatch.makeRe(glob, { dot: true, windows: false })` gives.
 */
import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { globRegexSource } from "../../../src/governance/glob/glob-regex-source.js";
import { GLOB_PIECES, globArb, picomatchTerminates } from "./glob-pieces.js";

const PICO = { dot: true, windows: false } as const;

function pico(glob: string): string | { error: string } {
  try {
    return picomatch.makeRe(glob, PICO).source;
  } catch (e) {
    return { error: (e as Error).name };
  }
}

function ours(glob: string): string | { error: string } {
  try {
    return globRegexSource(glob);
  } catch (e) {
    return { error: (e as Error).name };
  }
}

/** picomatch turns a source V8 rejects into /$^/; both sides compared on what they hand to V8. */
function compiled(source: string | { error: string }): string | { error: string } {
  if (typeof source !== "string") return source;
  try {
    return new RegExp(source).source;
  } catch {
    return "$^";
  }
}

describe("globRegexSource is picomatch's makeRe (dot: true, POSIX)", () => {
  it("on the constructs one by one", () => {
    for (const glob of GLOB_PIECES) expect({ glob, source: compiled(ours(glob)) }).toEqual({ glob, source: pico(glob) });
  });

  it("on generated globs", () => {
    fc.assert(
      fc.property(globArb.filter(picomatchTerminates), (glob) => {
        expect(compiled(ours(glob))).toEqual(pico(glob));
      }),
      { numRuns: 4_000 },
    );
  });

  it("on random strings", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'ab./*?[]{}(),|!@+\\"$^-:<>= \n'.split("")), minLength: 1, maxLength: 16 }).filter(picomatchTerminates),
        (glob) => {
          expect(compiled(ours(glob))).toEqual(pico(glob));
        },
      ),
      { numRuns: 4_000 },
    );
  });

  it("ends where picomatch never does: a glob ending in four backslashes (its backslash-run skip steps past the end)", () => {
    // picomatch.makeRe("a/\\\\\\\\") loops forever; ours reads the run as picomatch would have had it stopped.
    expect(picomatchTerminates("a/\\\\\\\\")).toBe(false);
    expect(globRegexSource("a/\\\\\\\\")).toBe("^(?:a\\/\\\\)$");
  });

  it("on the globs of the docs and this repository's specs", () => {
    for (const glob of [
      "src/**",
      "docs/*.md",
      "**/*.{ts,tsx}",
      "*.lock",
      ".notarai/**/*.spec.yaml",
      "src/cli/commands/check-command.ts",
      "x/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b",
    ])
      expect(ours(glob)).toEqual(pico(glob));
  });
});
