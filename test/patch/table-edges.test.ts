/**
 * Issue 15 item 4: table ops on a one-column ::table, update_heading on a directive, and a
 * cell rewritten to the text it has.
 * - One column: not a table by the grammar (issue 27 revised issue 15's answer): every op on
 *   it is invalid_content, as the reference answers.
 * - update_heading on a directive: invalid_content, the reference's answer (issue 27; §3.5's
 *   target_missing is for an id that does not exist or resolves to a non-directive node).
 * - update_table_cell / update_table_header_cell to the same text: noop (nothing written,
 *   recorded as noop), like update_attribute to the same value.
 */
import { describe, expect, it } from "vitest";
import { applyPatch } from "../../src/patch/apply-patch.js";

function ok(src: string, ops: unknown[]): string {
  const out = applyPatch(src, ops);
  if (out.error !== undefined) throw new Error(`expected success, got ${out.error.code}: ${out.error.message}`);
  expect(applyPatch(src, ops, { reuse: false }).text).toBe(out.text);
  return out.text;
}

function code(src: string, op: unknown): string | undefined {
  const out = applyPatch(src, [op]);
  if (out.result !== "rejected") return out.result;
  expect(out.text).toBe(src);
  return out.error!.code;
}

const BARE = '::table{id="t" header}\nName\nAna\n-\nBo\n::\n';
const PIPED = '::table{id="t" header}\n| Name |\n| --- |\n| Ana |\n| - |\n| Bo |\n::\n';

describe("one-column tables", () => {
  // By the table grammar a table has at least two columns (a separator row needs two
  // cells): the reference answers invalid_content to the ops on one column (issue 27).
  it("every table op on one column is invalid_content, the document untouched", () => {
    for (const src of [BARE, PIPED]) {
      for (const op of [
        { op: "update_table_cell", id: "t", row: 0, column: 0, value: "Cy" },
        { op: "update_table_header_cell", id: "t", column: 0, value: "Who" },
        { op: "insert_table_row", id: "t", row: 0, cells: ["Cy"] },
        { op: "delete_table_row", id: "t", row: 0 },
        { op: "insert_table_column", id: "t", column: 1, header: "N", cells: ["1", "2", "3"] },
        { op: "delete_table_column", id: "t", column: 0 },
        { op: "delete_table_column", id: "t", column: "Name" },
      ]) {
        expect(code(src, op), `${op.op} on ${JSON.stringify(src)}`).toBe("invalid_content");
      }
    }
  });

  it("deleting down to one column is allowed; the next table op is refused", () => {
    const two = '::table{id="t" header}\n| Name | N |\n| --- | --- |\n| Ana | 1 |\n| - | 2 |\n::\n';
    const out = ok(two, [{ op: "delete_table_column", id: "t", column: "N" }]);
    expect(out).toBe('::table{id="t" header}\n| Name |\n| --- |\n| Ana |\n| - |\n::\n');
    expect(code(out, { op: "insert_table_row", id: "t", row: 2, cells: ["Cy"] })).toBe("invalid_content");
  });
});

describe("update_heading on a directive", () => {
  it("is invalid_content, as the reference answers", () => {
    expect(code('::note{id="n"}\ntext\n::\n', { op: "update_heading", id: "n", title: "New" })).toBe("invalid_content");
    expect(code('::section{id="s" title="Old"}\n::\n', { op: "update_heading", id: "s", title: "New" })).toBe("invalid_content");
  });
});

describe("rewriting a cell to the text it has", () => {
  it("is a noop, whatever the row's layout, and records nothing new", () => {
    const src = '::table{id="t" header}\nVertical | Growth\nLegal | 3.4\n::\n';
    for (const op of [
      { op: "update_table_cell", id: "t", row: 0, column: 1, value: "3.4" },
      { op: "update_table_cell", id: "t", row: 0, column: "Growth", value: 3.4 },
      { op: "update_table_cell", id: "t", row: 0, column: 0, value: " Legal " },
      { op: "update_table_header_cell", id: "t", column: 0, value: "Vertical" },
    ]) {
      const out = applyPatch(src, [op]);
      expect(out.result).toBe("noop");
      expect(out.ops[0]!.result).toBe("noop");
      expect(out.text).toBe(src);
      expect(out.postSha256).toBe(out.preSha256);
    }
    expect(applyPatch('::table{id="t"}\n| a \\| b | c |\n::\n', [{ op: "update_table_cell", id: "t", row: 0, column: 0, value: "a | b" }]).result).toBe("noop");
  });
});
