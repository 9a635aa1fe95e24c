/**
 * Frontmatter without the YAML library (yaml-frontmatter-fast.ts) against the library as the
 * parser calls it, on random frontmatter: the shapes documents are written in, the same with
 * lines, keys and values spliced in that YAML reads differently (core-schema keywords and
 * numbers, leading zeros, signs, dates with times, quotes inside and doubled, comments,
 * anchors, tags, flow lists left open or with trailing commas, nested maps, bad indentation,
 * tabs, CRs, control characters), and arbitrary text. Wherever the fast reader answers, its
 * answer must be the library's, keys in the same order; the test also makes sure it answers
 * for the usual shapes, and that parseNoma gives the same frontmatter and diagnostics either way.
 */
import fc from "fast-check";
import { parseDocument } from "yaml";
import { describe, expect, it } from "vitest";
import { readSimpleFrontmatter } from "../../src/noma/yaml-frontmatter-fast.js";
import { parseNoma, validateNoma } from "../../src/internal.js";

/** What the parser gets from the library for `raw`: the data, or undefined when YAML reports an error. */
function library(raw: string): unknown {
  try {
    const doc = parseDocument(raw, { prettyErrors: true, uniqueKeys: true, logLevel: "error" }); // (warnings of random tags kept off the test output)
    if (doc.errors.length > 0) return undefined;
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  } catch {
    return undefined;
  }
}

/** The same plain data: values, key order and prototypes (toStrictEqual trips over an own `constructor` key). */
function same(a: unknown, b: unknown): boolean {
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b) || Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

const SAFE_KEYS = ["title", "profile", "status", "updated", "owners", "aliases", "tags", "version", "draft", "x_1", "a-b"];
const KEYS = [
  ...SAFE_KEYS,
  "true",
  "True",
  "TRUE",
  "tRue",
  "null",
  "Null",
  "~",
  "1",
  "01",
  "yes",
  "on",
  "__proto__",
  "constructor",
  "a b",
  "-a",
  "a:b",
  "<<",
  "é",
  "toString",
];
const SAFE_VALUES = [
  "Operations handbook",
  "research",
  "living",
  "2026-10-01",
  "[a, b]",
  "[ops-handbook, handbook]",
  "[]",
  "'quoted: text'",
  '"double, quoted"',
  "42",
  "1.5",
  "true",
  "false",
  "null",
  "Bob's guide",
  "a (b) c",
  "x/y.z",
];
const VALUES = [
  ...SAFE_VALUES,
  "01",
  "+3",
  "-3",
  "0x1F",
  "0o17",
  "1e3",
  "1.",
  ".5",
  ".inf",
  "-.inf",
  ".nan",
  "NaN",
  "Infinity",
  "~",
  "TRUE",
  "False",
  "fALSE",
  "Null",
  "2026-10-01T10:00:00Z",
  "2026-1-1",
  "12:30",
  "1_000",
  "a: b",
  "a:",
  "a:b",
  "a #c",
  "a#b",
  "&x v",
  "*x",
  "!!str 1",
  "|",
  ">",
  "- x",
  "-",
  "? x",
  "[a, b,]",
  "[a,, b]",
  "[a, [b]]",
  "[a, b",
  "[ ]",
  "['x', \"y\"]",
  "['it''s']",
  "'it''s'",
  '"a\\"b"',
  "'a",
  '"a',
  "{a: 1}",
  "{}",
  "a, b",
  "  spaced  ",
  "é",
  "ü ö",
  "`x`",
  "%x",
  "@x",
  "a\tb",
  "a\rb",
  "a\u0085b",
  "\ufeffa",
  "'a' b",
  '"a" b',
  '["a, b"]',
  "[a: b]",
  "[1, 2.5, true, null, x]",
];
const key = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...SAFE_KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...KEYS) });
const value = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...SAFE_VALUES) },
  { weight: 2, arbitrary: fc.constantFrom(...VALUES) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);
const indent = fc.constantFrom("", "", "", " ", "  ", "    ");
const line = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(key, value, fc.constantFrom(" ", " ", "  ", "")).map(([k, v, sp]) => `${k}:${sp}${v}`) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(key, fc.array(fc.tuple(indent, value), { maxLength: 4 }))
      .map(([k, items]) => [`${k}:`, ...items.map(([i, v]) => `${i}- ${v}`)].join("\n")),
  },
  { weight: 1, arbitrary: fc.tuple(indent, key, value).map(([i, k, v]) => `${i}${k}: ${v}`) },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "# comment", "---", "...", "- stray", "key:", "nested:\n  inner: 1") },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
);
const frontmatter = fc.array(line, { minLength: 0, maxLength: 8 }).map((ls) => ls.join("\n"));

describe("readSimpleFrontmatter", () => {
  it("answers exactly what the YAML library answers, or leaves the text to it", () => {
    let answered = 0;
    fc.assert(
      fc.property(frontmatter, (raw) => {
        const fast = readSimpleFrontmatter(raw);
        if (fast === undefined) return;
        answered++;
        expect(same(fast, library(raw))).toBe(true);
      }),
      { numRuns: 4000 },
    );
    expect(answered).toBeGreaterThan(150);
  });

  it("answers for the shapes documents are written in", () => {
    const usual = [
      "title: Operations handbook (benchmark)\nprofile: research\naliases: [ops-handbook, handbook]\nowners:\n  - platform-team\n  - sre\nstatus: living\nupdated: 2026-10-01",
      'title: "Quoted: title"\nversion: 3\ndraft: false\ntags: []',
      "title: Bob's guide\nsummary: 'A, B and C'\nweight: 1.25\nowners:\n- one\n- two",
      "title: x\nempty:\nnext: y",
    ];
    for (const raw of usual) {
      const fast = readSimpleFrontmatter(raw);
      expect(fast).toBeDefined();
      expect(same(fast, library(raw))).toBe(true);
    }
    expect(readSimpleFrontmatter("title: x\nempty:\nnext: y")).toStrictEqual({ title: "x", empty: null, next: "y" });
  });

  it("leaves to the library what it does not type itself", () => {
    for (const raw of [
      "a: 01",
      "a: 0x1F",
      "a: 1e3",
      "a: .inf",
      "a: ~",
      "a: -3",
      "a: x # c",
      "a: &x 1",
      "a: [x, y,]",
      "a:\n  b: 1",
      "a: 1\na: 2",
      "__proto__: x",
      "a: 'it''s'",
      'a: "x\\ty"',
      "true: 1",
      "  a: 1",
      "a: b\n  c",
    ]) {
      expect({ raw, fast: readSimpleFrontmatter(raw) }).toEqual({ raw, fast: undefined });
    }
  });

  it("parseNoma gives the library's frontmatter and the same diagnostics", () => {
    fc.assert(
      // (A fence line would end the frontmatter early, and the parser splits lines at CRs too.)
      fc.property(
        frontmatter.filter((raw) => !/^-{3}/m.test(raw) && !raw.includes("\r")),
        (raw) => {
          const text = `---\n${raw}\n---\n\n# Title\n\nSome prose.\n`;
          const doc = parseNoma(text);
          const lib = library(raw);
          const fm = doc.frontmatter;
          expect(fm).toBeDefined();
          if (lib !== undefined && (lib === null || (typeof lib === "object" && !Array.isArray(lib)))) expect(same(fm?.data, lib)).toBe(true);
          if (readSimpleFrontmatter(raw) !== undefined) expect(validateNoma(doc).filter((d) => d.code === "invalid-frontmatter")).toEqual([]);
        },
      ),
      { numRuns: 500 },
    );
  });
});
