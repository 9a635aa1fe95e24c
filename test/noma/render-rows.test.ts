/**
 * renderNoma of a fresh parse reads the block table (no node is built): the same text as
 * the rendering of its node tree, for any document, and the tree is not built by it; so
 * does renderNomaChunks of the blocks alone (`scanNoma`: no id index), in chunks.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma, renderNoma } from "../../src/internal.js";
import { compactParse } from "../../src/noma/compact-parse.js";
import { scanNoma } from "../../src/noma/parse-noma.js";
import { renderNomaChunks } from "../../src/noma/render-noma.js";

const LINES = [
  "::a",
  '::claim{id="c1" confidence=0.5 b=1e21 flag x=false}',
  ':::evidence{for="c1" t=\'say "hi"\'}',
  "::::note",
  "::",
  ":::",
  "::::",
  '::section{id="s"}',
  "```",
  "```js",
  "code line",
  "# Heading",
  "# Heading",
  '# Heading {id="heading"}',
  '## Heading {id="h" aliases="x,y"}',
  "### Heading-2",
  '# {id=""}',
  "#NoSpace",
  "---",
  "***",
  "___",
  "| a | b |",
  "|---|---|",
  "|:--|--:|",
  "|:-:|",
  "| 1 | 2 | 3 |",
  "| `a|b` | c\\|d |",
  "- item",
  "* item",
  "1. one",
  "7. two",
  "> quote",
  ">",
  ">no space",
  "",
  "",
  "text with [[link]] and `code [[x]]`",
  "plain words",
  "::not a fence here",
  "    indented",
  "\t",
  '::table{id="t" header}',
  "Col | Other",
  "---\ntitle: x\n---",
];
const line = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...LINES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 8 }) },
);
const text = fc
  .tuple(fc.array(line, { maxLength: 50 }), fc.constantFrom("\n", "\r\n", "\r"), fc.boolean())
  .map(([lines, eol, trailing]) => lines.join(eol) + (trailing ? eol : ""));

describe("renderNoma from the block table", () => {
  it("renders what the node tree renders, without building it", () => {
    fc.assert(
      fc.property(text, (s) => {
        const compact = parseNoma(s);
        const rows = renderNoma(compact);
        expect(compactParse(compact)).toBeDefined();
        const tree = parseNoma(s);
        void tree.children;
        expect(compactParse(tree)).toBeUndefined();
        expect(rows).toBe(renderNoma(tree));
        // From the blocks alone (no id index: the renderer derives headings' ids), in chunks.
        const chunks: string[] = [];
        renderNomaChunks(scanNoma(s), (c) => chunks.push(c));
        expect(chunks.join("")).toBe(rows);
      }),
      { numRuns: 3000 },
    );
  });

  it("hands a large rendering out in chunks that join to the whole", () => {
    const parts: string[] = ["---\ntitle: big\n---"];
    for (let i = 0; i < 3000; i++)
      parts.push(`# Part ${i % 7}`, `::claim{id="c${i}" confidence=0.5}\nText ${i} [[c${i}]].\n::`, "| a | b |\n|--|--|\n| 1 | 2 |");
    const s = `${parts.join("\n\n")}\n`;
    const chunks: string[] = [];
    renderNomaChunks(scanNoma(s), (c) => chunks.push(c));
    expect(chunks.length).toBeGreaterThan(3);
    const tree = parseNoma(s);
    void tree.children;
    expect(chunks.join("")).toBe(renderNoma(tree));
  });

  it("copies an attribute block only when it is already written as a rendering writes it", () => {
    const token = fc.oneof(
      fc.constantFrom("a", "b", "id", "__proto__", "x-y", "k_2"),
      fc.tuple(fc.constantFrom("a", "b", "c"), fc.constantFrom("1", "1.0", "-0", "007", "0.5", "1e3", "true", "false", "x", "")).map(([k, v]) => `${k}=${v}`),
      fc
        .tuple(fc.constantFrom("a", "b", "d"), fc.constantFrom('"x"', '"5"', '"true"', "'x'", "'say \"hi\"'", '""', '"a b"', '"open'))
        .map(([k, v]) => `${k}=${v}`),
    );
    const attrs = fc.tuple(fc.array(token, { maxLength: 4 }), fc.constantFrom(" ", "  ", "\t", " ,")).map(([t, sep]) => t.join(sep));
    fc.assert(
      fc.property(attrs, fc.boolean(), (a, body) => {
        const s = `::claim{${a}}\n${body ? "text\n" : ""}::\n`;
        const tree = parseNoma(s);
        void tree.children;
        expect(renderNoma(parseNoma(s))).toBe(renderNoma(tree));
      }),
      { numRuns: 3000 },
    );
  });
});
