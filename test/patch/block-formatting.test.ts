/**
 * The bytes generated blocks and removals leave in nested and dataset-heavy documents
 * (issue 15 item 3), by the line rules of the open-points guide §B:
 * - delete_block removes the block's lines, plus one following blank line only when blank
 *   lines surround it; the start and the end of the document count as blank (the upstream
 *   corpus: delete_block, move_block). Directive fences are ordinary lines: the same rules
 *   hold inside a directive as at the top level.
 * - move_block = that removal, then add_block's insertion (position counted after removal).
 * - replace_body with empty content leaves one empty line as the body.
 * - add_comment / add_footnote / add_endnote / add_change_request: after a directive target
 *   at its depth, or right after a heading line, blank-separated.
 */
import { describe, expect, it } from "vitest";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { applyOk as ok } from "../helpers/apply-one.js";

const NESTED = [
  '::section{id="s"}',
  ':::claim{id="a"}',
  "A.",
  ":::",
  "",
  ':::box{id="b"}',
  '::::note{id="n1"}',
  "one",
  "::::",
  "",
  '::::note{id="n2"}',
  "two",
  "::::",
  ":::",
  "",
  ':::claim{id="z"}',
  "Z.",
  ":::",
  "::",
  "",
].join("\n");

const DATASETS = [
  "# Data",
  "",
  '::dataset{id="d1"}',
  "schema:",
  "  name: string",
  "rows:",
  "  - [ana]",
  "::",
  "",
  '::dataset{id="d2" format="csv"}',
  "name,n",
  "ana,1",
  "::",
  "",
  '::plot{id="p" dataset="d1"}',
  "::",
  "",
].join("\n");

describe("delete_block", () => {
  it("between blank lines: the block and the blank line after it", () => {
    expect(ok(NESTED, { op: "delete_block", id: "b" })).toBe('::section{id="s"}\n:::claim{id="a"}\nA.\n:::\n\n:::claim{id="z"}\nZ.\n:::\n::\n');
    expect(ok(DATASETS, { op: "delete_block", id: "d2" })).toBe(
      '# Data\n\n::dataset{id="d1"}\nschema:\n  name: string\nrows:\n  - [ana]\n::\n\n::plot{id="p" dataset="d1"}\n::\n',
    );
  });

  it("a first child right after its parent's opening line: only its lines (the blank after stays)", () => {
    expect(ok(NESTED, { op: "delete_block", id: "a" })).toBe(NESTED.replace(':::claim{id="a"}\nA.\n:::\n', ""));
    expect(ok(NESTED, { op: "delete_block", id: "n1" })).toBe(NESTED.replace('::::note{id="n1"}\none\n::::\n', ""));
  });

  it("a last child right before its parent's closing line: only its lines (the blank before stays)", () => {
    expect(ok(NESTED, { op: "delete_block", id: "z" })).toBe(NESTED.replace(':::claim{id="z"}\nZ.\n:::\n', ""));
    expect(ok(NESTED, { op: "delete_block", id: "n2" })).toBe(NESTED.replace('::::note{id="n2"}\ntwo\n::::\n', ""));
  });

  it("at the start and the end of the document, which count as blank", () => {
    expect(ok('::a{id="a"}\n::\n\n::b{id="b"}\n::\n', { op: "delete_block", id: "a" })).toBe('::b{id="b"}\n::\n');
    expect(ok('::a{id="a"}\n::\n\n::b{id="b"}\n::\n', { op: "delete_block", id: "b" })).toBe('::a{id="a"}\n::\n');
    expect(ok('::a{id="a"}\n::\n\n::b{id="b"}\n::', { op: "delete_block", id: "b" })).toBe('::a{id="a"}\n::');
  });

  it("with text right against it: only its lines", () => {
    expect(ok('text\n::a{id="a"}\n::\n\nmore\n', { op: "delete_block", id: "a" })).toBe("text\n\nmore\n");
    expect(ok('text\n\n::a{id="a"}\n::\nmore\n', { op: "delete_block", id: "a" })).toBe("text\n\nmore\n");
  });
});

describe("move_block", () => {
  it("out of a nested directive into another, re-fenced; the rules of delete then add", () => {
    const out = ok(NESTED, { op: "move_block", id: "n2", parent: "s", position: 0 });
    expect(out).toBe(
      '::section{id="s"}\n:::note{id="n2"}\ntwo\n:::\n\n:::claim{id="a"}\nA.\n:::\n\n:::box{id="b"}\n::::note{id="n1"}\none\n::::\n\n:::\n\n:::claim{id="z"}\nZ.\n:::\n::\n',
    );
  });

  it("a dataset between datasets, to the end of its section", () => {
    expect(ok(DATASETS, { op: "move_block", id: "d1", parent: "data" })).toBe(
      '# Data\n\n::dataset{id="d2" format="csv"}\nname,n\nana,1\n::\n\n::plot{id="p" dataset="d1"}\n::\n\n::dataset{id="d1"}\nschema:\n  name: string\nrows:\n  - [ana]\n::\n',
    );
  });
});

describe("replace_body", () => {
  it("with empty content leaves one empty line as the body, nested or not", () => {
    expect(ok('::note{id="x"}\nold\ntext\n::\n', { op: "replace_body", id: "x", content: "" })).toBe('::note{id="x"}\n\n::\n');
    expect(ok(NESTED, { op: "replace_body", id: "n1", content: "\n" })).toBe(NESTED.replace("one\n", "\n"));
    expect(ok('::note{id="x"}\n::\n', { op: "replace_body", id: "x", content: "" })).toBe('::note{id="x"}\n\n::\n');
    expect(applyPatch('::note{id="x"}\n\n::\n', [{ op: "replace_body", id: "x", content: "" }]).result).toBe("noop");
  });
});

describe("review blocks in nested documents", () => {
  it("add_change_request after a nested target at its depth, before the next sibling or the parent's close", () => {
    expect(ok(NESTED, { op: "add_change_request", id: "cr", target: "n1", action: "delete", from: "one" })).toBe(
      NESTED.replace("one\n::::\n\n", 'one\n::::\n\n::::change_request{id="cr" target="n1" action="delete" from="one"}\n::::\n\n'),
    );
    expect(ok(NESTED, { op: "add_change_request", id: "cr", target: "n2", action: "insert", text: "three" })).toBe(
      NESTED.replace("two\n::::\n", 'two\n::::\n\n::::change_request{id="cr" target="n2" action="insert" text="three"}\n::::\n'),
    );
  });

  it("add_change_request on a heading inside a directive: after the heading line, one colon deeper than the directive", () => {
    expect(ok('::box{id="b"}\n# Inner\ntext\n::\n', { op: "add_change_request", id: "cr", target: "inner", action: "replace", from: "a", to: "b" })).toBe(
      '::box{id="b"}\n# Inner\n\n:::change_request{id="cr" target="inner" action="replace" from="a" to="b"}\n:::\n\ntext\n::\n',
    );
  });

  it("add_comment after a dataset in a dataset-heavy document", () => {
    expect(ok(DATASETS, { op: "add_comment", id: "c", target: "d2", content: "check n" })).toBe(
      DATASETS.replace("ana,1\n::\n\n", 'ana,1\n::\n\n::comment{id="c" parent="d2"}\ncheck n\n::\n\n'),
    );
  });
});
