/**
 * Issue 38.1: the four classes of op results that differed from the reference, each with
 * differential cases of our own (the expected text written from the protocol and the
 * issue's account of what the reference writes):
 * - add_change_request writes `content` as the block's body; no field of an op is ever left
 *   out silently (an unknown field is refused naming it);
 * - JSON datasets coerce a value by what the column holds (numbers, booleans); an array of
 *   rows whose first row is all text has that row as its header; a column insert into an
 *   array of rows with no header row is refused (invalid_content);
 * - CSV/TSV lines keep their indentation, and new rows take their neighbour's;
 * - YAML text is written plain where the source writes it plain (`[financial audit, 4.1]`),
 *   quoted only when a reader would read it back as something else, in the body's style.
 */
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { applyOk as ok, applyRejected as rejected } from "../helpers/apply-one.js";

const CLAIM = '# T\n\n::claim{id="c"}\nThe SLA is 99.9%.\n::\n\nAfter.\n';

describe("add_change_request: every field written", () => {
  it("writes content as the block's body, after the attributes", () => {
    const out = ok(CLAIM, {
      op: "add_change_request",
      target: "c",
      id: "cr1",
      action: "replace",
      from: "99.9%",
      to: "99.95%",
      content: "The contract changed.",
    });
    expect(out).toBe(
      '# T\n\n::claim{id="c"}\nThe SLA is 99.9%.\n::\n\n::change_request{id="cr1" target="c" action="replace" from="99.9%" to="99.95%"}\nThe contract changed.\n::\n\nAfter.\n',
    );
  });

  it("a content of several lines is the body line for line; without content the block has no body", () => {
    const two = ok(CLAIM, { op: "add_change_request", target: "c", id: "cr2", action: "delete", content: "First reason.\nSecond reason." });
    expect(two).toContain('::change_request{id="cr2" target="c" action="delete"}\nFirst reason.\nSecond reason.\n::\n');
    const none = ok(CLAIM, { op: "add_change_request", target: "c", id: "cr3", action: "insert", text: "new" });
    expect(none).toContain('::change_request{id="cr3" target="c" action="insert" text="new"}\n::\n');
  });

  it("a field the op does not take is refused naming it, never dropped", () => {
    const out = applyPatch(CLAIM, [{ op: "add_change_request", target: "c", id: "cr4", action: "insert", rationale: "why" }]);
    expect(out.error?.code).toBe("invalid_content");
    expect(out.error?.message).toBe(
      'Malformed add_change_request op: add_change_request has no field "rationale"; it takes id, target, action, from, to, text, author, date, content, baseHash (an op is never applied with a field left out).',
    );
    expect(out.text).toBe(CLAIM);
    const request = applyPatch(CLAIM, [{ op: "add_comment", target: "c", id: "k", content: "x", expected_sha: "abc" }]);
    expect(request.error?.message).toContain(
      'add_comment has no field "expected_sha" ("expected_sha" belongs to the patch request, beside the ops, not inside an op)',
    );
    const typo = applyPatch(CLAIM, [{ op: "add_comment", target: "c", id: "k", contnt: "x" }]);
    expect(typo.error?.message).toContain('add_comment has no field "contnt" (did you mean "content"?)');
  });

  it("a header given to a table without a header row is refused naming the field", () => {
    const table = '::table{id="t"}\n| a | b |\n::\n';
    expect(rejected(table, { op: "insert_table_column", id: "t", column: 1, header: "h" })).toBe("invalid_content");
    expect(applyPatch(table, [{ op: "insert_table_column", id: "t", column: 1, header: "h" }]).error?.message).toMatch(/^header: table "t" has no header row/);
    expect(ok(table, { op: "insert_table_column", id: "t", column: 1 })).toBe('::table{id="t"}\n| a |  | b |\n::\n');
  });
});

describe("JSON datasets: values as the column holds them", () => {
  const HEADED = '::dataset{id="d" format="json"}\n[\n  ["name", "value", "ok"],\n  ["a", 1, true],\n  ["b", 2, false]\n]\n::\n';
  const rows = (...r: string[]): string => `::dataset{id="d" format="json"}\n[\n  ["name", "value", "ok"],\n${r.map((x) => `  ${x}`).join(",\n")}\n]\n::\n`;

  it("a number given as text into a column of numbers is written as a number; a boolean as a boolean", () => {
    expect(ok(HEADED, { op: "update_dataset_cell", id: "d", row: 1, column: "value", value: "42" })).toBe(rows('["a", 1, true]', '["b", 42, false]'));
    expect(ok(HEADED, { op: "update_dataset_cell", id: "d", row: 0, column: 2, value: "false" })).toBe(rows('["a", 1, false]', '["b", 2, false]'));
    expect(ok(HEADED, { op: "insert_dataset_row", id: "d", row: 1, cells: ["c", "3.5", "true"] })).toBe(
      rows('["a", 1, true]', '["c", 3.5, true]', '["b", 2, false]'),
    );
  });

  it("records coerce the same way; text into a column of text stays text even when it looks like a number", () => {
    const records = '::dataset{id="d" format="json"}\n[\n  {"k": "a", "v": 1, "on": false},\n  {"k": "b", "v": 2, "on": true}\n]\n::\n';
    expect(ok(records, { op: "update_dataset_cell", id: "d", row: 0, column: "v", value: "42" })).toBe(records.replace('"v": 1', '"v": 42'));
    expect(ok(records, { op: "update_dataset_cell", id: "d", row: 1, column: "on", value: "false" })).toBe(records.replace('"on": true', '"on": false'));
    expect(ok(records, { op: "update_dataset_cell", id: "d", row: 0, column: "k", value: "7" })).toBe(records.replace('"k": "a"', '"k": "7"'));
  });

  it("the header row names the columns: labels address them, column ops edit it, row indexes count the rows after it", () => {
    expect(ok(HEADED, { op: "insert_dataset_column", id: "d", column: 1, header: "w", cells: ["1.5", "2"] })).toBe(
      '::dataset{id="d" format="json"}\n[\n  ["name", "w", "value", "ok"],\n  ["a", 1.5, 1, true],\n  ["b", 2, 2, false]\n]\n::\n',
    );
    expect(ok(HEADED, { op: "delete_dataset_column", id: "d", column: "value" })).toBe(
      '::dataset{id="d" format="json"}\n[\n  ["name", "ok"],\n  ["a", true],\n  ["b", false]\n]\n::\n',
    );
    expect(ok(HEADED, { op: "delete_dataset_row", id: "d", row: 0 })).toBe(
      '::dataset{id="d" format="json"}\n[\n  ["name", "value", "ok"],\n  ["b", 2, false]\n]\n::\n',
    );
  });

  it("a column insert into an array of rows with no header row, or a type where no column has one, is invalid_content naming the field", () => {
    const bare = '::dataset{id="d" format="json"}\n[[1, 2], [3, 4]]\n::\n';
    expect(rejected(bare, { op: "insert_dataset_column", id: "d", column: 1, header: "w" })).toBe("invalid_content");
    expect(applyPatch(bare, [{ op: "insert_dataset_column", id: "d", column: 1, header: "w" }]).error?.message).toMatch(
      /^header: dataset "d" names no columns/,
    );
    expect(rejected(HEADED, { op: "insert_dataset_column", id: "d", column: 1, header: "w", type: "number" })).toBe("invalid_content");
    expect(applyPatch(HEADED, [{ op: "insert_dataset_column", id: "d", column: 1, header: "w", type: "number" }]).error?.message).toMatch(
      /^type: dataset "d" declares no column types \(its header row holds names only\)/,
    );
    // Cells of a headerless array are still edited by number.
    expect(ok(bare, { op: "update_dataset_cell", id: "d", row: 1, column: 0, value: "30" })).toBe('::dataset{id="d" format="json"}\n[[1, 2], [30, 4]]\n::\n');
  });
});

describe("CSV and TSV: lines keep their indentation", () => {
  const CSV = '::dataset{id="d" format="csv"}\n  flag,name,n\n  true,a,1\n  false,b,2\n::\n';

  it("a new row takes its neighbour's indentation, padded to the width", () => {
    expect(ok(CSV, { op: "insert_dataset_row", id: "d", row: 2, cells: [true] })).toBe(CSV.replace("  false,b,2\n", "  false,b,2\n  true,,\n"));
    expect(ok(CSV, { op: "insert_dataset_row", id: "d", row: 0, cells: ["false", "z", "9"] })).toBe(CSV.replace("  true,a,1\n", "  false,z,9\n  true,a,1\n"));
  });

  it("rewritten lines keep theirs: a cell edit, a column insert and delete", () => {
    expect(ok(CSV, { op: "update_dataset_cell", id: "d", row: 0, column: "name", value: "a, b" })).toBe(CSV.replace("  true,a,1", '  true,"a, b",1'));
    expect(ok(CSV, { op: "insert_dataset_column", id: "d", column: 3, header: "w", cells: ["x", "y"] })).toBe(
      '::dataset{id="d" format="csv"}\n  flag,name,n,w\n  true,a,1,x\n  false,b,2,y\n::\n',
    );
    expect(ok(CSV, { op: "delete_dataset_column", id: "d", column: 0 })).toBe('::dataset{id="d" format="csv"}\n  name,n\n  a,1\n  b,2\n::\n');
  });

  it("TSV rows indented by spaces, and a CSV with rows indented differently from its header", () => {
    const tsv = '::dataset{id="d" format="tsv"}\n    a\tb\n    1\t2\n::\n';
    expect(ok(tsv, { op: "insert_dataset_row", id: "d", row: 1, cells: ["3", "4"] })).toBe(
      '::dataset{id="d" format="tsv"}\n    a\tb\n    1\t2\n    3\t4\n::\n',
    );
    const mixed = '::dataset{id="d" format="csv"}\nk,v\n    a,1\n::\n';
    expect(ok(mixed, { op: "insert_dataset_row", id: "d", row: 0, cells: ["b", "2"] })).toBe('::dataset{id="d" format="csv"}\nk,v\n    b,2\n    a,1\n::\n');
    // A headed CSV with no rows yet: the new row takes the header's indentation.
    const empty = '::dataset{id="d" format="csv"}\n  k,v\n::\n';
    expect(ok(empty, { op: "insert_dataset_row", id: "d", row: 0, cells: ["a", "1"] })).toBe('::dataset{id="d" format="csv"}\n  k,v\n  a,1\n::\n');
  });
});

describe("YAML: text written as the source writes it", () => {
  const FLOW = '::dataset{id="d"}\nschema:\n  track: string\n  score: number\nrows:\n  - [financial audit, 4.1]\n  - [legal review, 3.2]\n::\n';
  const data = (text: string): unknown => {
    const lines = text.split("\n");
    return parseYaml(lines.slice(lines.indexOf('::dataset{id="d"}') + 1, lines.lastIndexOf("::")).join("\n"));
  };

  it("a new row of plain text is plain: [risk register, 2.5], not quoted", () => {
    expect(ok(FLOW, { op: "insert_dataset_row", id: "d", row: 2, cells: ["risk register", "2.5"] })).toBe(
      FLOW.replace("  - [legal review, 3.2]\n", "  - [legal review, 3.2]\n  - [risk register, 2.5]\n"),
    );
    expect(ok(FLOW, { op: "update_dataset_cell", id: "d", row: 0, column: "track", value: 'it\'s "fine"' })).toBe(
      FLOW.replace("[financial audit", `[it's "fine"`),
    );
  });

  it("text a reader would take for something else is quoted, and reads back as the text", () => {
    for (const [value, written] of [
      ["yes", '"yes"'],
      ["10:30", '"10:30"'],
      ["2024-01-02", '"2024-01-02"'],
      ["a, b", '"a, b"'],
      ["null", '"null"'],
      ["42", '"42"'],
      ["key: value", '"key: value"'],
      ["# not a comment", '"# not a comment"'],
    ] as const) {
      const out = ok(FLOW, { op: "update_dataset_cell", id: "d", row: 0, column: "track", value });
      expect(out).toBe(FLOW.replace("[financial audit", `[${written}`));
      expect((data(out) as { rows: unknown[][] }).rows[0]).toEqual([value, 4.1]);
    }
  });

  it("a body that quotes its text in single quotes gets single quotes; a new column's header and cells follow the same rules", () => {
    const single = FLOW.replace("[financial audit", "['financial audit'").replace("[legal review", "['legal review'");
    expect(ok(single, { op: "insert_dataset_row", id: "d", row: 2, cells: ["it's", "1"] })).toBe(single.replace("3.2]\n", "3.2]\n  - ['it''s', 1]\n"));
    const col = ok(FLOW, { op: "insert_dataset_column", id: "d", column: 2, header: "owner name", type: "string", cells: ["ana lee", "2024-01-02"] });
    expect(col).toBe(
      '::dataset{id="d"}\nschema:\n  track: string\n  score: number\n  owner name: string\nrows:\n  - [financial audit, 4.1, ana lee]\n  - [legal review, 3.2, "2024-01-02"]\n::\n',
    );
    expect(data(col)).toEqual({
      schema: { track: "string", score: "number", "owner name": "string" },
      rows: [
        ["financial audit", 4.1, "ana lee"],
        ["legal review", 3.2, "2024-01-02"],
      ],
    });
  });

  it("a flow map keeps its plain text, and a quote inside plain text is text, not the start of a quoted scalar", () => {
    const map = '::dataset{id="d"}\nrows:\n  - {name: it\'s here, n: 1}\n  - {name: bo, n: 2}\n::\n';
    expect(ok(map, { op: "update_dataset_cell", id: "d", row: 0, column: "n", value: 5 })).toBe(map.replace("n: 1}", "n: 5}"));
    expect(ok(map, { op: "insert_dataset_row", id: "d", row: 2, cells: ["cy dee", 3] })).toBe(map.replace("n: 2}\n", "n: 2}\n  - {name: cy dee, n: 3}\n"));
  });

  it("a type given where the body declares no types is refused naming the field", () => {
    const names = '::dataset{id="d"}\ncolumns: [a, b]\nrows:\n  - [x, 1]\n::\n';
    expect(rejected(names, { op: "insert_dataset_column", id: "d", column: 1, header: "c", type: "number" })).toBe("invalid_content");
    expect(applyPatch(names, [{ op: "insert_dataset_column", id: "d", column: 1, header: "c", type: "number" }]).error?.message).toMatch(
      /^type: dataset "d" declares no column types \(its columns: list holds names only\)/,
    );
  });
});
