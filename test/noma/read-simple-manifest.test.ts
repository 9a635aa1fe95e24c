/**
 * Book manifests without the YAML library (read-simple-manifest.ts) against the library, on
 * random manifests: the usual shape (a title, a `chapters:` block list of paths or of
 * `file:` entries), the same with items, keys and lines spliced in that YAML reads
 * differently (numbers, keywords, quotes, comments, flow lists, nested maps, continuation
 * lines, bad indentation, tabs, CRs, duplicate keys), and arbitrary text. Wherever the fast
 * reader answers, its answer must be the library's; it must answer for the usual shapes; and
 * parseBookManifest gives the same chapters either way.
 */
import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { readSimpleManifest } from "../../src/noma/read-simple-manifest.js";
import { parseBookManifest } from "../../src/internal.js";

/** The library's value for `text`, or undefined when it reports an error. */
function library(text: string): unknown {
  try {
    const doc = parseDocument(text, { uniqueKeys: true, logLevel: "error" });
    if (doc.errors.length > 0) return undefined;
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch {
    return undefined;
  }
}

const PATHS = ["01-intro.noma", "02-risks.noma", "intro.noma", "part/3.noma", "../shared/a.noma", "10_x.NOMA", "a.b-c.noma", "1.noma"];
const ODD = [
  "1",
  "01",
  "1.5",
  "true",
  "null",
  "~",
  "'01-intro.noma'",
  '"a.noma"',
  "a.noma # c",
  "a: b",
  "[a.noma]",
  "{file: a.noma}",
  "a.md",
  "a noma.noma",
  "- a.noma",
  "&x a.noma",
  "*x",
  "!!str a.noma",
  "a.noma\t",
];
const item = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...PATHS) },
  { weight: 2, arbitrary: fc.constantFrom(...PATHS).map((p) => `file: ${p}`) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD) },
  { weight: 1, arbitrary: fc.constantFrom(...ODD).map((p) => `file: ${p}`) },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);
const indent = fc.constantFrom("", "  ", "  ", "    ", " ");
const chaptersBlock = fc
  .tuple(
    indent,
    fc.array(fc.tuple(item, fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: indent })), { minLength: 0, maxLength: 5 }),
    fc.constantFrom("chapters:", "chapters:", "chapters: ", "chapters: []", "Chapters:"),
  )
  .map(([i, items, key]) => [key, ...items.map(([v, own]) => `${own ?? i}- ${v}`)].join("\n"));
const other = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom("title: My Book", "title: Fifty parts", "title: 'Quoted: title'", "title: 3", "title: true", "author: Ann") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "",
      "# comment",
      "---",
      "  continued",
      "title: x\ntitle: y",
      "nested:\n  a: 1",
      "    file: x.noma",
      "  title: Intro",
      "\t- a.noma",
      "x\r",
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
);
const manifest = fc
  .tuple(
    fc.array(other, { maxLength: 2 }),
    fc.oneof({ weight: 6, arbitrary: chaptersBlock }, { weight: 1, arbitrary: fc.constant("") }),
    fc.array(other, { maxLength: 2 }),
    fc.boolean(),
  )
  .map(([before, block, after, newline]) => [...before, block, ...after].join("\n") + (newline ? "\n" : ""));

describe("readSimpleManifest", () => {
  it("answers exactly what the YAML library answers, or leaves the text to it", () => {
    let answered = 0;
    fc.assert(
      fc.property(manifest, (text) => {
        const fast = readSimpleManifest(text);
        if (fast === undefined) return;
        answered++;
        expect(fast).toStrictEqual(library(text));
      }),
      { numRuns: 4000 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it("answers for the usual shapes, chapter files starting with numbers included", () => {
    for (const text of [
      "title: Fifty parts\nchapters:\n  - 00-part0.noma\n  - 01-part1.noma\n",
      "chapters:\n- 01-intro.noma\n- file: 02-risks.noma\n",
      "title: B\nchapters:\n  - 01-intro.noma\n\n  - sub/02.noma\nauthor: Ann\n",
    ]) {
      const fast = readSimpleManifest(text);
      expect(fast).toBeDefined();
      expect(fast).toStrictEqual(library(text));
      expect(parseBookManifest(text).files.length).toBeGreaterThan(0);
    }
  });

  it("leaves to the library what it does not read itself", () => {
    for (const text of [
      "chapters:\n  - 01 # intro\n",
      "chapters:\n  - '01.noma'\n",
      "chapters:\n  - a.noma\n    more\n",
      "chapters:\n  - a.noma\n - b.noma\n",
      "chapters:\n  - file: a.noma\n    title: A\n",
      "title: x\ntitle: y\nchapters:\n  - a.noma\n",
      "chapters: [a.noma]\n",
      "chapters:\r\n  - a.noma\r\n",
    ]) {
      expect({ text, fast: readSimpleManifest(text) }).toEqual({ text, fast: undefined });
    }
  });
});
