/**
 * read_doc's fast block JSON (src/mcp/block-summary-json.ts) against the slow path it replaces:
 * JSON.stringify of the summary objects, for every block of generated documents (property).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { blockSummaryJson, outlineEntryJson } from "../../src/mcp/block-summary-json.js";
import { blockSummary, outlineEntry } from "../../src/mcp/read-doc-answer.js";
import type { BlockNode } from "../../src/noma/ast.js";
import { parseNoma } from "../../src/noma/parse-noma.js";
import { walkBlocks } from "../../src/noma/walk.js";

const word = fc.string({ unit: fc.constantFrom("a", "Z", "é", "😀", " ", "'", "\\", "\u2028", "<"), maxLength: 12 });
const attr = fc.tuple(
  fc.constantFrom("owner", "confidence", "__proto__", "1", "for", "x-y", "aliases", "header", "ok"),
  fc.oneof(
    word.map((w) => `"${w}"`),
    fc.constantFrom("0.5", "42", "-3", "1e21", "true", "false", "bare"),
  ),
);
const piece = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 4 }), word, fc.boolean()).map(([d, t, id]) => `${"#".repeat(d)} ${t || "T"}${id ? ` {#s${d}}` : ""}`),
  fc
    .tuple(fc.constantFrom("claim", "evidence", "note", "section"), fc.boolean(), fc.array(attr, { maxLength: 4 }), word)
    .map(([name, withId, attrs, body]) => `::${name}{${withId ? 'id="d" ' : ""}${attrs.map(([k, v]) => `${k}=${v}`).join(" ")}}\n${body || "x"}\n::`),
  fc.constantFrom(
    "Plain words.",
    "- a\n- b",
    "1. one",
    "```js\nx\n```",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    '::table{id="t" header}\nA | B\n1 | 2\n::',
    "> quote",
  ),
  word,
);

describe("blockSummaryJson / outlineEntryJson", () => {
  it("write what JSON.stringify writes of the summary objects, for every block (property)", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        let n = 0;
        const doc = parseNoma(`${pieces.map((p) => p.replace(/id="d"/g, () => `id="d${n++}"`).replace(/\{#s(\d)\}/g, () => `{#s${n++}}`)).join("\n\n")}\n`);
        const nodes: BlockNode[] = [];
        walkBlocks(doc, (node) => {
          nodes.push(node);
        });
        for (const node of nodes) {
          expect(blockSummaryJson(doc, node)).toBe(JSON.stringify(blockSummary(doc, node)));
          expect(outlineEntryJson(node)).toBe(JSON.stringify(outlineEntry(node)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it("keeps an attribute named __proto__ (both paths)", () => {
    const doc = parseNoma('::claim{id="c" __proto__="x" n=2}\nT\n::\n');
    const node = doc.children[0]!;
    expect(JSON.parse(blockSummaryJson(doc, node)).attrs).toEqual(JSON.parse('{"__proto__":"x","n":2}'));
    expect(blockSummaryJson(doc, node)).toBe(JSON.stringify(blockSummary(doc, node)));
  });
});
