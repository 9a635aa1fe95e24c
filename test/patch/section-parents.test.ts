/**
 * Heading sections as parents of add_block and move_block (§2.1, §3.1.2; issue 15 item 1).
 * A section's children are the blocks after its heading line up to its end; a new child
 * follows the blank-line rules of directive parents ("fragment + blank line" before a
 * sibling, "blank line + fragment" after the last child); an empty section gets the block
 * right after its heading line with a blank line between. Top-level fence: 2 colons.
 */
import { describe, expect, it } from "vitest";
import { applyOk as ok, applyRejected as rejects } from "../helpers/apply-one.js";
import { parseNoma } from "../../src/internal.js";

/** Applied the same way on the incremental path and the one-shot path (a fresh parse, the op given its targets only). */
function childIds(text: string, id: string): Array<string | undefined> {
  const node = parseNoma(text).nodeById.get(id)!;
  return node.children.map((c) => (c.type === "directive" || c.type === "section" ? c.id : c.type));
}

const FRAG = '::note{id="n"}\nNew.\n::';
const DOC = '# Plan\n\nIntro.\n\n::claim{id="c1"}\nOne.\n::\n\n## Later\n\nMore.\n\n# Other\n\nText.\n';

describe("add_block under a heading section", () => {
  it("appends after the section's own blocks, blank line before", () => {
    const out = ok("# Plan\n\nIntro.\n", { op: "add_block", parent: "plan", content: FRAG });
    expect(out).toBe('# Plan\n\nIntro.\n\n::note{id="n"}\nNew.\n::\n');
    expect(childIds(out, "plan")).toEqual(["paragraph", "n"]);
  });

  it("inserts before a sibling with a blank line after the fragment", () => {
    const out = ok(DOC, { op: "add_block", parent: "plan", position: 1, content: FRAG });
    expect(out).toBe('# Plan\n\nIntro.\n\n::note{id="n"}\nNew.\n::\n\n::claim{id="c1"}\nOne.\n::\n\n## Later\n\nMore.\n\n# Other\n\nText.\n');
    expect(childIds(out, "plan")).toEqual(["paragraph", "n", "c1", "later"]);
  });

  it("into an empty section: right after the heading line, blank line between", () => {
    expect(ok("# Empty\n\n# Next\n", { op: "add_block", parent: "empty", content: FRAG })).toBe('# Empty\n\n::note{id="n"}\nNew.\n::\n\n# Next\n');
    expect(ok("# Empty\n# Next\n", { op: "add_block", parent: "empty", content: FRAG })).toBe('# Empty\n\n::note{id="n"}\nNew.\n::\n\n# Next\n');
    expect(ok("# Empty", { op: "add_block", parent: "empty", content: FRAG })).toBe('# Empty\n\n::note{id="n"}\nNew.\n::');
  });

  it("without position, the block lands before the first sub-heading and stays a direct child", () => {
    const out = ok(DOC, { op: "add_block", parent: "plan", content: FRAG });
    expect(out).toBe('# Plan\n\nIntro.\n\n::claim{id="c1"}\nOne.\n::\n\n::note{id="n"}\nNew.\n::\n\n## Later\n\nMore.\n\n# Other\n\nText.\n');
    expect(childIds(out, "plan")).toEqual(["paragraph", "c1", "n", "later"]);
  });

  it("a position after a sub-heading has no place in the source: parent_missing", () => {
    expect(rejects(DOC, { op: "add_block", parent: "plan", position: 3, content: FRAG })).toBe("parent_missing");
    expect(rejects(DOC, { op: "add_block", parent: "plan", position: 4, content: FRAG })).toBe("parent_missing");
    expect(rejects(DOC, { op: "add_block", parent: "plan", position: -1, content: FRAG })).toBe("parent_missing");
  });

  it("re-fences the fragment to 2 colons at the top level (minimum 2)", () => {
    const out = ok("# Plan\n\nIntro.\n", { op: "add_block", parent: "plan", content: ':::::note{id="n"}\n::::::x\ny\n::::::\n:::::' });
    expect(out).toBe('# Plan\n\nIntro.\n\n::note{id="n"}\n:::x\ny\n:::\n::\n');
  });

  it("a sub-section accepts children too", () => {
    const out = ok(DOC, { op: "add_block", parent: "later", position: 0, content: FRAG });
    expect(out).toContain('## Later\n\n::note{id="n"}\nNew.\n::\n\nMore.\n');
    expect(childIds(out, "later")).toEqual(["n", "paragraph"]);
  });

  it("a heading inside a directive has no children of its own: parent_missing", () => {
    expect(rejects('::box{id="b"}\n# Inner\ntext\n::\n', { op: "add_block", parent: "inner", content: FRAG })).toBe("parent_missing");
  });

  it("keeps CRLF and a missing final line break", () => {
    expect(ok("# Plan\r\n\r\nIntro.", { op: "add_block", parent: "plan", content: FRAG })).toBe('# Plan\r\n\r\nIntro.\r\n\r\n::note{id="n"}\r\nNew.\r\n::');
  });
});

describe("move_block between sections and directives", () => {
  it("moves a top-level directive into a section", () => {
    const src = '::claim{id="m"}\nMoved.\n::\n\n# Plan\n\nIntro.\n';
    const out = ok(src, { op: "move_block", id: "m", parent: "plan" });
    expect(out).toBe('# Plan\n\nIntro.\n\n::claim{id="m"}\nMoved.\n::\n');
    expect(childIds(out, "plan")).toEqual(["paragraph", "m"]);
  });

  it("moves a nested directive out to a section at 2 colons, its own children shifted too", () => {
    const src = '# Plan\n\n::box{id="b"}\n:::claim{id="m"}\n::::note{id="x"}\ninner\n::::\n:::\n::\n\n# Other\n';
    const out = ok(src, { op: "move_block", id: "m", parent: "other" });
    expect(out).toBe('# Plan\n\n::box{id="b"}\n::\n\n# Other\n\n::claim{id="m"}\n:::note{id="x"}\ninner\n:::\n::\n');
    expect(childIds(out, "other")).toEqual(["m"]);
  });

  it("moves a section's block into a directive, re-fenced one deeper", () => {
    const src = '# Plan\n\n::claim{id="m"}\nMoved.\n::\n\n::box{id="b"}\n::\n';
    const out = ok(src, { op: "move_block", id: "m", parent: "b" });
    expect(out).toBe('# Plan\n\n::box{id="b"}\n:::claim{id="m"}\nMoved.\n:::\n::\n');
  });

  it("reorders inside one section (position counted after removal)", () => {
    const src = '# Plan\n\n::a{id="a"}\n::\n\n::b{id="b"}\n::\n\n::c{id="c"}\n::\n';
    expect(ok(src, { op: "move_block", id: "c", parent: "plan", position: 0 })).toBe('# Plan\n\n::c{id="c"}\n::\n\n::a{id="a"}\n::\n\n::b{id="b"}\n::\n');
    expect(ok(src, { op: "move_block", id: "a", parent: "plan", position: 2 })).toBe('# Plan\n\n::b{id="b"}\n::\n\n::c{id="c"}\n::\n\n::a{id="a"}\n::\n');
  });

  it("still refuses a heading section as the block to move", () => {
    expect(rejects("# A\n\n# B\n", { op: "move_block", id: "a", parent: "b" })).toBe("target_missing");
  });
});

describe("targets stay directive-only (§A.3)", () => {
  it("replace_block, delete_block, update_attribute on a heading section: target_missing", () => {
    expect(rejects("# A\n", { op: "replace_block", id: "a", content: FRAG })).toBe("target_missing");
    expect(rejects("# A\n", { op: "delete_block", id: "a" })).toBe("target_missing");
    expect(rejects("# A\n", { op: "update_attribute", id: "a", key: "k", value: 1 })).toBe("target_missing");
  });
});
