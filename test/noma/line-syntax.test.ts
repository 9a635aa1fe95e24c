/**
 * The single-line rules the block scanner reads lines with, each checked against a
 * plain definition written with strings and regular expressions: the line index,
 * separator rows, heading and fence lines, attribute lookups.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexLines } from "../../src/noma/index-lines.js";
import { classifyColonLine, parseHeadingLine } from "../../src/noma/line-syntax.js";
import { separatorAlign, separatorCellCount, splitTableRow } from "../../src/noma/table-row.js";
import { getAttr, parseAttributeValues } from "../../src/noma/attributes.js";
import { AttrTokenIndex } from "../../src/noma/attr-token-index.js";

const BREAKS = /\r\n|\r|\n/g;

/** Line starts and content ends by regular expression (no empty line after a final break). */
function linesByDefinition(text: string): { starts: number[]; ends: number[] } {
  const starts: number[] = [];
  const ends: number[] = [];
  let s = 0;
  for (const m of text.matchAll(BREAKS)) {
    starts.push(s);
    ends.push(m.index!);
    s = m.index! + m[0].length;
  }
  if (s < text.length) {
    starts.push(s);
    ends.push(text.length);
  }
  starts.push(text.length);
  return { starts, ends };
}

describe("indexLines", () => {
  it("equals the regular-expression split, for LF, CRLF, CR and mixed breaks", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("a", "bc", "\n", "\r\n", "\r", "", " "), { maxLength: 30 }), (parts) => {
        const text = parts.join("");
        const got = indexLines(text);
        const want = linesByDefinition(text);
        expect([...got.starts]).toEqual(want.starts);
        expect([...got.ends]).toEqual(want.ends);
      }),
      { numRuns: 5000 },
    );
  });

  it("grows its arrays for texts of many short lines", () => {
    const text = `${"\n".repeat(100_000)}x`;
    const { starts, ends } = indexLines(text);
    expect(ends.length).toBe(100_001);
    expect(starts[100_000]).toBe(100_000);
    expect(ends[100_000]).toBe(100_001);
  });
});

describe("separatorCellCount", () => {
  it("is the number of cells separatorAlign finds, without making strings", () => {
    const piece = fc.constantFrom("|", "-", ":", " ", "\t", "\u00a0", "`", "\\", "a", "--", "|:-", "-:|");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (parts) => {
        const line = parts.join("");
        const padded = `xx${line}yy`;
        expect(separatorCellCount(padded, 2, 2 + line.length)).toBe(separatorAlign(line)?.length ?? 0);
      }),
      { numRuns: 20000 },
    );
  });

  it("examples", () => {
    expect(separatorCellCount("|:---|--:|", 0, 10)).toBe(2);
    expect(separatorCellCount("|---|", 0, 5)).toBe(0);
    expect(splitTableRow("| a | b |")).toEqual(["a", "b"]);
  });
});

describe("line rules", () => {
  const piece = fc.constantFrom("#", "##", " ", "\t", "{", "}", 'id="x"', "::", ":", "a", "b-c", "\u00a0", "\u2003", "x::y", "=");

  it("a heading's title and attribute block are the trimmed text around a final {…} without } inside", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (parts) => {
        const line = parts.join("");
        const h = parseHeadingLine(line);
        const m = /^(#{1,6})[ \t]/.exec(line);
        if (m === null) {
          expect(h).toBeNull();
          return;
        }
        const rest = line
          .slice(m[1]!.length + 1)
          .trimEnd()
          .replace(/^[ \t]+/, "");
        const block = /\{([^}]*)\}$/.exec(rest);
        expect(h!.depth).toBe(m[1]!.length);
        if (block === null) {
          expect(h!.inner).toBeUndefined();
          expect(h!.title).toBe(rest);
          return;
        }
        expect(h!.inner).toBe(block[1]);
        expect(line.slice(h!.innerOffset!, h!.innerOffset! + block[1]!.length)).toBe(block[1]);
        expect(h!.title).toBe(rest.slice(0, block.index).trimEnd());
      }),
      { numRuns: 10000 },
    );
  });

  it("a fence line is 2–64 colons, then a name and an optional {…} block, or nothing", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (parts) => {
        const line = `::${parts.join("")}`;
        const c = classifyColonLine(line);
        const close = /^(:{2,64})[ \t]*$/.exec(line);
        const open = /^(:{2,64})[ \t]*([A-Za-z_][\w-]*(?:::[A-Za-z_][\w-]*)*)[ \t]*(?:\{(.*)\}[ \t]*)?$/s.exec(line);
        if (close !== null) expect(c).toEqual({ kind: "close", colons: close[1]!.length });
        else if (open !== null) {
          expect(c?.kind).toBe("open");
          expect(c?.colons).toBe(open[1]!.length);
          expect(c?.name).toBe(open[2]);
          expect(c?.inner).toBe(open[3]);
        } else expect(c).toBeNull();
      }),
      { numRuns: 10000 },
    );
  });

  it("the token index reads what the attribute object holds, while scanning and later", () => {
    const tok = fc.constantFrom('id="a"', "id='b c'", "for=x", "n=12", "f=0.5", "t=true", "flag", " ", "=", '"', "id=", 'for="unclosed', "-", "z-9=q");
    const keys = ["id", "for", "n", "f", "t", "flag", "z-9", "absent"];
    fc.assert(
      fc.property(fc.array(tok, { maxLength: 8 }), (parts) => {
        const inner = parts.join(" ");
        const attrs = parseAttributeValues(inner);
        const index = new AttrTokenIndex();
        const out: unknown[] = [];
        index.scan(`{${inner}}`, 1, 1 + inner.length, keys, out as never);
        expect(out).toEqual(keys.map((k) => getAttr(attrs, k)));
        // A run recorded while reading two keys answers every key later.
        const before = index.scan("{}", 1, 1, ["id"], [] as never);
        const scanned: unknown[] = [];
        const run = index.scan(`{${inner}}`, 1, 1 + inner.length, ["for", "t"], scanned as never);
        expect(scanned).toEqual([getAttr(attrs, "for"), getAttr(attrs, "t")]);
        for (const k of keys) expect(index.value(`{${inner}}`, run, k)).toEqual(getAttr(attrs, k));
        expect(index.value("{}", before, "id")).toBeUndefined();
      }),
      { numRuns: 5000 },
    );
  });

  it("the token index keeps every run as it grows", () => {
    const index = new AttrTokenIndex();
    const text = Array.from({ length: 3000 }, (_, i) => `{id="x${i}" n=${i} flag}`).join("");
    const runs: number[] = [];
    let at = 0;
    for (let i = 0; i < 3000; i++) {
      const from = text.indexOf("{", at) + 1;
      at = text.indexOf("}", from);
      runs.push(index.scan(text, from, at, ["id"], [] as never));
    }
    for (let i = 0; i < 3000; i += 7) {
      expect(index.value(text, runs[i]!, "id")).toBe(`x${i}`);
      expect(index.value(text, runs[i]!, "n")).toBe(i);
      expect(index.value(text, runs[i]!, "flag")).toBe(true);
    }
  });
});
