/**
 * Issue 38.1's property: every dataset op on a generated JSON, YAML or CSV dataset gives a
 * body that parses back (JSON.parse, the yaml package, an RFC 4180 reader) to the table the
 * op describes, and every line the op does not need to touch is byte-identical (line endings
 * included). The cells written hold text a format could mistake: commas, quotes, `: `, `#`,
 * words YAML reads as booleans or null, numbers given as text, dates and times.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { applyPatch } from "../../src/patch/apply-patch.js";

type V = string | number | boolean | null;
interface Table {
  columns: string[];
  rows: V[][];
}

/** Text a cell may be given: every one of them must read back as this same text. */
const TEXT = ["zed", "financial audit", "a, b", 'say "hi"', "it's", "yes", "null", "42", "10:30", "2024-01-02", "key: value", "# tag", "[x]", "é ü", "x #y"];
const NAMES = ["ana", "bo lee", "financial audit", "cy"];

/** The source table: name (text), n (numbers), ok (booleans). */
const tableArb: fc.Arbitrary<Table> = fc
  .array(fc.tuple(fc.constantFrom(...NAMES), fc.integer({ min: -5, max: 99 }), fc.boolean()), { minLength: 1, maxLength: 4 })
  .map((rows) => ({ columns: ["name", "n", "ok"], rows }));

type Op =
  | { op: "update_dataset_cell"; row: number; column: number | string; value: V }
  | { op: "insert_dataset_row"; row: number; cells: V[] }
  | { op: "delete_dataset_row"; row: number }
  | { op: "insert_dataset_column"; column: number; header: string; cells: V[] }
  | { op: "delete_dataset_column"; column: number | string };

function opArb(t: Table): fc.Arbitrary<Op> {
  const n = t.rows.length;
  const col = fc.oneof(fc.nat(2), fc.constantFrom(...t.columns));
  const index = (c: number | string): number => (typeof c === "number" ? c : t.columns.indexOf(c));
  const valueFor = (c: number): fc.Arbitrary<V> =>
    c === 0
      ? fc.constantFrom(...TEXT)
      : c === 1
        ? fc.oneof(fc.integer({ min: -9, max: 999 }), fc.constantFrom("7", "3.5", "-2"))
        : fc.constantFrom<V>(true, false, "true", "false");
  return fc.oneof(
    fc.tuple(fc.nat(n - 1), col).chain(([row, column]) => valueFor(index(column)).map((value): Op => ({ op: "update_dataset_cell", row, column, value }))),
    fc
      .tuple(fc.nat(n), fc.nat(3))
      .chain(([row, k]) => fc.tuple(valueFor(0), valueFor(1), valueFor(2)).map((cells): Op => ({ op: "insert_dataset_row", row, cells: cells.slice(0, k) }))),
    fc.nat(n - 1).map((row): Op => ({ op: "delete_dataset_row", row })),
    fc
      .tuple(fc.nat(3), fc.constantFrom("x", "owner name"), fc.boolean(), fc.nat(n))
      .chain(([column, header, numeric, k]) =>
        fc
          .array(numeric ? fc.constantFrom("1", "2.5", "40") : fc.constantFrom(...TEXT.filter((s) => !/^-?[0-9.]+$/.test(s))), { minLength: k, maxLength: k })
          .map((cells): Op => ({ op: "insert_dataset_column", column, header, cells })),
      ),
    col.map((column): Op => ({ op: "delete_dataset_column", column })),
  );
}

/** The table the op describes, each value as JSON and YAML hold it (the column's kind decides). */
function expected(t: Table, o: Op): Table {
  const columns = [...t.columns];
  const rows = t.rows.map((r) => [...r]);
  const ci = (c: number | string): number => (typeof c === "number" ? c : columns.indexOf(c));
  const coerce = (c: number, v: V): V => (v === null ? null : c === 1 ? Number(v) : c === 2 ? v === true || v === "true" : v);
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
      const numeric = o.cells.length > 0 && o.cells.every((v) => /^-?[0-9.]+$/.test(String(v)));
      columns.splice(o.column, 0, o.header);
      // A row given no cell gets the empty text (as insert_table_column gives it).
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

// ---- layouts ----------------------------------------------------------------

type Layout = "json-records" | "json-header" | "yaml-flow" | "yaml-flow-map" | "csv";
type Quote = "plain" | "double" | "single";

interface Source {
  /** The body's lines. */
  lines: string[];
  /** Index in `lines` of each row's line. */
  rowLines: number[];
  /** Lines a column op rewrites besides the rows (the header, the schema). */
  headerLines: number[];
  /** Lines a column op adds (+1) or removes (-1) besides editing: a schema line. */
  columnDelta: number;
  /** The rows are items of a JSON array (a comma joins a row to the one before it). */
  json: boolean;
}

const csvCell = (s: string): string => (/[,"]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const yamlText = (s: string, q: Quote): string => (q === "double" ? JSON.stringify(s) : q === "single" ? `'${s.replace(/'/g, "''")}'` : s);

function source(t: Table, layout: Layout, opts: { quote: Quote; indent: string; spaced: boolean }): Source {
  const lines: string[] = [];
  const rowLines: number[] = [];
  const headerLines: number[] = [];
  let columnDelta = 0;
  if (layout === "json-records" || layout === "json-header") {
    lines.push("[");
    if (layout === "json-header") {
      headerLines.push(lines.length);
      lines.push(`  ${JSON.stringify(t.columns).replace(/,/g, ", ")}${t.rows.length > 0 ? "," : ""}`);
    }
    t.rows.forEach((r, i) => {
      rowLines.push(lines.length);
      const value = layout === "json-header" ? r : Object.fromEntries(t.columns.map((c, k) => [c, r[k]]));
      lines.push(
        `  ${JSON.stringify(value)
          .replace(/,"/g, ', "')
          .replace(/,(?=[-0-9tfn])/g, ", ")
          .replace(/":/g, '": ')}${i < t.rows.length - 1 ? "," : ""}`,
      );
    });
    lines.push("]");
  } else if (layout === "yaml-flow" || layout === "yaml-flow-map") {
    const cell = (v: V): string => (typeof v === "string" ? yamlText(v, opts.quote) : String(v));
    if (layout === "yaml-flow") {
      lines.push("schema:");
      t.columns.forEach((c, i) => {
        headerLines.push(lines.length);
        lines.push(`  ${c}: ${["string", "number", "boolean"][i]}`);
      });
      columnDelta = 1;
    }
    lines.push("rows:");
    for (const r of t.rows) {
      rowLines.push(lines.length);
      lines.push(layout === "yaml-flow" ? `  - [${r.map(cell).join(", ")}]` : `  - {${t.columns.map((c, k) => `${c}: ${cell(r[k]!)}`).join(", ")}}`);
    }
  } else {
    const join = (cells: string[]): string => opts.indent + cells.map(csvCell).join(opts.spaced ? ", " : ",");
    headerLines.push(0);
    lines.push(join(t.columns));
    for (const r of t.rows) {
      rowLines.push(lines.length);
      lines.push(join(r.map((v) => String(v))));
    }
  }
  return { lines, rowLines, headerLines, columnDelta, json: layout.startsWith("json") };
}

// ---- reading back -------------------------------------------------------------

/** One CSV line's cells (RFC 4180 quoting; with `spaced`, the space after each comma is not part of the cell). */
function readCsvLine(line: string, spaced: boolean): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (spaced && cells.length > 0 && line[i] === " ") i++;
    let cell = "";
    if (line[i] === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`unterminated quote in ${line}`);
        if (line[i] === '"' && line[i + 1] === '"') (cell += '"'), (i += 2);
        else if (line[i] === '"') {
          i++;
          break;
        } else cell += line[i++];
      }
    } else while (i < line.length && line[i] !== ",") cell += line[i++];
    cells.push(cell);
    if (i >= line.length) return cells;
    if (line[i] !== ",") throw new Error(`text after a quoted cell in ${line}`);
    i++;
  }
}

/** The table a body holds. */
function readBack(layout: Layout, body: string, opts: { indent: string; spaced: boolean }): Table {
  if (layout === "json-records") {
    const records = JSON.parse(body) as Array<Record<string, V>>;
    const columns = Object.keys(records[0] ?? {});
    return { columns, rows: records.map((r) => columns.map((c) => (c in r ? r[c]! : "<missing>"))) };
  }
  if (layout === "json-header") {
    const [columns, ...rows] = JSON.parse(body) as V[][];
    return { columns: columns as string[], rows };
  }
  if (layout === "yaml-flow") {
    const data = parseYaml(body) as { schema: Record<string, string>; rows: V[][] | null };
    return { columns: Object.keys(data.schema), rows: data.rows ?? [] };
  }
  if (layout === "yaml-flow-map") {
    const data = parseYaml(body) as { rows: Array<Record<string, V>> | null };
    const rows = data.rows ?? [];
    const columns = Object.keys(rows[0] ?? {});
    return { columns, rows: rows.map((r) => columns.map((c) => (c in r ? r[c]! : "<missing>"))) };
  }
  const lines = body.split("\n").map((l) => l.replace(/\r$/, ""));
  for (const l of lines) expect(l.startsWith(opts.indent) && !/^\s/.test(l.slice(opts.indent.length)), `indentation of ${JSON.stringify(l)}`).toBe(true);
  const [head, ...rows] = lines.map((l) => readCsvLine(l.slice(opts.indent.length), opts.spaced));
  return { columns: head!, rows };
}

/** A table as CSV holds it: every value text, null as the empty cell. */
const asText = (t: Table): Table => ({ columns: t.columns, rows: t.rows.map((r) => r.map((v) => (v === null ? "" : String(v)))) });

/** Whether `small`'s lines appear in `big` in order (each line whole, its `\r` included). */
function isSubsequence(small: readonly string[], big: readonly string[]): boolean {
  let j = 0;
  for (const line of big) if (j < small.length && line === small[j]) j++;
  return j === small.length;
}

describe("dataset ops: the table they describe, and no other line touched", () => {
  it("JSON, YAML and CSV: the body parses back to the intended table; every untouched line is byte-identical", () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        tableArb.chain((t) =>
          fc.tuple(
            fc.constant(t),
            opArb(t),
            fc.constantFrom<Layout>("json-records", "json-header", "yaml-flow", "yaml-flow-map", "csv"),
            fc.record({ quote: fc.constantFrom<Quote>("plain", "double", "single"), indent: fc.constantFrom("", "  "), spaced: fc.boolean() }),
            fc.constantFrom("\n", "\r\n"),
          ),
        ),
        ([t, o, layout, opts, eol]) => {
          const src = source(t, layout, opts);
          const format = layout.startsWith("json") ? ' format="json"' : layout === "csv" ? ' format="csv"' : "";
          const before = ["# Data", "", "Intro [[d]].", "", `::dataset{id="d"${format}}`];
          const after = ["::", "", "After."];
          const text = [...before, ...src.lines, ...after, ""].join(eol);
          const out = applyPatch(text, [{ ...o, id: "d" }]);
          if (out.error !== undefined) throw new Error(`${JSON.stringify(o)} on ${layout}: ${out.error.code} ${out.error.message}\n${text}`);
          seen.add(`${layout} ${o.op}`);

          // The lines of the whole document, each with its \r.
          const srcLines = text.split("\n");
          const outLines = out.text.split("\n");
          expect(outLines.slice(0, before.length)).toEqual(srcLines.slice(0, before.length));
          expect(outLines.slice(-after.length - 1)).toEqual(srcLines.slice(-after.length - 1));
          const bodyOut = outLines.slice(before.length, outLines.length - after.length - 1);
          const bodySrc = srcLines.slice(before.length, srcLines.length - after.length - 1);
          const body = bodyOut.join("\n").replace(/\r$/, "");

          // The table the body holds.
          const want = expected(t, o);
          const got = readBack(layout, body, opts);
          if (layout === "csv") expect(got).toEqual(asText(want));
          else if (want.rows.length === 0 && (layout === "json-records" || layout === "yaml-flow-map")) expect(got.rows).toEqual([]);
          else expect(got).toEqual(want);

          // The lines the op may touch (indexes into the body), and how many lines it adds.
          const n = t.rows.length;
          const touched = new Set<number>();
          let delta = 0;
          if (o.op === "update_dataset_cell") touched.add(src.rowLines[o.row]!);
          else if (o.op === "insert_dataset_row") {
            delta = 1;
            // A row appended to a JSON array puts a comma after the row before it.
            if (src.json && o.row === n) touched.add(src.rowLines[n - 1]!);
          } else if (o.op === "delete_dataset_row") {
            delta = -1;
            touched.add(src.rowLines[o.row]!);
            if (src.json && o.row === n - 1 && n > 1) touched.add(src.rowLines[n - 2]!);
            // The last row of a JSON array: the comma after the header row goes with it.
            if (src.json && n === 1) {
              for (const h of src.headerLines) touched.add(h);
              if (layout === "json-records") touched.add(0), touched.add(src.lines.length - 1), (delta = -2);
            }
          } else {
            for (const l of [...src.headerLines, ...src.rowLines]) touched.add(l);
            delta = o.op === "insert_dataset_column" ? src.columnDelta : -src.columnDelta;
          }
          expect(bodyOut.length).toBe(src.lines.length + delta);
          expect(
            isSubsequence(
              bodySrc.filter((_, i) => !touched.has(i)),
              bodyOut,
            ),
          ).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
    // Every op ran on every layout.
    expect(seen.size).toBe(25);
  });
});
