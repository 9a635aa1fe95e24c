/**
 * The patch engine, op by op:
 * - every one of the 25 ops applies source-preservingly;
 * - every PatchError code is reachable, with the spec's precedence;
 * - the spec-over-reference decisions (open-points guide §A) hold;
 * - op lists are atomic (op_list_aborted), strict mode blocks, expected_sha
 *   and baseHash preconditions reject, base_sha256 drift only warns;
 * - line endings and BOMs survive; noops are noops.
 */
import { describe, expect, it } from "vitest";
import { applyPatch, type ApplyPatchOptions } from "../../src/patch/apply-patch.js";
import { blockHash } from "../../src/patch/op-support.js";
import { parseNoma } from "../../src/internal.js";

function apply(src: string, ops: unknown | unknown[], options: ApplyPatchOptions = {}) {
  return applyPatch(src, Array.isArray(ops) ? ops : [ops], options);
}

function ok(src: string, ops: unknown | unknown[], options: ApplyPatchOptions = {}): string {
  const out = apply(src, ops, options);
  if (out.error !== undefined) throw new Error(`expected success, got ${out.error.code}: ${out.error.message}`);
  return out.text;
}

function rejects(src: string, ops: unknown | unknown[], options: ApplyPatchOptions = {}): string {
  const out = apply(src, ops, options);
  expect(out.result).toBe("rejected");
  expect(out.text).toBe(src);
  return out.error!.code;
}

const CLAIMS = '::claim{id="c1" confidence=0.5}\nBody one.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const SECTION = '::section{id="s"}\n:::claim{id="a"}\nA.\n:::\n\n:::claim{id="b"}\nB.\n:::\n::\n';

describe("core ops", () => {
  it("replace_block replaces the block and keeps its position", () => {
    expect(ok(CLAIMS, { op: "replace_block", id: "e1", content: '::evidence{id="e1" for="c1"}\nBetter proof.\n::\n\n\n' })).toBe(
      '::claim{id="c1" confidence=0.5}\nBody one.\n::\n\n::evidence{id="e1" for="c1"}\nBetter proof.\n::\n',
    );
  });

  it("replace_block re-fences the fragment to the target's depth", () => {
    expect(ok(SECTION, { op: "replace_block", id: "a", content: '::claim{id="a"}\n::::note\nn\n::::\n::' })).toBe(
      '::section{id="s"}\n:::claim{id="a"}\n:::::note\nn\n:::::\n:::\n\n:::claim{id="b"}\nB.\n:::\n::\n',
    );
  });

  it("add_block inserts before a sibling, after the last child, or into an empty block", () => {
    const frag = '::risk{id="r"}\nNew.\n::';
    expect(ok(SECTION, { op: "add_block", parent: "s", position: 1, content: frag })).toBe(
      '::section{id="s"}\n:::claim{id="a"}\nA.\n:::\n\n:::risk{id="r"}\nNew.\n:::\n\n:::claim{id="b"}\nB.\n:::\n::\n',
    );
    expect(ok(SECTION, { op: "add_block", parent: "s", content: frag })).toBe(
      '::section{id="s"}\n:::claim{id="a"}\nA.\n:::\n\n:::claim{id="b"}\nB.\n:::\n\n:::risk{id="r"}\nNew.\n:::\n::\n',
    );
    expect(ok('::section{id="s"}\n::\n', { op: "add_block", parent: "s", position: 0, content: frag })).toBe(
      '::section{id="s"}\n:::risk{id="r"}\nNew.\n:::\n::\n',
    );
  });

  it("delete_block removes the block, and one following blank line when blank lines surround it (fence lines are not blank)", () => {
    expect(ok(SECTION, { op: "delete_block", id: "a" })).toBe('::section{id="s"}\n\n:::claim{id="b"}\nB.\n:::\n::\n');
    expect(ok(SECTION, { op: "delete_block", id: "b" })).toBe('::section{id="s"}\n:::claim{id="a"}\nA.\n:::\n\n::\n');
    expect(ok('text\n\n::n{id="x"}\n::\n\nmore\n', { op: "delete_block", id: "x" })).toBe("text\n\nmore\n");
  });

  it("update_attribute replaces a token in place, appends a new one, adds braces, removes with null", () => {
    expect(ok(CLAIMS, { op: "update_attribute", id: "c1", key: "confidence", value: 0.75 })).toContain('::claim{id="c1" confidence=0.75}');
    expect(ok(CLAIMS, { op: "update_attribute", id: "c1", key: "owner", value: "ana" })).toContain('::claim{id="c1" confidence=0.5 owner="ana"}');
    expect(ok('::note{id="n"}\n::\n', { op: "update_attribute", id: "n", key: "draft", value: true })).toBe('::note{id="n" draft}\n::\n');
    expect(ok('::note{id="n" x=1}\n::\n', { op: "update_attribute", id: "n", key: "x", value: false })).toBe('::note{id="n" x=false}\n::\n');
    expect(ok('::note{id="n" t=1}\n::\n', { op: "update_attribute", id: "n", key: "t", value: 'say "hi"' })).toBe('::note{id="n" t=\'say "hi"\'}\n::\n');
    expect(ok(CLAIMS, { op: "update_attribute", id: "c1", key: "confidence", value: null })).toContain('::claim{id="c1"}\n');
  });

  it("update_attribute with null on an absent attribute, or the same value, is a noop", () => {
    const absent = apply(CLAIMS, { op: "update_attribute", id: "c1", key: "missing", value: null });
    expect(absent.result).toBe("noop");
    expect(absent.ops[0]!.postSha256).toBe(absent.ops[0]!.preSha256);
    expect(apply(CLAIMS, { op: "update_attribute", id: "c1", key: "confidence", value: 0.5 }).result).toBe("noop");
  });

  it("rename_id retargets for=, parent=, dataset= and wikilinks, and nothing else", () => {
    const src = [
      '::claim{id="old" aliases="old-alias"}',
      "::",
      "",
      '::evidence{for="old"}',
      "::",
      "",
      '::comment{id="cm" parent="old" target="old"}',
      "::",
      "",
      '::plot{dataset="old" data="old"}',
      "::",
      "",
      "See [[old]], [[old|the claim]], [[older]], `[[old]]` and old.",
      "",
      "```",
      "[[old]]",
      "```",
      "",
    ].join("\n");
    expect(ok(src, { op: "rename_id", from: "old", to: "new" })).toBe(
      [
        '::claim{id="new" aliases="old-alias"}',
        "::",
        "",
        '::evidence{for="new"}',
        "::",
        "",
        '::comment{id="cm" parent="new" target="old"}',
        "::",
        "",
        '::plot{dataset="new" data="old"}',
        "::",
        "",
        "See [[new]], [[new|the claim]], [[older]], `[[old]]` and old.",
        "",
        "```",
        "[[old]]",
        "```",
        "",
      ].join("\n"),
    );
  });
});

describe("extended ops", () => {
  it("replace_body keeps the wrapper and attributes", () => {
    expect(ok(CLAIMS, { op: "replace_body", id: "c1", content: "Line 1.\nLine 2.\n" })).toContain('::claim{id="c1" confidence=0.5}\nLine 1.\nLine 2.\n::\n');
    expect(ok(CLAIMS, { op: "replace_body", id: "c1", content: "" })).toContain('::claim{id="c1" confidence=0.5}\n\n::\n');
  });

  it("update_heading changes the title and pins an implicit id that would change", () => {
    expect(ok("# Old Title\n\ntext\n", { op: "update_heading", id: "old-title", title: "New Title" })).toBe(
      "# Old Title\n\ntext\n".replace("# Old Title", '# New Title {id="old-title"}'),
    );
    expect(ok('## Same {aliases="x"}\n', { op: "update_heading", id: "same", title: "SAME" })).toBe('## SAME {aliases="x"}\n');
    expect(ok('## Old {id="k"}\n', { op: "update_heading", id: "k", title: "New" })).toBe('## New {id="k"}\n');
    expect(ok("# A\n# A\n", { op: "update_heading", id: "a-2", title: "B" })).toBe('# A\n# B {id="a-2"}\n');
  });

  it("add_comment, add_footnote, add_endnote and add_change_request place a block after the target at its depth", () => {
    expect(ok(SECTION, { op: "add_comment", id: "cm", target: "a", content: "Check.", author: "li", initials: "LI", date: "2026-11-22" })).toContain(
      ':::claim{id="a"}\nA.\n:::\n\n:::comment{id="cm" parent="a" author="li" initials="LI" date="2026-11-22"}\nCheck.\n:::\n\n:::claim{id="b"}',
    );
    expect(ok(SECTION, { op: "add_footnote", id: "fn", target: "b", content: "Note.", label: "1" })).toContain(
      ':::claim{id="b"}\nB.\n:::\n\n:::footnote{id="fn" for="b" label="1"}\nNote.\n:::\n::\n',
    );
    expect(ok("# Intro\n\nText.\n", { op: "add_endnote", id: "en", target: "intro", content: "End." })).toBe(
      '# Intro\n\n::endnote{id="en" for="intro"}\nEnd.\n::\n\nText.\n',
    );
    expect(ok(CLAIMS, { op: "add_change_request", id: "cr", target: "c1", action: "delete", from: "one" })).toContain(
      '::claim{id="c1" confidence=0.5}\nBody one.\n::\n\n::change_request{id="cr" target="c1" action="delete" from="one"}\n::\n\n::evidence',
    );
  });

  it("add_comment threads replies after the replied comment", () => {
    const withComment = ok(CLAIMS, { op: "add_comment", id: "cm1", target: "c1", content: "Q?" });
    expect(ok(withComment, { op: "add_comment", id: "cm2", target: "c1", reply_to: "cm1", content: "A." })).toContain(
      '::comment{id="cm1" parent="c1"}\nQ?\n::\n\n::comment{id="cm2" parent="c1" reply_to="cm1"}\nA.\n::\n',
    );
    expect(rejects(CLAIMS, { op: "add_comment", id: "cm2", target: "c1", reply_to: "e1" })).toBe("invalid_content");
  });

  it("resolve_comment marks a comment resolved; a second time is a noop", () => {
    const src = '::comment{id="cm" parent="x"}\nHi\n::\n';
    const once = ok(src, { op: "resolve_comment", id: "cm", resolved_by: "ana" });
    expect(once).toBe('::comment{id="cm" parent="x" status="resolved" resolved_by="ana"}\nHi\n::\n');
    expect(apply(once, { op: "resolve_comment", id: "cm", resolved_by: "ana" }).result).toBe("noop");
  });

  it("remove_attribute re-joins the kept tokens and drops empty braces", () => {
    expect(ok('::note{id="n"  draft   x=1}\n::\n', { op: "remove_attribute", id: "n", key: "draft" })).toBe('::note{id="n" x=1}\n::\n');
    expect(apply('::note{id="n"}\n::\n', { op: "remove_attribute", id: "n", key: "draft" }).result).toBe("noop");
  });

  const TABLE = '::table{id="t" header}\n| Name | Score |\n|---|---|\n| Ana | 1 |\n| Bo | 2 |\n::\n';
  it("table ops: cells, header, rows, columns (by index or label), pipes escaped", () => {
    expect(ok(TABLE, { op: "update_table_cell", id: "t", row: 1, column: "Score", value: "a|b `c|d`" })).toBe(
      '::table{id="t" header}\n| Name | Score |\n|---|---|\n| Ana | 1 |\n| Bo | a\\|b `c|d` |\n::\n',
    );
    expect(ok(TABLE, { op: "update_table_header_cell", id: "t", column: 0, value: "Who" })).toContain("| Who | Score |\n|---|---|");
    expect(ok(TABLE, { op: "insert_table_row", id: "t", row: 0, cells: ["Cy", 3] })).toContain("|---|---|\n| Cy | 3 |\n| Ana | 1 |");
    expect(ok(TABLE, { op: "delete_table_row", id: "t", row: 0 })).toBe('::table{id="t" header}\n| Name | Score |\n|---|---|\n| Bo | 2 |\n::\n');
    expect(ok(TABLE, { op: "insert_table_column", id: "t", column: 1, header: "Age", cells: [30] })).toBe(
      '::table{id="t" header}\n| Name | Age | Score |\n| --- | --- | --- |\n| Ana | 30 | 1 |\n| Bo |  | 2 |\n::\n',
    );
    expect(ok(TABLE, { op: "delete_table_column", id: "t", column: "Name" })).toBe('::table{id="t" header}\n| Score |\n| --- |\n| 1 |\n| 2 |\n::\n');
  });

  it("table ops reject what they cannot do", () => {
    expect(rejects(TABLE, { op: "update_table_cell", id: "t", row: 9, column: 0, value: 1 })).toBe("invalid_content");
    expect(rejects(TABLE, { op: "update_table_cell", id: "t", row: 0, column: "Nope", value: 1 })).toBe("invalid_content");
    expect(rejects('::table{id="t"}\n| a |\n::\n', { op: "delete_table_column", id: "t", column: 0 })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "delete_table_row", id: "c1", row: 0 })).toBe("invalid_content");
    expect(rejects(TABLE, { op: "update_table_cell", id: "t", row: 0, column: 0, value: "two\nlines" })).toBe("invalid_content");
  });

  const YAML_DS = '::dataset{id="d"}\nschema:\n  name: string\n  n: number\nrows:\n  - [ana, 1]\n  - ["bo b", 2]\n::\n';
  it("yaml dataset ops coerce by schema type and keep untouched rows verbatim", () => {
    expect(ok(YAML_DS, { op: "update_dataset_cell", id: "d", row: 1, column: "n", value: "2.50" })).toBe(YAML_DS.replace('- ["bo b", 2]', '- ["bo b", 2.5]'));
    // A value the schema type cannot take is written as it is (the reference applies it, issue 27).
    expect(ok(YAML_DS, { op: "update_dataset_cell", id: "d", row: 0, column: "n", value: "many" })).toContain("  - [ana, many]");
    expect(ok(YAML_DS, { op: "update_dataset_cell", id: "d", row: 0, column: 0, value: "true" })).toContain('  - ["true", 1]');
    expect(ok(YAML_DS, { op: "insert_dataset_row", id: "d", row: 0, cells: ["cy", "3"] })).toContain("rows:\n  - [cy, 3]\n  - [ana, 1]");
    expect(ok(YAML_DS, { op: "delete_dataset_row", id: "d", row: 0 })).toBe(YAML_DS.replace("  - [ana, 1]\n", ""));
    expect(ok(YAML_DS, { op: "insert_dataset_column", id: "d", column: 1, header: "ok", cells: [true, false], type: "boolean" })).toBe(
      '::dataset{id="d"}\nschema:\n  name: string\n  ok: boolean\n  n: number\nrows:\n  - [ana, true, 1]\n  - ["bo b", false, 2]\n::\n',
    );
    expect(ok(YAML_DS, { op: "delete_dataset_column", id: "d", column: "name" })).toBe(
      '::dataset{id="d"}\nschema:\n  n: number\nrows:\n  - [1]\n  - [2]\n::\n',
    );
    expect(ok('::dataset{id="d"}\nschema:\n  a: number\nrows: []\n::\n', { op: "insert_dataset_row", id: "d", row: 0, cells: [1] })).toBe(
      '::dataset{id="d"}\nschema:\n  a: number\nrows:\n  - [1]\n::\n',
    );
  });

  it("csv and tsv dataset ops quote what needs quoting", () => {
    const csv = '::dataset{id="d" format="csv"}\nname,n\nana,1\n"b, c",2\n::\n';
    expect(ok(csv, { op: "update_dataset_cell", id: "d", row: 0, column: "name", value: 'say "x"' })).toBe(csv.replace("ana,1", '"say ""x""",1'));
    expect(ok(csv, { op: "insert_dataset_row", id: "d", row: 2, cells: ["dee", 4] })).toBe(csv.replace('"b, c",2\n', '"b, c",2\ndee,4\n'));
    expect(ok(csv, { op: "insert_dataset_column", id: "d", column: 2, header: "k", cells: ["x", "y"] })).toBe(
      csv.replace('name,n\nana,1\n"b, c",2', 'name,n,k\nana,1,x\n"b, c",2,y'),
    );
    const tsv = '::dataset{id="d" format="tsv"}\na\tb\n1\t2\n::\n';
    expect(ok(tsv, { op: "delete_dataset_column", id: "d", column: "a" })).toBe('::dataset{id="d" format="tsv"}\nb\n2\n::\n');
  });

  it("json dataset ops keep one row per line and fix commas", () => {
    const rows = '::dataset{id="d" format="json"}\n[\n  ["ana", 1],\n  ["bo", 2]\n]\n::\n';
    expect(ok(rows, { op: "update_dataset_cell", id: "d", row: 1, column: 1, value: "7" })).toBe(rows.replace('["bo", 2]', '["bo", 7]'));
    expect(ok(rows, { op: "insert_dataset_row", id: "d", row: 2, cells: ["cy", "3"] })).toBe(rows.replace('  ["bo", 2]\n', '  ["bo", 2],\n  ["cy", 3]\n'));
    expect(ok(rows, { op: "delete_dataset_row", id: "d", row: 1 })).toBe(rows.replace('  ["ana", 1],\n  ["bo", 2]\n', '  ["ana", 1]\n'));
    const records = '::dataset{id="d" format="json"}\n[\n  {"name": "ana", "n": 1},\n  {"name": "bo", "n": 2}\n]\n::\n';
    expect(ok(records, { op: "insert_dataset_column", id: "d", column: 1, header: "ok", cells: [true, false] })).toBe(
      records
        .replace('{"name": "ana", "n": 1}', '{"name": "ana", "ok": true, "n": 1}')
        .replace('{"name": "bo", "n": 2}', '{"name": "bo", "ok": false, "n": 2}'),
    );
    const table = '::dataset{id="d" format="json"}\n{\n  "columns": ["a", "b"],\n  "rows": [\n    [1, 2]\n  ]\n}\n::\n';
    expect(ok(table, { op: "delete_dataset_column", id: "d", column: "a" })).toBe(table.replace('["a", "b"]', '["b"]').replace("[1, 2]", "[2]"));
    expect(ok('::dataset{id="d" format="json"}\n[["a", 1], ["b", 2]]\n::\n', { op: "delete_dataset_row", id: "d", row: 0 })).toBe(
      '::dataset{id="d" format="json"}\n[["b", 2]]\n::\n',
    );
  });

  it("move_block moves under a new parent, re-fencing by the depth difference", () => {
    const src = '::claim{id="m"}\n:::note{id="inner"}\nx\n:::\n::\n\n::section{id="dest"}\n:::claim{id="k"}\nk\n:::\n::\n';
    expect(ok(src, { op: "move_block", id: "m", parent: "dest", position: 1 })).toBe(
      '::section{id="dest"}\n:::claim{id="k"}\nk\n:::\n\n:::claim{id="m"}\n::::note{id="inner"}\nx\n::::\n:::\n::\n',
    );
    expect(rejects(src, { op: "move_block", id: "m", parent: "inner" })).toBe("parent_missing");
    expect(rejects(src, { op: "move_block", id: "m", parent: "dest", position: 5 })).toBe("parent_missing");
  });
});

describe("error codes and precedence", () => {
  it("unsupported_op for an unknown op; invalid_content for a malformed one", () => {
    expect(rejects(CLAIMS, { op: "frobnicate", id: "c1" })).toBe("unsupported_op");
    expect(rejects(CLAIMS, { op: "replace_block", id: "c1" })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "update_attribute", id: "c1", key: "x", value: { nested: true } })).toBe("invalid_content");
    expect(rejects(CLAIMS, "not an object")).toBe("invalid_content");
  });

  it("id_attribute_protected comes before target lookup", () => {
    expect(rejects(CLAIMS, { op: "update_attribute", id: "nope", key: "id", value: "x" })).toBe("id_attribute_protected");
    expect(rejects(CLAIMS, { op: "remove_attribute", id: "c1", key: "id" })).toBe("id_attribute_protected");
  });

  it("fragment content comes before target lookup; baseHash before op-specific checks", () => {
    expect(rejects(CLAIMS, { op: "replace_block", id: "nope", content: "just prose" })).toBe("invalid_content");
    const doc = parseNoma(CLAIMS);
    const hash = blockHash(doc, doc.nodeById.get("c1")!);
    expect(rejects(CLAIMS, { op: "add_block", parent: "c1", position: 99, content: '::x{id="y"}\n::', baseHash: "0000000000" })).toBe("sha_mismatch");
    expect(rejects(CLAIMS, { op: "add_block", parent: "c1", position: 99, content: '::x{id="y"}\n::', baseHash: hash.slice(0, 10) })).toBe("parent_missing");
    expect(ok(CLAIMS, { op: "update_attribute", id: "c1", key: "k", value: 1, baseHash: hash })).toContain("k=1");
  });

  it("target_missing: no such id, an alias, a heading section for a block op", () => {
    expect(rejects(CLAIMS, { op: "delete_block", id: "nope" })).toBe("target_missing");
    expect(rejects('::claim{id="c" aliases="al"}\n::\n', { op: "delete_block", id: "al" })).toBe("target_missing");
    for (const op of [
      { op: "replace_block", id: "intro", content: '::x{id="x"}\n::' },
      { op: "delete_block", id: "intro" },
      { op: "update_attribute", id: "intro", key: "k", value: 1 },
    ]) {
      expect(rejects("# Intro\n\ntext\n", op)).toBe("target_missing");
    }
  });

  it("parent_missing: no such parent, a heading inside a directive, position out of range (spec, not the reference's clamp)", () => {
    const frag = '::x{id="x"}\n::';
    expect(rejects(SECTION, { op: "add_block", parent: "nope", content: frag })).toBe("parent_missing");
    expect(rejects("::box\n# H\n::\n", { op: "add_block", parent: "h", content: frag })).toBe("parent_missing");
    expect(rejects(SECTION, { op: "add_block", parent: "s", position: 3, content: frag })).toBe("parent_missing");
    expect(rejects(SECTION, { op: "add_block", parent: "s", position: -1, content: frag })).toBe("parent_missing");
    expect(ok(SECTION, { op: "add_block", parent: "s", position: 2, content: frag })).toContain(':::x{id="x"}');
  });

  it("id_conflict: rename onto an existing id or itself; add/replace content declaring a taken id; an ambiguous target", () => {
    expect(rejects(CLAIMS, { op: "rename_id", from: "c1", to: "e1" })).toBe("id_conflict");
    expect(rejects(CLAIMS, { op: "rename_id", from: "c1", to: "c1" })).toBe("id_conflict");
    expect(rejects(SECTION, { op: "add_block", parent: "s", content: '::x{id="b"}\n::' })).toBe("id_conflict");
    expect(rejects(SECTION, { op: "replace_block", id: "a", content: '::x{id="b"}\n::' })).toBe("id_conflict");
    expect(ok(SECTION, { op: "replace_block", id: "a", content: '::x{id="a"}\n::' })).toContain(':::x{id="a"}');
    expect(rejects('::n{id="d"}\n::\n\n::n{id="d"}\n::\n', { op: "delete_block", id: "d" })).toBe("id_conflict");
    expect(rejects(CLAIMS, { op: "add_comment", id: "e1", target: "c1" })).toBe("id_conflict");
  });

  it("invalid_content: values that cannot be read back", () => {
    expect(rejects(CLAIMS, { op: "update_attribute", id: "c1", key: "k", value: "a\nb" })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "update_attribute", id: "c1", key: "k", value: `both ' and "` })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "update_attribute", id: "c1", key: "bad key", value: 1 })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "rename_id", from: "c1", to: "2024" })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "replace_body", id: "c1", content: "text\n::\nescaped" })).toBe("invalid_content");
    expect(rejects(SECTION, { op: "replace_body", id: "s", content: "flat" })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "add_block", parent: "c1", content: '::a{id="p"}\n::\n::b{id="q"}\n::' })).toBe("invalid_content");
    expect(rejects(CLAIMS, { op: "add_block", parent: "c1", content: '::a{id="p"}\nunclosed' })).toBe("invalid_content");
    expect(rejects("# X\n", { op: "update_heading", id: "x", title: "X {}" })).toBe("invalid_content");
    expect(ok("# T\n", { op: "update_heading", id: "t", title: "Ends {x}" })).toBe('# Ends {x} {id="t"}\n');
  });
});

describe("op lists (§3.2) and policies (§3.4)", () => {
  it("apply in order: each op sees the previous op's result", () => {
    const out = apply(CLAIMS, [
      { op: "rename_id", from: "c1", to: "c2" },
      { op: "update_attribute", id: "c2", key: "confidence", value: 0.9 },
    ]);
    expect(out.result).toBe("applied");
    expect(out.text).toContain('::claim{id="c2" confidence=0.9}');
    expect(out.ops.map((o) => o.result)).toEqual(["applied", "applied"]);
    expect(out.ops[1]!.preSha256).toBe(out.ops[0]!.postSha256);
    expect(out.ops[1]!.postSha256).toBe(out.postSha256);
  });

  it("are atomic: a failing op rolls back the earlier ones (op_list_aborted) and later ones are not attempted", () => {
    const out = apply(CLAIMS, [
      { op: "update_attribute", id: "c1", key: "confidence", value: 0.9 },
      { op: "delete_block", id: "e1" },
      { op: "delete_block", id: "missing" },
      { op: "delete_block", id: "c1" },
    ]);
    expect(out.result).toBe("rejected");
    expect(out.text).toBe(CLAIMS);
    expect(out.ops.map((o) => [o.result, o.error?.code])).toEqual([
      ["rejected", "op_list_aborted"],
      ["rejected", "op_list_aborted"],
      ["rejected", "target_missing"],
    ]);
    for (const o of out.ops) expect(o.postSha256).toBe(o.preSha256);
    expect(out.error).toMatchObject({ code: "target_missing", opIndex: 2 });
  });

  it("strict mode rejects a document with validator errors (pre_validation_blocked); default mode lets agents fix it", () => {
    const broken = '::evidence{id="e" for="gone"}\nx\n::\n';
    const fix = { op: "update_attribute", id: "e", key: "for", value: null };
    expect(rejects(broken, fix, { strict: true })).toBe("pre_validation_blocked");
    const out = apply(broken, fix);
    expect(out.result).toBe("applied");
    expect([out.preValidation, out.postValidation]).toEqual(["error", "warn"]);
  });

  it("expected_sha rejects on mismatch; base_sha256 drift only warns", () => {
    const out = apply(CLAIMS, { op: "delete_block", id: "e1" }, { expectedSha: "00000000" });
    expect(out.error?.code).toBe("sha_mismatch");
    const pre = apply(CLAIMS, []).preSha256;
    expect(apply(CLAIMS, { op: "delete_block", id: "e1" }, { expectedSha: pre.slice(0, 8) }).result).toBe("applied");
    const drift = apply(CLAIMS, { op: "delete_block", id: "e1" }, { baseSha256: "a".repeat(64) });
    expect(drift.result).toBe("applied");
    expect(drift.warnings).toEqual([expect.objectContaining({ code: "base_sha_drift", severity: "warning", phase: "pre" })]);
    expect(apply(CLAIMS, { op: "delete_block", id: "e1" }, { baseSha256: pre }).warnings).toEqual([]);
  });

  it("book manifests are not patch targets (unsupported_op)", () => {
    expect(rejects("chapters: [a.noma]\n", { op: "delete_block", id: "x" }, { bookManifest: true })).toBe("unsupported_op");
  });
});

describe("source preservation", () => {
  it("keeps CRLF line endings, a BOM, trailing spaces of other lines and a missing final newline", () => {
    const src = '\uFEFFIntro  \r\n\r\n::claim{id="c" x=1}\r\nbody\r\n::\r\n\r\ntail  ';
    const out = ok(src, [
      { op: "update_attribute", id: "c", key: "x", value: 2 },
      { op: "add_comment", id: "cm", target: "c", content: "Hi" },
    ]);
    expect(out).toBe('\uFEFFIntro  \r\n\r\n::claim{id="c" x=2}\r\nbody\r\n::\r\n\r\n::comment{id="cm" parent="c"}\r\nHi\r\n::\r\n\r\ntail  ');
  });

  it("appending at the end of a file without a final newline keeps it without one", () => {
    expect(ok('::s{id="s"}\n::', { op: "add_comment", id: "c", target: "s" })).toBe('::s{id="s"}\n::\n\n::comment{id="c" parent="s"}\n::');
    expect(ok('::s{id="s"}\n::\n\n::d{id="d"}\n::', { op: "delete_block", id: "d" })).toBe('::s{id="s"}\n::');
  });
});
