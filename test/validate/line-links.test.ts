/**
 * collectLineLinks reads wikilinks off a line by hand. Its definition is a regular
 * expression over the line with its code spans blanked (each backtick pairs with the next
 * one): the property tests compare the two on lines made of the characters that matter.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectLineLinks, scanLineLinks, type Facts } from "../../src/validate/collect-facts.js";

const WIKILINK = /\[\[([^\]|\n]+)(?:\|[^\]\n]*)?\]\]/g;
const TARGET = /^[A-Za-z_][\w\-./:]*$/;

/** The definition: blank `code spans`, then every match whose target is a valid id. */
function byDefinition(line: string): Array<[string, number]> {
  const masked = line.replace(/`[^`]*`/g, (m) => " ".repeat(m.length));
  const out: Array<[string, number]> = [];
  for (const m of masked.matchAll(WIKILINK)) if (TARGET.test(m[1]!)) out.push([m[1]!, m.index! + 1]);
  return out;
}

function byScanner(line: string): Array<[string, number]> {
  const sink: Facts = { directives: [], refs: [], wikilinks: [] };
  collectLineLinks(sink, line, { pos: { line: 7 } }, 2, null);
  for (const w of sink.wikilinks) {
    expect(w.anchor.pos.line + w.rel).toBe(9);
    expect(w.owner).toBeNull();
  }
  return sink.wikilinks.map((w) => [w.target, w.column]);
}

describe("collectLineLinks", () => {
  it("finds what the regular expression finds on the line with code spans blanked", () => {
    const piece = fc.constantFrom("[[", "]]", "[", "]", "|", "`", "a", "b1", "_x", "x-y", "a/b", "a.b:c", " ", "é", "\t", "9");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const line = parts.join("");
        expect(byScanner(line)).toEqual(byDefinition(line));
      }),
      { numRuns: 20000 },
    );
  });

  it("on arbitrary text too", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 60 }).map((s) => s.replace(/\n/g, " ")),
        (line) => {
          expect(byScanner(`[[${line}]]`)).toEqual(byDefinition(`[[${line}]]`));
          expect(byScanner(line)).toEqual(byDefinition(line));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("reads a line in place inside a longer text: nothing before or after the line counts", () => {
    const piece = fc.constantFrom("[[", "]]", "[", "]", "|", "`", "a", "b1", "_x", " ", "x-y");
    const lineArb = fc.array(piece, { maxLength: 16 }).map((p) => p.join(""));
    fc.assert(
      fc.property(lineArb, lineArb, lineArb, (before, line, after) => {
        const text = before + line + after;
        const from = before.length;
        const to = from + line.length;
        const tick = text.indexOf("`", from);
        const out: number[] = [];
        const n = scanLineLinks(text, from, to, tick, out);
        const found: Array<[string, number]> = [];
        for (let k = 0; k < n; k += 2) found.push([text.slice(out[k], out[k + 1]), out[k]! - from - 1]);
        expect(found).toEqual(byDefinition(line));
      }),
      { numRuns: 10000 },
    );
  });

  it("examples", () => {
    expect(byScanner("see `[[x]]` and [[y]]")).toEqual([["y", 17]]);
    expect(byScanner("[[a|label]] [[b]] [[not valid]] [[[c]]")).toEqual([
      ["a", 1],
      ["b", 13],
    ]);
    expect(byScanner("one ` tick [[z]]")).toEqual([["z", 12]]);
    expect(byScanner("[[a`]]` x")).toEqual([]);
  });
});
