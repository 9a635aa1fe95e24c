/**
 * ValidateOptions.resolveOutside (how `check` judges a chapter in its book): a reference or
 * wikilink the document does not define is looked up there once per target; `true` silences
 * broken-reference, a string finishes its message; targets the document defines, noverify
 * blocks and --ignore-rule never ask. The same answers from the block table and the tree.
 */
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma } from "../../src/internal.js";

const DOC = [
  "# Here",
  "",
  "See [[here]], [[elsewhere]], [[nowhere]] and [[elsewhere]] again.",
  "",
  '::evidence{id="e1" for="far-claim"}',
  "x",
  "::",
  "",
  '::comment{id="n1" parent="lost" noverify}',
  "y",
  "::",
  "",
].join("\n");

function run(options: { cacheBlockFacts?: boolean; ignoreRules?: string[] } = {}): { asked: string[]; found: string[] } {
  const asked: string[] = [];
  const diagnostics = validateNoma(parseNoma(DOC), {
    ...options,
    resolveOutside: (target) => {
      asked.push(target);
      return target === "nowhere" ? " in book b.noma.yml" : true;
    },
  });
  return { asked, found: diagnostics.filter((d) => d.code === "broken-reference").map((d) => `${d.pos?.line}:${d.pos?.column} ${d.message}`) };
}

describe("validateNoma: resolveOutside", () => {
  it("asks once per target the document lacks; true silences, a string finishes the message; not asked when the rule is ignored", () => {
    for (const options of [{}, { cacheBlockFacts: true }]) {
      const { asked, found } = run(options);
      expect(asked.sort()).toEqual(["elsewhere", "far-claim", "nowhere"]);
      expect(found).toEqual(["3:30 [[nowhere]] points at an id that does not exist in book b.noma.yml."]);
    }
    expect(run({ ignoreRules: ["broken-reference"] })).toEqual({ asked: [], found: [] });
    // Without it, every target the document lacks is broken.
    const found = validateNoma(parseNoma(DOC))
      .filter((d) => d.code === "broken-reference")
      .map((d) => d.message);
    expect(found).toEqual([
      "[[elsewhere]] points at an id that does not exist.",
      "[[nowhere]] points at an id that does not exist.",
      'for="far-claim" on ::evidence points at an id that does not exist.',
    ]);
  });
});
