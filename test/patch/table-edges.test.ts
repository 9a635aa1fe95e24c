/**
 * Issue 15 item 4: table ops on a one-column ::table, update_heading on a directive, and a
 * cell rewritten to the text it has.
 * - One column: every op but deleting that column works; the table stays one the ops read
 *   back the same way (its `| --- |` separator is still a separator, a `-` cell is a cell).
 * - update_heading on a directive: target_missing (§3.5: the id resolves to a node of a kind
 *   the op does not operate on; invalid_content is defined for content that does not parse).
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
  it("a `-` cell is a body cell, not a separator", () => {
    expect(ok(BARE, [{ op: "update_table_cell", id: "t", row: 2, column: 0, value: "Cy" }])).toBe('::table{id="t" header}\nName\nAna\n-\n| Cy |\n::\n');
    expect(ok(PIPED, [{ op: "update_table_cell", id: "t", row: 1, column: "Name", value: "none" }])).toBe(
      '::table{id="t" header}\n| Name |\n| --- |\n| Ana |\n| none |\n| Bo |\n::\n',
    );
    expect(ok(PIPED, [{ op: "delete_table_row", id: "t", row: 2 }])).toBe('::table{id="t" header}\n| Name |\n| --- |\n| Ana |\n| - |\n::\n');
  });

  it("rows, header cells and a second column work", () => {
    expect(ok(PIPED, [{ op: "insert_table_row", id: "t", row: 0, cells: ["Cy"] }])).toBe(
      '::table{id="t" header}\n| Name |\n| --- |\n| Cy |\n| Ana |\n| - |\n| Bo |\n::\n',
    );
    expect(ok(PIPED, [{ op: "update_table_header_cell", id: "t", column: 0, value: "Who" }])).toContain("| Who |\n| --- |\n");
    expect(ok(PIPED, [{ op: "insert_table_column", id: "t", column: 1, header: "N", cells: ["1", "2", "3"] }])).toBe(
      '::table{id="t" header}\n| Name | N |\n| --- | --- |\n| Ana | 1 |\n| - | 2 |\n| Bo | 3 |\n::\n',
    );
  });

  it("deleting the only column is invalid_content", () => {
    expect(code(PIPED, { op: "delete_table_column", id: "t", column: 0 })).toBe("invalid_content");
    expect(code(BARE, { op: "delete_table_column", id: "t", column: "Name" })).toBe("invalid_content");
  });

  it("deleting down to one column leaves a table the next ops read the same way", () => {
    const two = '::table{id="t" header}\n| Name | N |\n| --- | --- |\n| Ana | 1 |\n| - | 2 |\n::\n';
    const out = ok(two, [
      { op: "delete_table_column", id: "t", column: "N" },
      { op: "update_table_cell", id: "t", row: 1, column: 0, value: "Bo" },
      { op: "insert_table_row", id: "t", row: 2, cells: ["Cy"] },
    ]);
    expect(out).toBe('::table{id="t" header}\n| Name |\n| --- |\n| Ana |\n| Bo |\n| Cy |\n::\n');
  });
});

describe("update_heading on a directive", () => {
  it("is target_missing, like the other ops addressing a node of the wrong kind", () => {
    expect(code('::note{id="n"}\ntext\n::\n', { op: "update_heading", id: "n", title: "New" })).toBe("target_missing");
    expect(code('::section{id="s" title="Old"}\n::\n', { op: "update_heading", id: "s", title: "New" })).toBe("target_missing");
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
