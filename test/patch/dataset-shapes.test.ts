/**
 * Issue 15 item 2: the dataset ops edit every shape the reference edits, in the shape found.
 * - JSON: rows or records one per line, pretty-printed over several lines, all on one line,
 *   `{"columns": [...], "rows": [...]}` (columns as names or {"name", "type"} objects).
 *   Property: any op on any layout gives the data the op describes, and a body written by
 *   JSON.stringify(…, null, k) stays exactly what JSON.stringify writes for the new data.
 * - YAML: flow arrays, flow maps, block maps (`- name: x` / `  n: 1`), block lists
 *   (`- - x` / `  - 1`); property: the YAML the body holds afterwards (read with the yaml
 *   package) is the data the op describes.
 * - CSV: a space after each comma is kept; cells are quoted by the §B rule.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { applyOk as ok } from "../helpers/apply-one.js";

type V = string | number | boolean | null;

function body(text: string): string {
  const lines = text.split(/\r?\n/);
  const open = lines.findIndex((l) => l.startsWith("::dataset"));
  const close = lines.indexOf("::", open + 1);
  return lines.slice(open + 1, close).join("\n");
}

describe("JSON datasets in any layout", () => {
  const pretty = (value: unknown): string => `::dataset{id="d" format="json"}\n${JSON.stringify(value, null, 2)}\n::\n\nAfter.\n`;
  const records = [
    { name: "ana", n: 1 },
    { name: "bo", n: 2 },
  ];

  it("pretty-printed records: a cell edit changes one line; a new record copies the layout", () => {
    const src = pretty(records);
    const cell = ok(src, { op: "update_dataset_cell", id: "d", row: 1, column: "n", value: "7" });
    expect(cell).toBe(pretty([records[0], { name: "bo", n: 7 }]));
    expect(ok(src, { op: "insert_dataset_row", id: "d", row: 1, cells: ["cy", "3"] })).toBe(pretty([records[0], { name: "cy", n: 3 }, records[1]]));
    expect(ok(src, { op: "delete_dataset_row", id: "d", row: 1 })).toBe(pretty([records[0]]));
    expect(ok(src, { op: "insert_dataset_column", id: "d", column: 1, header: "ok", cells: [true, false] })).toBe(
      pretty([
        { name: "ana", ok: true, n: 1 },
        { name: "bo", ok: false, n: 2 },
      ]),
    );
    expect(ok(src, { op: "delete_dataset_column", id: "d", column: 0 })).toBe(pretty([{ n: 1 }, { n: 2 }]));
  });

  it("pretty-printed {columns, rows} with column objects", () => {
    const table = {
      columns: [
        { name: "name", type: "string" },
        { name: "n", type: "number" },
      ],
      rows: [["ana", 1]],
    };
    expect(ok(pretty(table), { op: "insert_dataset_column", id: "d", column: 2, header: "w", type: "number", cells: ["4.5"] })).toBe(
      pretty({ columns: [...table.columns, { name: "w", type: "number" }], rows: [["ana", 1, 4.5]] }),
    );
    expect(ok(pretty(table), { op: "update_dataset_cell", id: "d", row: 0, column: "n", value: "12" })).toBe(pretty({ ...table, rows: [["ana", 12]] }));
  });

  it("a record missing a key gets it in column order; a short row is padded with null", () => {
    const src = '::dataset{id="d" format="json"}\n[\n  {"name": "ana", "n": 1},\n  {"n": 2}\n]\n::\n';
    expect(ok(src, { op: "update_dataset_cell", id: "d", row: 1, column: "name", value: "bo" })).toBe(src.replace('{"n": 2}', '{"name": "bo", "n": 2}'));
    const rows = '::dataset{id="d" format="json"}\n[\n  ["ana", 1, true],\n  ["bo"]\n]\n::\n';
    expect(ok(rows, { op: "update_dataset_cell", id: "d", row: 1, column: 2, value: false })).toBe(rows.replace('["bo"]', '["bo", null, false]'));
  });

  it("compact JSON stays compact", () => {
    const src = '::dataset{id="d" format="json"}\n[{"name":"ana","n":1},{"name":"bo","n":2}]\n::\n';
    expect(ok(src, { op: "insert_dataset_row", id: "d", row: 2, cells: ["cy", 3] })).toBe(src.replace('"n":2}]', '"n":2},{"name":"cy","n":3}]'));
  });

  it("coerces by the declared column type (a value it cannot take is written as it is); undeclared columns keep the JSON type given", () => {
    const typed = pretty({
      columns: [
        { name: "code", type: "string" },
        { name: "n", type: "integer" },
      ],
      rows: [["a1", 1]],
    });
    expect(ok(typed, { op: "update_dataset_cell", id: "d", row: 0, column: "code", value: 12 })).toContain('"12"');
    // The reference applies a value the column's type cannot take (issue 27): written as it is.
    expect(JSON.parse(body(ok(typed, { op: "update_dataset_cell", id: "d", row: 0, column: "n", value: "1.5" }))).rows).toEqual([["a1", 1.5]]);
    expect(JSON.parse(body(ok(typed, { op: "update_dataset_cell", id: "d", row: 0, column: "n", value: "many" }))).rows).toEqual([["a1", "many"]]);
    expect(ok(pretty([{ v: "a" }]), { op: "update_dataset_cell", id: "d", row: 0, column: "v", value: 12 })).toContain('"v": 12');
  });

  it("keeps CRLF in the new lines", () => {
    const src = pretty(records).replace(/\n/g, "\r\n");
    expect(ok(src, { op: "insert_dataset_row", id: "d", row: 0, cells: ["cy", 3] })).toBe(pretty([{ name: "cy", n: 3 }, ...records]).replace(/\n/g, "\r\n"));
  });

  it("refuses invalid JSON and mixed rows with invalid_content naming the line", () => {
    const bad = applyPatch('::dataset{id="d" format="json"}\n[\n  ["a", 1],\n  ["b" 2]\n]\n::\n', [{ op: "delete_dataset_row", id: "d", row: 0 }]);
    expect(bad.error?.code).toBe("invalid_content");
    expect(bad.error?.message).toMatch(/line 4/);
    expect(applyPatch('::dataset{id="d" format="json"}\n[["a"], {"x": 1}]\n::\n', [{ op: "delete_dataset_row", id: "d", row: 0 }]).error?.code).toBe(
      "invalid_content",
    );
  });
});

// ---- properties ---------------------------------------------------------------

interface Data {
  columns: string[];
  rows: V[][];
}

const NAMES = ["ana", "bo", "cy", "dee"];
const dataArb: fc.Arbitrary<Data> = fc
  .array(fc.tuple(fc.constantFrom(...NAMES), fc.integer({ min: -5, max: 99 })), { minLength: 1, maxLength: 4 })
  .map((rows) => ({ columns: ["name", "n"], rows }));

type Op =
  | { op: "update_dataset_cell"; row: number; column: number | string; value: V }
  | { op: "insert_dataset_row"; row: number; cells: V[] }
  | { op: "delete_dataset_row"; row: number }
  | { op: "insert_dataset_column"; column: number; header: string; cells: V[] }
  | { op: "delete_dataset_column"; column: number | string };

function opArb(d: Data): fc.Arbitrary<Op> {
  const n = d.rows.length;
  const w = d.columns.length;
  const col = fc.oneof(fc.nat(w - 1), fc.constantFrom(...d.columns));
  return fc.oneof(
    fc
      .record({ op: fc.constant("update_dataset_cell" as const), row: fc.nat(n - 1), column: col, value: fc.constantFrom<V>("zed", "7", 12) })
      // Text into the name column, numbers (given as text or not) into n.
      .map((o) => ({ ...o, value: o.column === 0 || o.column === "name" ? "zed" : o.value === "zed" ? 12 : o.value })),
    fc.record({ op: fc.constant("insert_dataset_row" as const), row: fc.nat(n), cells: fc.constantFrom<V[]>(["eve", 4], ["fay"], []) }),
    fc.record({ op: fc.constant("delete_dataset_row" as const), row: fc.nat(n - 1) }),
    fc.record({
      op: fc.constant("insert_dataset_column" as const),
      column: fc.nat(w),
      header: fc.constant("x"),
      cells: fc.constantFrom<V[]>([], ["1", "2"].slice(0, n), ["p", "q", "r", "s"].slice(0, n)),
    }),
    fc.record({ op: fc.constant("delete_dataset_column" as const), column: col }),
  );
}

/** What the op does to the data (cells coerced the way the ops coerce them). */
function expectedData(d: Data, o: Op): Data {
  const columns = [...d.columns];
  const rows = d.rows.map((r) => [...r]);
  const ci = (c: number | string): number => (typeof c === "number" ? c : columns.indexOf(c));
  const coerce = (c: number, v: V): V => (c === 1 && v !== null ? Number(v) : v);
  switch (o.op) {
    case "update_dataset_cell":
      rows[o.row]![ci(o.column)] = coerce(ci(o.column), o.value);
      break;
    case "insert_dataset_row":
      rows.splice(
        o.row,
        0,
        columns.map((_, c) => (c < o.cells.length ? coerce(c, o.cells[c]!) : null)),
      );
      break;
    case "delete_dataset_row":
      rows.splice(o.row, 1);
      break;
    case "insert_dataset_column": {
      const numeric = o.cells.length > 0 && o.cells.every((v) => v !== null && Number.isFinite(Number(v)));
      columns.splice(o.column, 0, o.header);
      // A row without a given cell gets the empty text (as insert_table_column gives it).
      rows.forEach((r, i) => r.splice(o.column, 0, i < o.cells.length ? (numeric ? Number(o.cells[i]) : o.cells[i]!) : ""));
      break;
    }
    case "delete_dataset_column": {
      const c = ci(o.column);
      columns.splice(c, 1);
      for (const r of rows) r.splice(c, 1);
      break;
    }
  }
  return { columns, rows };
}

type JsonShape = "rows" | "records" | "table" | "typed-table";
function jsonValue(d: Data, shape: JsonShape): unknown {
  const records = d.rows.map((r) => Object.fromEntries(d.columns.map((c, i) => [c, r[i] ?? null])));
  if (shape === "rows") return d.rows;
  if (shape === "records") return records;
  if (shape === "table") return { columns: d.columns, rows: d.rows };
  return { columns: d.columns.map((c, i) => ({ name: c, type: i === 1 ? "number" : "string" })), rows: d.rows };
}

function typedColumnsFor(d: Data, o: Op): unknown {
  const e = expectedData(d, o);
  return e.columns.map((c) => {
    if (c !== "x" || o.op !== "insert_dataset_column") return { name: c, type: c === "n" ? "number" : "string" };
    const numeric = o.cells.length > 0 && o.cells.every((v) => v !== null && Number.isFinite(Number(v)));
    return { name: c, type: numeric ? "number" : "string" };
  });
}

describe("dataset properties", () => {
  it("JSON: every op gives the data it describes, in JSON.stringify's own layout", () => {
    let exact = 0;
    fc.assert(
      fc.property(
        dataArb.chain((d) =>
          fc.tuple(
            fc.constant(d),
            opArb(d),
            fc.constantFrom<JsonShape>("rows", "records", "table", "typed-table"),
            fc.constantFrom(0, 2, 4, "one-per-line"),
            fc.constantFrom("\n", "\r\n"),
          ),
        ),
        ([d, o, shape, indent, eol]) => {
          const value = jsonValue(d, shape);
          const layout = (v: unknown): string =>
            indent === "one-per-line" && Array.isArray(v)
              ? `[\n${v.map((r) => `  ${JSON.stringify(r).replace(/,/g, ", ").replace(/":/g, '": ')}`).join(",\n")}\n]`
              : JSON.stringify(v, null, indent === "one-per-line" ? 0 : indent);
          const wrap = (json: string): string => `# Data\n\n::dataset{id="d" format="json"}\n${json}\n::\n\nAfter [[d]].\n`.replace(/\n/g, eol);
          const src = wrap(layout(value));
          const out = applyPatch(src, [{ ...o, id: "d" }]);
          if (shape === "rows" && (("column" in o && typeof o.column === "string") || o.op === "insert_dataset_column")) {
            // An array of rows without a header row names no columns: labels are invalid_content,
            // and a new column's header has nowhere to go (issue 38).
            expect(out.error?.code).toBe("invalid_content");
            return;
          }
          if (out.error !== undefined) throw new Error(`${JSON.stringify(o)} on ${shape}: ${out.error.message}\n${src}`);
          const e = expectedData(d, o);
          let want = jsonValue(e, shape);
          if (shape === "typed-table") want = { columns: typedColumnsFor(d, o), rows: e.rows };
          expect(JSON.parse(body(out.text))).toEqual(want);
          expect(out.text.startsWith(wrap("").split("::dataset")[0]!)).toBe(true);
          expect(out.text.endsWith(`::${eol}${eol}After [[d]].${eol}`)).toBe(true);
          // A body JSON.stringify wrote is what JSON.stringify writes for the new data (rows kept non-empty).
          if (typeof indent === "number" && e.rows.length > 0) {
            expect(out.text).toBe(wrap(JSON.stringify(want, null, indent)));
            exact++;
          }
        },
      ),
      { numRuns: 400 },
    );
    expect(exact).toBeGreaterThan(100);
  });

  type YamlShape = "flow" | "flow-map" | "block-map" | "block-seq" | "block-map-below";
  const cellYaml = (v: V): string => (v === null ? "null" : String(v));
  const yamlBody = (d: Data, shape: YamlShape, schema: boolean): string => {
    const lines: string[] = [];
    if (schema) lines.push("schema:", ...d.columns.map((c, i) => `  ${c}: ${i === 1 ? "number" : "string"}`));
    lines.push("rows:");
    for (const r of d.rows) {
      if (shape === "flow") lines.push(`  - [${r.map(cellYaml).join(", ")}]`);
      else if (shape === "flow-map") lines.push(`  - {${d.columns.map((c, i) => `${c}: ${cellYaml(r[i] ?? null)}`).join(", ")}}`);
      else if (shape === "block-map") lines.push(...d.columns.map((c, i) => `${i === 0 ? "  - " : "    "}${c}: ${cellYaml(r[i] ?? null)}`));
      else if (shape === "block-map-below") lines.push("  -", ...d.columns.map((c, i) => `    ${c}: ${cellYaml(r[i] ?? null)}`));
      else lines.push(...r.map((v, i) => `${i === 0 ? "  - - " : "    - "}${cellYaml(v)}`));
    }
    return lines.join("\n");
  };

  it("YAML: every op gives the data it describes, in the rows' own shape", () => {
    fc.assert(
      fc.property(
        dataArb.chain((d) =>
          fc.tuple(fc.constant(d), opArb(d), fc.constantFrom<YamlShape>("flow", "flow-map", "block-map", "block-seq", "block-map-below"), fc.boolean()),
        ),
        ([d, o, shape, schema]) => {
          const maps = shape === "flow-map" || shape === "block-map" || shape === "block-map-below";
          // Without schema or keys, columns have no labels.
          const src = `::dataset{id="d"}\n${yamlBody(d, shape, schema)}\n::\n`;
          const out = applyPatch(src, [{ ...o, id: "d" }]);
          // Without schema or keys there are no column names: no label, and nowhere for a new header.
          if (!schema && !maps && (("column" in o && typeof o.column === "string") || o.op === "insert_dataset_column")) {
            expect(out.error?.code).toBe("invalid_content");
            return;
          }
          if (out.error !== undefined) throw new Error(`${JSON.stringify(o)} on ${shape}: ${out.error.message}\n${src}`);
          const e = expectedData(d, o);
          const data = parseYaml(body(out.text)) as { rows: unknown[]; schema?: Record<string, string> };
          const want = maps ? e.rows.map((r) => Object.fromEntries(e.columns.map((c, i) => [c, r[i] ?? null]))) : e.rows;
          // A new list row of a list-shaped body holds every column; pad the expected rows like the ops do.
          expect(data.rows ?? []).toEqual(want);
          if (schema) expect(Object.keys(data.schema!)).toEqual(e.columns);
          // Every row keeps the shape the body had.
          const rowLines = body(out.text)
            .split("\n")
            .filter((l) => /^ {2}-/.test(l));
          for (const l of rowLines) {
            if (shape === "flow") expect(l).toMatch(/^ {2}- \[.*\]$/);
            if (shape === "flow-map") expect(l).toMatch(/^ {2}- \{.*\}$/);
            if (shape === "block-map") expect(l).toMatch(/^ {2}- \w+: /);
            if (shape === "block-seq") expect(l).toMatch(/^ {2}- - /);
            if (shape === "block-map-below") expect(l).toBe("  -");
          }
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("YAML rows that are not one-line flow arrays", () => {
  const MAPS =
    '::dataset{id="d"}\nschema:\n  vertical: string\n  growth: number\nrows:\n  - vertical: legal\n    growth: 3.4\n  - vertical: healthcare\n    growth: 2.9\n::\n';

  it("block maps: one line changes, a new row copies the shape, a first key moves onto the dash line", () => {
    expect(ok(MAPS, { op: "update_dataset_cell", id: "d", row: 0, column: "growth", value: "3.8" })).toBe(MAPS.replace("growth: 3.4", "growth: 3.8"));
    expect(ok(MAPS, { op: "insert_dataset_row", id: "d", row: 2, cells: ["retail", "1.5"] })).toBe(
      MAPS.replace("growth: 2.9\n", "growth: 2.9\n  - vertical: retail\n    growth: 1.5\n"),
    );
    expect(ok(MAPS, { op: "delete_dataset_column", id: "d", column: "vertical" })).toBe(
      '::dataset{id="d"}\nschema:\n  growth: number\nrows:\n  - growth: 3.4\n  - growth: 2.9\n::\n',
    );
    expect(ok(MAPS, { op: "insert_dataset_column", id: "d", column: 0, header: "rank", cells: ["1", "2"] })).toBe(
      '::dataset{id="d"}\nschema:\n  rank: number\n  vertical: string\n  growth: number\nrows:\n  - rank: 1\n    vertical: legal\n    growth: 3.4\n  - rank: 2\n    vertical: healthcare\n    growth: 2.9\n::\n',
    );
    expect(applyPatch(MAPS, [{ op: "update_dataset_cell", id: "d", row: 1, column: 1, value: 2.9 }]).result).toBe("noop");
  });

  it("a body that is only the list of rows (no rows: key)", () => {
    const src = '::dataset{id="d"}\n- name: ana\n  n: 1\n- name: bo\n  n: 2\n::\n';
    expect(ok(src, { op: "update_dataset_cell", id: "d", row: 1, column: "n", value: "5" })).toBe(src.replace("n: 2", "n: 5"));
    expect(ok(src, { op: "insert_dataset_row", id: "d", row: 0, cells: ["cy", 3] })).toBe(src.replace("- name: ana", "- name: cy\n  n: 3\n- name: ana"));
    expect(ok('::dataset{id="d"}\n- [a, 1]\n::\n', { op: "delete_dataset_row", id: "d", row: 0 })).toBe('::dataset{id="d"}\n::\n');
  });

  it("block lists and comments", () => {
    const src = '::dataset{id="d"}\nrows:\n  # legal first\n  - - legal\n    - 3.4 # estimate\n::\n';
    expect(ok(src, { op: "update_dataset_cell", id: "d", row: 0, column: 1, value: "3.8" })).toBe(src.replace("- 3.4 # estimate", "- 3.8 # estimate"));
    expect(ok(src, { op: "insert_dataset_row", id: "d", row: 0, cells: ["retail", "1"] })).toBe(
      src.replace("  - - legal", "  - - retail\n    - 1\n  - - legal"),
    );
  });

  it("refuses what it cannot edit in place: multi-line values, nested structures", () => {
    const code = (rows: string): string | undefined =>
      applyPatch(`::dataset{id="d"}\nrows:\n${rows}\n::\n`, [{ op: "delete_dataset_row", id: "d", row: 0 }]).error?.code;
    expect(code("  - note: |\n      long\n      text")).toBe("invalid_content");
    expect(code("  - name: ana\n    tags:\n      - a")).toBe("invalid_content");
    expect(code("  - [a,\n     b]")).toBe("invalid_content");
    expect(code("  - just a value")).toBe("invalid_content");
  });
});

describe("CSV", () => {
  it("keeps a space after each comma and quotes by the §B rule", () => {
    const src = '::dataset{id="d" format="csv"}\nname, n\nana, 1\n"bo, jr", 2\n::\n';
    expect(ok(src, { op: "update_dataset_cell", id: "d", row: 0, column: "n", value: 5 })).toBe(src.replace("ana, 1", "ana, 5"));
    expect(ok(src, { op: "insert_dataset_row", id: "d", row: 2, cells: ['say "hi"', " x"] })).toBe(
      src.replace('"bo, jr", 2\n', '"bo, jr", 2\n"say ""hi""", " x"\n'),
    );
    expect(ok(src, { op: "insert_dataset_column", id: "d", column: 1, header: "k", cells: ["a"] })).toBe(
      '::dataset{id="d" format="csv"}\nname, k, n\nana, a, 1\n"bo, jr", , 2\n::\n',
    );
    expect(applyPatch(src, [{ op: "update_dataset_cell", id: "d", row: 1, column: 0, value: "bo, jr" }]).result).toBe("noop");
  });
});
