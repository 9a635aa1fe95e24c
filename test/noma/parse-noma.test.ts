/**
 * The parser: node types and their exact Tier-1 spans (§6.3), frontmatter,
 * directives and close matching, code-fence suppression (§6.4), sections,
 * slugs and collision suffixes (§6.5), ids and aliases (§2.1–2.2), attribute
 * coercion, line endings, and Tier-2 recovery.
 */
import { describe, expect, it } from "vitest";
import { parseNoma, documentStructure, walkBlocks, slugify, type BlockNode, type NomaDocument } from "../../src/internal.js";
import { directiveAttrTokens } from "../../src/noma/parse-noma.js";

function spans(doc: NomaDocument): Array<[string, number, number]> {
  const out: Array<[string, number, number]> = [];
  walkBlocks(doc, (n) => {
    out.push([n.type === "directive" ? `::${n.name}` : n.type, n.pos.line, n.endLine]);
  });
  return out;
}

function first(doc: NomaDocument): BlockNode {
  expect(doc.children.length).toBeGreaterThan(0);
  return doc.children[0]!;
}

describe("spans per node type (§6.3)", () => {
  it("document: line 1 to the last physical line, without the trailing-newline artifact", () => {
    expect(parseNoma("a\nb\n").endLine).toBe(2);
    expect(parseNoma("a\nb").endLine).toBe(2);
    expect(parseNoma("a\nb\n\n").endLine).toBe(3);
    expect(parseNoma("a\nb\n").pos.line).toBe(1);
  });

  it("implicit sections end on the line before the next heading of the same or shallower depth", () => {
    const doc = parseNoma("# A\n\ntext\n\n## B\n\nb text\n\n### C\n\n## D\n\n# E\nlast\n");
    expect(spans(doc)).toEqual([
      ["section", 1, 12],
      ["paragraph", 3, 3],
      ["section", 5, 10],
      ["paragraph", 7, 7],
      ["section", 9, 10],
      ["section", 11, 12],
      ["section", 13, 14],
      ["paragraph", 14, 14],
    ]);
  });

  it("the last section runs to the document's last line, trailing blank lines included", () => {
    const doc = parseNoma("# A\n\ntext\n\n\n");
    expect(spans(doc)[0]).toEqual(["section", 1, 5]);
  });

  it("directives, explicit sections and code fences span opening to closing fence", () => {
    const doc = parseNoma('::section{id="s"}\n## Inner\n\n```js\n::not{id="x"}\n```\n::\n');
    expect(spans(doc)).toEqual([
      ["::section", 1, 7],
      ["section", 2, 2],
      ["code", 4, 6],
    ]);
  });

  it("paragraphs, lists, list items, quotes, thematic breaks and tables", () => {
    const doc = parseNoma("para one\npara two\n\n- a\n- b\n\n> q1\n> q2\n\n---\n\n| h | i |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n");
    expect(spans(doc)).toEqual([
      ["paragraph", 1, 2],
      ["list", 4, 5],
      ["quote", 7, 8],
      ["thematic_break", 10, 10],
      ["table", 12, 15],
    ]);
    const list = doc.children[1]!;
    expect(list.type).toBe("list");
    if (list.type === "list")
      expect(list.children.map((i) => [i.pos.line, i.endLine])).toEqual([
        [4, 4],
        [5, 5],
      ]);
  });

  it("frontmatter spans line 1 to its closing fence", () => {
    const doc = parseNoma("---\ntitle: x\n---\n# T\n");
    expect(doc.frontmatter?.pos.line).toBe(1);
    expect(doc.frontmatter?.endLine).toBe(3);
    expect(doc.frontmatter?.data).toEqual({ title: "x" });
    expect(spans(doc)).toEqual([["section", 4, 4]]);
  });
});

describe("frontmatter", () => {
  it("allows trailing spaces on the fences", () => {
    expect(parseNoma("---  \na: 1\n--- \n").frontmatter?.data).toEqual({ a: 1 });
  });

  it("without a closing fence, line 1 is a thematic break", () => {
    const doc = parseNoma("---\ntext\n");
    expect(doc.frontmatter).toBeUndefined();
    expect(first(doc).type).toBe("thematic_break");
  });

  it("a BOM before --- prevents frontmatter", () => {
    const doc = parseNoma("\uFEFF---\na: 1\n---\n");
    expect(doc.frontmatter).toBeUndefined();
  });

  it("invalid YAML is one parse-origin error with the document line of the YAML error", () => {
    const doc = parseNoma("---\ntitle: ok\nbad: [unclosed\n---\n# T\n");
    expect(doc.problems).toHaveLength(1);
    expect(doc.problems[0]).toMatchObject({ severity: "error", code: "invalid-frontmatter" });
    expect(doc.problems[0]!.line).toBe(3);
    expect(doc.problems[0]!.message).not.toContain("\n");
    expect(doc.ids).toEqual(["t"]);
  });

  it("a non-mapping frontmatter is an error, not a crash", () => {
    const doc = parseNoma("---\n- a\n- b\n---\n");
    expect(doc.problems.map((p) => p.code)).toEqual(["invalid-frontmatter"]);
    expect(doc.frontmatter?.data).toBeUndefined();
  });
});

describe("directives", () => {
  it("recognises names with - and ::-joined segments, attributes from the first { to the last }", () => {
    const doc = parseNoma('::ns::my-block{id="a" note="x}y"}\nbody\n::\n');
    const d = first(doc);
    expect(d.type === "directive" && d.name).toBe("ns::my-block");
    expect(d.type === "directive" && d.attrs).toEqual({ id: "a", note: "x}y" });
    expect(d.type === "directive" && d.body).toBe("body");
  });

  it("anything after the name other than {…} makes the line a paragraph", () => {
    expect(first(parseNoma("::claim extra\n::\n")).type).toBe("paragraph");
    expect(first(parseNoma("::claim{a} trailing\n")).type).toBe("paragraph");
    expect(first(parseNoma("::9claim\n")).type).toBe("paragraph");
  });

  it("children need more colons than their parent; openers with fewer or equal colons are prose", () => {
    const doc = parseNoma(":::outer\n::inner\ntext\n:::\n");
    const outer = first(doc);
    expect(outer.type === "directive" && outer.children.map((c) => c.type)).toEqual(["paragraph"]);
    expect(outer.type === "directive" && outer.body).toBe("::inner\ntext");
  });

  it("the close is the first later line of exactly as many colons, skipping code fences", () => {
    const doc = parseNoma("::a\n```\n::\n```\n:::\n::\n");
    expect(spans(doc)).toEqual([
      ["::a", 1, 6],
      ["code", 2, 4],
      ["paragraph", 5, 5],
    ]);
  });

  it("nests by colon count", () => {
    const doc = parseNoma('::section{id="s"}\n:::claim{id="c"}\ntext\n:::\n\n:::evidence{id="e" for="c"}\nok\n:::\n::\n');
    expect(spans(doc)).toEqual([
      ["::section", 1, 9],
      ["::claim", 2, 4],
      ["paragraph", 3, 3],
      ["::evidence", 6, 8],
      ["paragraph", 7, 7],
    ]);
    expect(doc.ids).toEqual(["s", "c", "e"]);
  });

  it("more than 64 colons is a paragraph", () => {
    expect(first(parseNoma(`${":".repeat(65)}x\n`)).type).toBe("paragraph");
    expect(first(parseNoma(`${":".repeat(64)}x\n${":".repeat(64)}\n`)).type).toBe("directive");
  });

  it("a stray close line is a paragraph", () => {
    const doc = parseNoma("::\n");
    expect(first(doc)).toMatchObject({ type: "paragraph", text: "::" });
  });

  it("body is set only when the only child is a paragraph", () => {
    const d1 = first(parseNoma("::note\n- a\n::\n"));
    expect(d1.type === "directive" && d1.body).toBeUndefined();
    const d2 = first(parseNoma("::note\n::\n"));
    expect(d2.type === "directive" && d2.body).toBeUndefined();
  });

  it("headings inside a directive are one-line childless sections, never suffixed", () => {
    const doc = parseNoma("::a\n## Notes\n\ntext\n::\n\n::b\n## Notes\n::\n\n# Notes\n\n# Notes\n");
    expect(doc.ids).toEqual(["notes", "notes", "notes", "notes-2"]);
    const a = first(doc);
    expect(a.type === "directive" && a.children.map((c) => [c.type, c.pos.line, c.endLine])).toEqual([
      ["section", 2, 2],
      ["paragraph", 4, 4],
    ]);
  });
});

describe("attributes", () => {
  it("coerces every value, quoted or not", () => {
    const d = first(parseNoma('::x{a=true b="false" c=12 d="-3" e=1.5 f=1e5 g=.5 h=+1 i=1. j k=\'q\' l="2024"}\n::\n'));
    expect(d.type === "directive" && d.attrs).toEqual({
      a: true,
      b: false,
      c: 12,
      d: -3,
      e: 1.5,
      f: "1e5",
      g: ".5",
      h: "+1",
      i: "1.",
      j: true,
      k: "q",
      l: 2024,
    });
  });

  it("a numeric id is no id", () => {
    const doc = parseNoma('::x{id="2024"}\n::\n');
    expect(doc.ids).toEqual([]);
  });

  it("a later duplicate wins and text between tokens is skipped", () => {
    const d = first(parseNoma('::x{a=1 , ; a=2 "junk" b}\n::\n'));
    expect(d.type === "directive" && d.attrs).toEqual({ a: 2, junk: true, b: true });
  });

  it("records token offsets on the opening line", () => {
    const line = '::claim{id="c1" confidence=0.5}';
    const doc = parseNoma(`${line}\n::\n`);
    const d = first(doc);
    if (d.type !== "directive") throw new Error("expected a directive");
    const tokens = directiveAttrTokens(doc, d);
    for (const t of tokens) expect(line.slice(t.start, t.end)).toMatch(new RegExp(`^${t.key}`));
    expect(tokens.map((t) => line.slice(t.start, t.end))).toEqual(['id="c1"', "confidence=0.5"]);
  });
});

describe("code fences (§6.4)", () => {
  it("suppress directive recognition inside, at the top level and inside directives", () => {
    const doc = parseNoma('# S\n\n```noma\n::claim{id="example"}\nx\n::\n```\n\n::box{id="b"}\n```\n::\n```\n::\n');
    expect(doc.ids).toEqual(["s", "b"]);
  });

  it("only exactly three backticks with an optional word language open a fence", () => {
    for (const line of ["~~~", "````", "```c++", " ```", "```js x"]) {
      expect(first(parseNoma(`${line}\n::a\n::\n`)).type).not.toBe("code");
    }
    expect(first(parseNoma("```python3\nx\n```\n"))).toMatchObject({ type: "code", lang: "python3", content: "x" });
  });

  it("the next fence-shaped line closes it, whatever its language", () => {
    const doc = parseNoma("```js\na\n```py\nb\n");
    expect(spans(doc)).toEqual([
      ["code", 1, 3],
      ["paragraph", 4, 4],
    ]);
  });

  it("an unclosed fence runs to the end and is a parse-origin error", () => {
    const doc = parseNoma("text\n\n```\n::a\n");
    expect(spans(doc)).toEqual([
      ["paragraph", 1, 1],
      ["code", 3, 4],
    ]);
    expect(doc.problems.map((p) => p.code)).toEqual(["unclosed-code-fence"]);
  });
});

describe("headings, slugs and collision suffixes (§2.1, §6.5)", () => {
  it("slugifies as the reference does", () => {
    expect(slugify("Café Überblick")).toBe("cafe-uberblick");
    expect(slugify("C++ & Rust")).toBe("c-rust");
    expect(slugify("Hello_World")).toBe("helloworld");
    expect(slugify("1. Intro")).toBe("1-intro");
    expect(slugify("日本語")).toBe("");
    expect(slugify("  -Leading and trailing-  ")).toBe("leading-and-trailing");
  });

  it("suffixes implicit ids of top-level headings in document order", () => {
    expect(parseNoma("# A\n# A\n# A-2\n# A\n").ids).toEqual(["a", "a-2", "a-2-2", "a-3"]);
    expect(parseNoma("## Overview\n\n## Overview\n").ids).toEqual(["overview", "overview-2"]);
  });

  it("explicit ids are never suffixed and never enter the suffix set", () => {
    const doc = parseNoma('# A {id="a"}\n# A\n# B {id="a-2"}\n# A\n');
    expect(doc.ids).toEqual(["a", "a", "a-2", "a-2"]);
  });

  it("an empty slug gives no id; #Title and seven hashes are paragraphs", () => {
    expect(parseNoma("# 日本語\n").ids).toEqual([]);
    expect(first(parseNoma("#Title\n")).type).toBe("paragraph");
    expect(first(parseNoma("####### Seven\n")).type).toBe("paragraph");
  });

  it("a trailing {…} is the heading's attribute block", () => {
    const s = first(parseNoma('## Risks and mitigations {id="risks" aliases="r, dangers"}\n'));
    expect(s).toMatchObject({ type: "section", title: "Risks and mitigations", id: "risks", explicitId: true, aliases: ["r", "dangers"] });
  });
});

describe("aliases (§2.2)", () => {
  it("frontmatter aliases attach to the first top-level H1", () => {
    const doc = parseNoma("---\naliases: [demo, intro]\n---\n## Sub\n\n# Root\n");
    expect(Object.fromEntries(doc.aliasesById)).toEqual({ root: ["demo", "intro"] });
    expect(doc.aliasMap.get("demo")).toBe("root");
  });

  it("frontmatter aliases without an H1 are dropped with a warning", () => {
    const doc = parseNoma("---\naliases: x\n---\n## Only H2\n");
    expect(doc.aliasMap.size).toBe(0);
    expect(doc.problems).toEqual([expect.objectContaining({ severity: "warning", code: "frontmatter-aliases-unattached" })]);
  });

  it("directive aliases= register aliases, split on commas and spaces", () => {
    const doc = parseNoma('::claim{id="c" aliases="a,b c"}\n::\n');
    expect(doc.aliasesById.get("c")).toEqual(["a", "b", "c"]);
  });
});

describe("blocks", () => {
  it("lists: - and * merge; ordered runs are separate; * * * is a list item", () => {
    const doc = parseNoma("- a\n* b\n1. c\n2. d\n* * *\n");
    expect(documentStructure(doc).children).toEqual([
      { type: "list", ordered: false, items: ["a", "b"] },
      { type: "list", ordered: true, items: ["c", "d"] },
      { type: "list", ordered: false, items: ["* *"] },
    ]);
  });

  it("pipe tables: alignment, padding and truncation to the header width", () => {
    const t = first(parseNoma("| a | `b|c` | d |\n|:---|---:|:---:|\n| 1 |\n| 1 | 2 | 3 | 4 |\n| x \\| y | z | w |\n"));
    expect(t).toMatchObject({
      type: "table",
      header: ["a", "`b|c`", "d"],
      align: ["left", "right", "center"],
      rows: [
        ["1", "", ""],
        ["1", "2", "3"],
        ["x \\| y", "z", "w"],
      ],
    });
  });

  it("a header and separator with different cell counts parse (no hang)", () => {
    const t = first(parseNoma("| a | b |\n|---|---|---|\n| 1 | 2 |\n"));
    expect(t).toMatchObject({ type: "table", header: ["a", "b"], align: [null, null], rows: [["1", "2"]] });
  });

  it("a row not followed by a separator is a paragraph", () => {
    expect(first(parseNoma("| a | b |\n| 1 | 2 |\n")).type).toBe("paragraph");
  });

  it("block starts interrupt paragraphs", () => {
    const doc = parseNoma("text\n# H\ntext\n- item\ntext\n> q\n");
    expect(spans(doc).map((s) => s[0])).toEqual(["paragraph", "section", "paragraph", "list", "paragraph", "quote"]);
  });
});

describe("line endings", () => {
  it("CRLF and lone CR end lines for parsing; the source is kept byte for byte", () => {
    const src = '# T\r\n\r\n::claim{id="c"}\rbody\r\n::\r\n';
    const doc = parseNoma(src);
    expect(doc.source).toBe(src);
    expect(doc.ids).toEqual(["t", "c"]);
    expect(spans(doc)).toEqual([
      ["section", 1, 5],
      ["::claim", 3, 5],
      ["paragraph", 4, 4],
    ]);
    expect([...doc.lineStarts]).toEqual([0, 5, 7, 23, 29, 33]);
    expect(src.length).toBe(33);
  });
});

describe("Tier-2 recovery", () => {
  it("an unclosed directive runs to the end of its range and is reported", () => {
    const doc = parseNoma('::section{id="s"}\n:::claim{id="c"}\ntext\n::\nafter\n');
    expect(spans(doc)).toEqual([
      ["::section", 1, 4],
      ["::claim", 2, 3],
      ["paragraph", 3, 3],
      ["paragraph", 5, 5],
    ]);
    expect(doc.problems).toEqual([expect.objectContaining({ code: "unclosed-directive", line: 2 })]);
  });

  it("never throws on hostile input", () => {
    for (const src of [
      "",
      "\n",
      "\r",
      "::",
      "{".repeat(10000),
      `# ${"{".repeat(5000)}}`,
      `::a{${"}".repeat(5000)}`,
      "|".repeat(1000),
      "```",
      "---",
      "---\n---",
      "\uFEFF",
      "\u0000\u0001",
    ]) {
      expect(() => parseNoma(src)).not.toThrow();
    }
  });
});
