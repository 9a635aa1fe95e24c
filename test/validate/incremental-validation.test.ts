/**
 * Validation that takes over an earlier state's facts (`cacheBlockFacts` + `previous`, what
 * the patch engine does between states): for any chain of edits, each re-parsed state validates to exactly the
 * diagnostics a fresh parse and a plain validation give.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma } from "../../src/index.js";
import { reparseEdited } from "../../src/noma/parse-noma.js";

const LINES = [
  "# Title",
  "## Sub {id=\"sub\" aliases=\"s1,s2\"}",
  "",
  "",
  "prose with [[k0]] and [[nowhere]]",
  "`[[masked]]` but [[s1]]",
  "::claim{id=\"k0\" confidence=0.5}",
  "::claim{id=\"k9\" confidence=7}",
  "::evidence{id=\"e1\" for=\"k0\"}",
  "::evidence{for=\"missing\"}",
  ":::risk{id=\"r1\"}",
  ":::",
  "::",
  "::memory{id=\"m1\" type=\"fact\"}",
  "see [[k0]]",
  "```",
  "| a | [[k9]] |",
  "|---|---|",
  "| [[sub]] | 2 |",
  "- item [[e1]]",
  "> quote [[gone]]",
  "::section{id=\"k0\"}",
];
const lineArb = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
const docArb = fc.tuple(fc.array(lineArb, { maxLength: 40 }), fc.boolean()).map(([lines, fm]) => (fm ? "---\nprofile: research\n---\n" : "") + lines.join("\n") + "\n");
const editArb = fc.tuple(fc.nat(), fc.nat(3), fc.array(lineArb, { maxLength: 3 }));

const NOW = new Date("2026-01-01T00:00:00Z");

describe("validateNoma with previous", () => {
  it("gives the diagnostics of a fresh parse after every edit of a chain", () => {
    fc.assert(
      fc.property(docArb, fc.array(editArb, { minLength: 1, maxLength: 5 }), (src, edits) => {
        let doc = parseNoma(src);
        expect(validateNoma(doc, { now: NOW, cacheBlockFacts: true })).toEqual(validateNoma(parseNoma(src), { now: NOW }));
        let text = src;
        for (const [at, remove, insert] of edits) {
          const lines = text.split("\n");
          const i = at % lines.length;
          lines.splice(i, remove, ...insert);
          text = lines.join("\n");
          const previous = doc;
          doc = reparseEdited(doc, text);
          expect(validateNoma(doc, { now: NOW, cacheBlockFacts: true, previous })).toEqual(validateNoma(parseNoma(text), { now: NOW }));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("finds a broken wikilink that an edit adds far below unchanged, already-collected blocks", () => {
    const blocks = Array.from({ length: 30 }, (_, i) => `::claim{id="c${i}"}\nSee [[c${(i + 1) % 30}]].\n::\n`);
    const src = blocks.join("\n");
    const doc = parseNoma(src);
    expect(validateNoma(doc, { cacheBlockFacts: true, requireEvidenceForClaims: false })).toEqual([]);
    const next = src.replace("See [[c0]].", "See [[c0]] and [[nope]].");
    const diags = validateNoma(reparseEdited(doc, next), { cacheBlockFacts: true, previous: doc, requireEvidenceForClaims: false });
    expect(diags.map((d) => [d.code, d.pos?.line])).toEqual([["broken-reference", 118]]);
  });
});
