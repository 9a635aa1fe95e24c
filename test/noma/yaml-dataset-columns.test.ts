/**
 * Dataset column names without the YAML library (yaml-dataset-columns.ts) against the
 * library (parsedDatasetColumns), on random YAML bodies: the shapes datasets are written
 * in, the same with random lines spliced in (keys YAML reads as numbers, booleans or null,
 * duplicate keys, bad indentation, tabs, comments, quotes, anchors, documents, flow
 * sequences left open), and arbitrary text. Whenever the fast reader answers, its answer
 * must be the library's; the test also makes sure it answers often.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetColumns, parsedDatasetColumns } from "../../src/noma/dataset-columns.js";
import { yamlDatasetColumns } from "../../src/noma/yaml-dataset-columns.js";
import { parseNoma, validateNoma } from "../../src/internal.js";

const KEYS = [
  "quarter",
  "revenue",
  "margin",
  "a",
  "b",
  "a b",
  "c-d",
  "e.f",
  "_x",
  "growth_rate",
  "x1",
  "true",
  "True",
  "null",
  "NULL",
  "~",
  "1",
  "0x1",
  "1e3",
  ".inf",
  "'q'",
  '"q"',
  "<<",
  "a:b",
  "x#y",
  "yes",
  "on",
  "-a",
  "a ",
  " a",
  "é",
];
const VALUES = [
  "string",
  "number",
  "1.5",
  "-3",
  ".5",
  "+2",
  "50%",
  "a b",
  "[a, b]",
  "[]",
  "[ ]",
  "[1, 2",
  "[a, [b]]",
  '"s"',
  "'s'",
  '"a,b"',
  "a # c",
  "a#b",
  "- x",
  "x: y",
  "&a x",
  "*a",
  "!!str x",
  "|",
  ">",
  "yes",
  "null",
  "~",
  "",
  "-",
  ".",
  "2026-10-01",
  "[Q1, 1.5, 0.31]",
  '["x", 2]',
  "{a: 1}",
  "a, b",
  "é",
];
const INDENTS = ["", " ", "  ", "    "];

const SAFE_KEYS = ["quarter", "revenue", "margin", "a", "b", "a b", "c-d", "e.f", "_x", "growth_rate", "x1"];
const SAFE_VALUES = ["string", "number", "1.5", "-3", ".5", "50%", "a b", "[a, b]", "[]", "'s'", '"s"', "[Q1, 1.5, 0.31]", "2026-10-01"];
/** Mostly keys and values inside the fast reader's subset, sometimes anything. */
const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SAFE_KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...KEYS) });
const value = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SAFE_VALUES) }, { weight: 1, arbitrary: fc.constantFrom(...VALUES) });
const indent = fc.constantFrom(...INDENTS);

/** A random line of YAML-ish text. */
const line = fc.oneof(
  fc.tuple(indent, key, value).map(([i, k, v]) => `${i}${k}: ${v}`),
  fc.tuple(indent, key).map(([i, k]) => `${i}${k}:`),
  fc.tuple(indent, value).map(([i, v]) => `${i}- ${v}`),
  fc.tuple(indent, fc.constantFrom("# comment", "#", "---", "...", "-", "\t", "%YAML 1.2", "? a", "key:value", "  ", "")).map(([i, s]) => `${i}${s}`),
  fc.string({ maxLength: 20 }),
);

/** A body in the shapes datasets are written in (the fast reader's subset, mostly). */
const datasetBody = fc
  .record({
    schemaKeys: fc.array(key, { maxLength: 5 }),
    schemaIndent: fc.constantFrom("  ", "    ", " "),
    rows: fc.array(value, { maxLength: 4 }),
    rowsIndent: fc.constantFrom("", "  ", "    "),
    columns: fc.option(
      fc.oneof(
        fc.array(key, { maxLength: 4 }).map((ks) => `columns: [${ks.join(", ")}]`),
        fc.array(key, { maxLength: 4 }).map((ks) => ["columns:", ...ks.map((k) => `  - ${k}`)].join("\n")),
      ),
    ),
    title: fc.option(fc.tuple(key, value)),
    comments: fc.boolean(),
  })
  .map(({ schemaKeys, schemaIndent, rows, rowsIndent, columns, title, comments }) => {
    const out: string[] = [];
    if (title !== null) out.push(`${title[0]}: ${title[1]}`);
    if (schemaKeys.length > 0) {
      out.push(comments ? "schema: # the columns" : "schema:");
      for (const k of schemaKeys) out.push(`${schemaIndent}${k}: ${comments ? "number # unit" : "string"}`);
    }
    if (columns !== null) out.push(...columns.split("\n"));
    if (rows.length > 0) {
      out.push("rows:");
      for (const r of rows) out.push(`${rowsIndent}- ${r}`);
    }
    return out;
  });

const body = fc.oneof(
  { weight: 3, arbitrary: datasetBody },
  {
    weight: 2,
    arbitrary: fc.tuple(datasetBody, fc.array(fc.tuple(fc.nat(), line), { maxLength: 3 })).map(([lines, extra]) => {
      const out = [...lines];
      for (const [at, l] of extra) out.splice(at % (out.length + 1), 0, l);
      return out;
    }),
  },
  { weight: 1, arbitrary: fc.array(line, { maxLength: 8 }) },
);

describe("dataset column names without the YAML library", () => {
  it("answer what the YAML library answers whenever they answer, and answer often", () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(body, (lines) => {
        runs++;
        const fast = yamlDatasetColumns(lines);
        if (fast !== undefined) answered++;
        expect(datasetColumns(lines, undefined)).toEqual(parsedDatasetColumns(lines, "yaml"));
        if (fast !== undefined) expect(fast).toEqual(parsedDatasetColumns(lines, "yaml"));
      }),
      { numRuns: 2000 },
    );
    // Most generated dataset-shaped bodies are in the subset: the fast path is what runs.
    expect(answered / runs).toBeGreaterThan(0.15);
  });

  it("reads the usual shapes and leaves everything else to the library", () => {
    expect(yamlDatasetColumns(["schema:", "  vertical: string", "  growth: number", "rows:", "  - [legal, 3.4]"])).toEqual(["vertical", "growth"]);
    expect(yamlDatasetColumns(["columns: [a, b]", "rows:", "- [1, 2]"])).toEqual(["a", "b"]);
    expect(yamlDatasetColumns(["rows:", "  - [1, 2]"])).toBeNull();
    // Keys that are not plain strings, duplicates, tabs, multi-line flow: the library decides.
    expect(yamlDatasetColumns(["schema:", "  2: x", "  b: y"])).toBeUndefined();
    expect(yamlDatasetColumns(["schema:", "  a: x", "  a: y"])).toBeUndefined();
    expect(yamlDatasetColumns(["schema:", "\ta: x"])).toBeUndefined();
    expect(yamlDatasetColumns(["rows:", "  - [1,", "     2]"])).toBeUndefined();
    expect(yamlDatasetColumns([])).toBeUndefined();
    // JavaScript object key order, as the library's toJS gives it.
    expect(datasetColumns(["schema:", "  b: x", "  a: y"], undefined)).toEqual(["b", "a"]);
  });

  it("a JSON array of rows whose first row is all text names the columns there, as the patch engine reads it", () => {
    expect(parsedDatasetColumns(['[["name", "n"],', ' ["a", 1]]'], "json")).toEqual(["name", "n"]);
    expect(parsedDatasetColumns(["[[1, 2], [3, 4]]"], "json")).toBeNull();
    expect(parsedDatasetColumns(['[["a", 1]]'], "json")).toBeNull();
    expect(parsedDatasetColumns(["[[]]"], "json")).toBeNull();
    const text = '::dataset{id="d" format="json"}\n[["name", "n"], ["a", 1]]\n::\n::plot{dataset="d" column="n"}\n::\n::plot{dataset="d" column="z"}\n::\n';
    expect(validateNoma(parseNoma(text)).map((d) => [d.code, d.pos?.line, d.message])).toEqual([
      ["plot-unknown-column", 6, '::plot column="z" is not a column of dataset "d" (columns: name, n).'],
    ]);
  });

  it("plot-unknown-column is reported the same for every plot of a dataset read once", () => {
    const text = [
      '::dataset{id="d"}',
      "schema:",
      "  a: string",
      "rows:",
      "  - [x]",
      "::",
      '::plot{dataset="d" column="a"}',
      "::",
      '::plot{dataset="d" column="z"}',
      "::",
      '::plot{dataset="d" column="y"}',
      "::",
      "",
    ].join("\n");
    const codes = validateNoma(parseNoma(text)).map((d) => [d.code, d.pos?.line]);
    expect(codes).toEqual([
      ["plot-unknown-column", 9],
      ["plot-unknown-column", 11],
    ]);
  });
});
