/**
 * read_doc's chunked join (src/mcp/join-in-chunks.ts) against the slow path it replaces, `map` + one
 * `join`: for any strings and chunk size (property), and read_doc's whole answer against the old
 * path's (every selected block's JSON.stringify(blockSummary(…)) joined once) on generated documents
 * of more than one chunk and on every document of the conformance corpora.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CHUNK_ITEMS, joinInChunks } from "../../src/mcp/join-in-chunks.js";
import { blockSummary, outlineEntry, readDocAnswer, selectBlocks } from "../../src/mcp/read-doc-answer.js";
import type { NomaDocument } from "../../src/noma/ast.js";
import { parseNoma } from "../../src/noma/parse-noma.js";
import { OURS, UPSTREAM, upstreamPresent } from "../conformance/corpus.js";

const SHA = "ab".repeat(32);

/** The answer as read_doc wrote it before the chunked join. */
function oldAnswer(doc: NomaDocument, view: "full" | "outline"): string {
  const items = selectBlocks(doc, view, undefined, "d.noma").map((n) => JSON.stringify(view === "outline" ? outlineEntry(n) : blockSummary(doc, n)));
  return `{"sha256":${JSON.stringify(SHA)},"blocks":[${items.join(",")}]}`;
}

function nomaFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return nomaFiles(p);
      return name.endsWith(".noma") ? [p] : [];
    });
}

const word = fc.string({ unit: fc.constantFrom("a", "Z", "é", "😀", " ", "'", '"', "\\", "\u2028", "<"), maxLength: 10 });
const piece = fc.oneof(
  fc.tuple(fc.integer({ min: 1, max: 4 }), word).map(([d, t]) => `${"#".repeat(d)} ${t.trim() || "T"} {#s}`),
  fc
    .tuple(fc.constantFrom("claim", "evidence", "note"), word, word)
    .map(([name, v, body]) => `::${name}{id="d" owner="${v.replace(/["\\]/g, "")}" n=2}\n${body.trim() || "x"}\n::`),
  fc.constantFrom(
    "Plain words.",
    "- a\n- b",
    "1. one",
    "```js\nx\n```",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    '::table{id="d" header}\nA | B\n1 | 2\n::',
    "> quote",
  ),
);

describe("joinInChunks", () => {
  it("writes what map + join writes, for any items, start and chunk size (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string(), { maxLength: 40 }),
        fc.nat(45),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(",", "", ";;"),
        (xs, from, size, sep) => {
          expect(joinInChunks(xs, from, (x) => `<${x}>`, sep, size)).toBe(
            xs
              .slice(from)
              .map((x) => `<${x}>`)
              .join(sep),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it("read_doc's answer is byte-identical to the old path on generated documents of several chunks (property)", () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.integer({ min: 40, max: 120 }), (pieces, copies) => {
        let n = 0;
        const one = pieces.join("\n\n");
        const text = `${Array.from({ length: copies }, () => one)
          .join("\n\n")
          .replace(/\{#s\}/g, () => `{#s${n++}}`)
          .replace(/id="d"/g, () => `id="d${n++}"`)}\n`;
        const doc = parseNoma(text);
        for (const view of ["full", "outline"] as const) expect(readDocAnswer(doc, SHA, { view }, "d.noma")).toBe(oldAnswer(doc, view));
      }),
      { numRuns: 25 },
    );
  });

  it("a generated document of more than CHUNK_ITEMS blocks really takes several chunks", () => {
    const text = `${Array.from({ length: CHUNK_ITEMS + 7 }, (_, i) => `::note{id="n${i}"}\nText ${i}.\n::`).join("\n\n")}\n`;
    const doc = parseNoma(text);
    expect(selectBlocks(doc, "full", undefined, "d.noma").length).toBeGreaterThan(2 * CHUNK_ITEMS);
    expect(readDocAnswer(doc, SHA, {}, "d.noma")).toBe(oldAnswer(doc, "full"));
  });

  const corpora = [OURS, ...(upstreamPresent ? [UPSTREAM] : [])];
  const files = corpora.flatMap((root) => nomaFiles(root));
  it("read_doc's answer is byte-identical to the old path on every document of the conformance corpora, one by one and all joined", () => {
    expect(files.length).toBeGreaterThan(upstreamPresent ? 72 : 0);
    const texts = files.map((f) => readFileSync(f, "utf8"));
    for (const [i, text] of texts.entries()) {
      const doc = parseNoma(text);
      for (const view of ["full", "outline"] as const) expect(readDocAnswer(doc, SHA, { view }, files[i]!), files[i]).toBe(oldAnswer(doc, view));
    }
    const all = parseNoma(texts.join("\n\n"));
    expect(selectBlocks(all, "full", undefined, "all.noma").length).toBeGreaterThan(CHUNK_ITEMS);
    for (const view of ["full", "outline"] as const) expect(readDocAnswer(all, SHA, { view }, "all.noma")).toBe(oldAnswer(all, view));
  });
});
