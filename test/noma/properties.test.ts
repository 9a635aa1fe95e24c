/**
 * Property tests (fast-check) for every parser of the document half:
 * - parse never throws, on arbitrary text and on Noma-shaped text;
 * - render∘parse is a fixed point: render(parse(render(parse(x)))) = render(parse(x));
 * - spans lie within the document, children within parents, siblings in order;
 * - attribute writing reads back; table-row and formula parsers never throw;
 * - adversarial inputs (the reference's pipe-table hang among them) finish at large sizes.
 * Timing is not asserted here (see bench/parse.bench.mjs for the scaling figures).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseFormula, parseNoma, renderNoma, validateNoma, type BlockNode, type NomaDocument } from "../../src/internal.js";
import { coerceAttrValue, formatAttr, parseAttributes } from "../../src/noma/attributes.js";
import { splitOnPipes } from "../../src/noma/table-row.js";

const NOMA_LINES = [
  "::a",
  '::claim{id="c1" confidence=0.5}',
  ':::evidence{for="c1"}',
  "::::note",
  "::",
  ":::",
  "::::",
  '::section{id="s"}',
  "```",
  "```js",
  "# Heading",
  '## Heading {id="h" aliases="x,y"}',
  "### Heading",
  "#NoSpace",
  "---",
  "***",
  "___",
  "| a | b |",
  "|---|---|",
  "|:--|--:|",
  "| 1 | 2 |",
  "- item",
  "* item",
  "1. one",
  "2. two",
  "> quote",
  ">",
  "",
  "text with [[link]] and `code [[x]]`",
  "plain words",
  "    indented",
  "\t",
  '::table{id="t" header}',
  "Col | Other",
  "---\ntitle: x\n---",
];

const nomaLine = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NOMA_LINES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
);

const nomaText = fc
  .tuple(fc.array(nomaLine, { maxLength: 40 }), fc.constantFrom("\n", "\r\n", "\r"), fc.boolean())
  .map(([lines, eol, trailing]) => lines.join(eol) + (trailing ? eol : ""));

function checkSpans(doc: NomaDocument): void {
  const last = doc.endLine;
  const visit = (nodes: readonly BlockNode[], lo: number, hi: number): void => {
    let prevEnd = lo - 1;
    for (const n of nodes) {
      expect(n.pos.line).toBeGreaterThanOrEqual(Math.max(lo, 1));
      expect(n.endLine).toBeGreaterThanOrEqual(n.pos.line);
      expect(n.endLine).toBeLessThanOrEqual(Math.min(hi, last));
      expect(n.pos.line).toBeGreaterThan(prevEnd);
      prevEnd = n.endLine;
      if (n.type === "section" || n.type === "directive") visit(n.children, n.pos.line + (n.type === "section" ? 0 : 1), n.endLine);
      if (n.type === "section" && n.children.length > 0) expect(n.children[0]!.pos.line).toBeGreaterThan(n.pos.line);
      if (n.type === "list") visit(n.children as unknown as BlockNode[], n.pos.line, n.endLine);
    }
  };
  visit(doc.children, doc.frontmatter !== undefined ? doc.frontmatter.endLine + 1 : 1, last);
}

describe("parse", () => {
  it("never throws on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 400 }), (s) => {
        const doc = parseNoma(s);
        validateNoma(doc);
      }),
      { numRuns: 400 },
    );
  });

  it("never throws on Noma-shaped text, and its spans nest", () => {
    fc.assert(
      fc.property(nomaText, (s) => {
        const doc = parseNoma(s);
        validateNoma(doc);
        checkSpans(doc);
      }),
      { numRuns: 600 },
    );
  });
});

describe("render∘parse", () => {
  it("is a fixed point after one application", () => {
    fc.assert(
      fc.property(nomaText, (s) => {
        const once = renderNoma(parseNoma(s));
        expect(renderNoma(parseNoma(once))).toBe(once);
      }),
      { numRuns: 600 },
    );
  });

  it("keeps every canonical id of a Tier-1 document", () => {
    fc.assert(
      fc.property(nomaText, (s) => {
        const doc = parseNoma(s);
        fc.pre(!doc.problems.some((p) => p.severity === "error"));
        expect(parseNoma(renderNoma(doc)).ids).toEqual(doc.ids);
      }),
      { numRuns: 400 },
    );
  });
});

describe("attributes", () => {
  const key = fc.stringMatching(/^[A-Za-z_][\w-]{0,8}$/);
  const value = fc.oneof(fc.boolean(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ maxLength: 20 }));

  it("what formatAttr writes, parseAttributes reads back (coerced)", () => {
    fc.assert(
      fc.property(key, value, (k, v) => {
        const written = formatAttr(k, v);
        fc.pre(written !== "newline" && written !== "both-quotes" && written !== "not-finite");
        const read = parseAttributes(written).attrs[k];
        // Numbers read back exactly (written in plain decimal); strings as any document's text would.
        const expected = typeof v === "string" ? coerceAttrValue(v) : v;
        expect(read).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it("parseAttributes never throws and its token offsets lie inside the input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        for (const t of parseAttributes(s).tokens) {
          expect(t.start).toBeGreaterThanOrEqual(0);
          expect(t.end).toBeLessThanOrEqual(s.length);
          expect(s.slice(t.start).startsWith(t.key)).toBe(true);
        }
      }),
    );
  });
});

describe("other parsers", () => {
  it("splitOnPipes loses nothing: the cells re-joined with | are the input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (s) => {
        expect(splitOnPipes(s).join("|")).toBe(s);
      }),
    );
  });

  it("parseFormula never throws", () => {
    const formulaish = fc
      .array(fc.constantFrom("a", "b1", "max", "(", ")", ",", "+", "-", "*", "/", "^", "**", "1", "2.5", " ", "<=", "eval", "!"), { maxLength: 30 })
      .map((p) => p.join(""));
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 40 }), formulaish), (s) => void parseFormula(s)),
      { numRuns: 500 },
    );
  });
});

describe("no input hangs the parser", () => {
  const families: Array<[string, (n: number) => string]> = [
    ["pipe table whose header and separator disagree", (n) => `| a | b |\n|---|---|---|\n${"| 1 | 2 |\n".repeat(n)}`],
    ["unclosed directive openers", (n) => "::a\n".repeat(n)],
    ["ever deeper openers", (n) => Array.from({ length: n }, (_, i) => `${":".repeat(2 + (i % 63))}x`).join("\n")],
    ["unclosed fences", (n) => "```\n::a\n".repeat(n)],
    ["identical headings", (n) => "# Same\n".repeat(n)],
    ["one long line of braces", (n) => `# ${"{".repeat(n * 8)}`],
    ["directive line with many braces", (n) => `::a{${"}{".repeat(n * 4)}\n::\n`],
    ["stray closes", (n) => "::\n:::\n".repeat(n)],
    ["wikilinks", (n) => "[[a]] [[b|c]] `[[d]]` ".repeat(n)],
    ["unclosed wikilinks", (n) => "[[a ".repeat(n * 4)],
    ["unclosed wikilink labels", (n) => "[[a|b ".repeat(n * 3)],
    ["wikilinks across code spans", (n) => "[[a` ]] `x".repeat(n * 2)],
    // Every line is read for wikilinks; a search for its first backtick must not run to the end.
    ["wikilinks on many lines, one backtick at the end", (n) => `${"[[a]] b\n".repeat(n * 2)}\``],
  ];
  it.each(families)("%s (≈1 MB) parses and validates", (_, make) => {
    const src = make(60_000);
    const doc = parseNoma(src);
    validateNoma(doc);
    expect(doc.endLine).toBeGreaterThan(0);
  });
});

describe("slugify", () => {
  it("the ASCII fast path gives what the full pipeline gives", async () => {
    const { slugify } = await import("../../src/noma/slugify.js");
    const { slugifyUnicode } = await import("../../src/noma/slugify.js");
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."aZ09 -_\t\n.&+é日\u00a0\u2003-".split("")), maxLength: 30 }), (s) => {
        expect(slugify(s)).toBe(slugifyUnicode(s));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary-ascii", maxLength: 40 }), (s) => {
        expect(slugify(s)).toBe(slugifyUnicode(s));
      }),
      { numRuns: 3000 },
    );
    // A very long heading (its slug is built in pieces, not one call with a million arguments).
    const long = "Ab-c d ".repeat(150_000);
    expect(slugify(long)).toBe(slugifyUnicode(long));
    expect(slugify("x".repeat(300_000))).toBe("x".repeat(300_000));
    // Titles that are slugs but for case and spaces (the common heading), and near misses.
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."aZz09 -".split("")), maxLength: 30 }), (s) => {
        expect(slugify(s)).toBe(slugifyUnicode(s));
      }),
      { numRuns: 3000 },
    );
  });
});

describe("sortedIndexOf", () => {
  it("finds a value in an ascending array as indexOf does", async () => {
    const { sortedIndexOf } = await import("../../src/sorted-index-of.js");
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: -50, max: 50 }), { maxLength: 30 }), fc.integer({ min: -60, max: 60 }), (values, v) => {
        const sorted = [...values].sort((a, b) => a - b);
        expect(sortedIndexOf(sorted, v)).toBe(sorted.indexOf(v));
        expect(sortedIndexOf(Int32Array.from(sorted), v)).toBe(sorted.indexOf(v));
      }),
      { numRuns: 2000 },
    );
  });
});
