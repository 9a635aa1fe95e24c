/**
 * renderNoma: the normalised source form (Annex C.3) and its fixed-point property.
 */
import { describe, expect, it } from "vitest";
import { documentStructure, parseNoma, renderNoma } from "../../src/internal.js";

const render = (src: string): string => renderNoma(parseNoma(src));

describe("renderNoma", () => {
  it("joins blocks with one blank line and ends with exactly one newline", () => {
    expect(render("# A\ntext\n- item\n\n\n\n")).toBe("# A\n\ntext\n\n- item\n");
    expect(render("")).toBe("");
  });

  it("keeps frontmatter raw", () => {
    expect(render("---\ntitle:   spaced\n---\n# A\n")).toBe("---\ntitle:   spaced\n---\n\n# A\n");
  });

  it("writes {id=…} only when the parser would not derive that id", () => {
    expect(render("# Intro\n")).toBe("# Intro\n");
    expect(render('# Intro {id="intro"}\n')).toBe("# Intro\n");
    expect(render('# Intro {id="start"}\n')).toBe('# Intro {id="start"}\n');
    // An id other than the title's plain slug is written, a collision suffix included (§B).
    expect(render("# A\n# A\n")).toBe('# A\n\n# A {id="a-2"}\n');
    expect(render('# A\n# A {id="a-2"}\n')).toBe('# A\n\n# A {id="a-2"}\n');
    expect(render("# A\n# A\n# A-2\n# A\n")).toBe('# A\n\n# A {id="a-2"}\n\n# A-2 {id="a-2-2"}\n\n# A {id="a-3"}\n');
    expect(render('::box\n# A {id="a"}\n# A {id="x"}\n::\n')).toBe('::box\n# A\n\n# A {id="x"}\n::\n');
    // An explicit id equal to an already-taken slug must stay explicit to keep the ids.
    const twice = '# Intro\n# Intro {id="intro"}\n';
    expect(parseNoma(render(twice)).ids).toEqual(parseNoma(twice).ids);
  });

  it("renumbers ordered lists from 1 and writes unordered items with -", () => {
    expect(render("3. a\n7. b\n\n* x\n- y\n")).toBe("1. a\n2. b\n\n- x\n- y\n");
  });

  it("re-aligns tables (width = longest cell, at least 3 dashes per separator cell)", () => {
    expect(render("| Name | Score |\n|:-----|------:|\n| Alice | 92 |\n| Bob   | 88 |\n")).toBe(
      "| Name  | Score |\n| :---- | ----: |\n| Alice | 92    |\n| Bob   | 88    |\n",
    );
    expect(render("| a | b |\n|:-:|-|\n")).toBe("| a     | b   |\n| :---: | --- |\n");
  });

  it("re-fences directives by nesting depth with attributes in source order", () => {
    expect(render(':::::claim{b=1 id="c" flag x=false}\nbody\n:::::\n')).toBe('::claim{b=1 id="c" flag x=false}\nbody\n::\n');
    expect(render("::a\n::::b\nx\n::::\n::\n")).toBe("::a\n:::b\nx\n:::\n::\n");
  });

  it("quotes strings containing double quotes with single quotes", () => {
    expect(render("::a{t='say \"hi\"'}\n::\n")).toBe("::a{t='say \"hi\"'}\n::\n");
  });

  it("keeps a paragraph line that would read as a fence once re-fenced a paragraph line", () => {
    const src = ":::a\n::b\n::\n:::\n";
    const once = render(src);
    expect(documentStructure(parseNoma(once)).children).toHaveLength(1);
    expect(render(once)).toBe(once);
  });

  it("does not turn a leading thematic break into a frontmatter fence", () => {
    const out = render("***\n\ntext\n\n---\n");
    expect(out).toBe("***\n\ntext\n\n---\n");
    expect(parseNoma(out).frontmatter).toBeUndefined();
  });

  it("closes what the source left open", () => {
    expect(render("::note\ntext\n")).toBe("::note\ntext\n::\n");
  });
});
