/**
 * Incremental re-parsing: for any edit of a document, reparseEdited(parse(old), new)
 * gives exactly the tree parse(new) gives — nodes, spans, ids, aliases, problems.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSnapshot } from "./helpers/parse-snapshot.js";
import { parseNoma, type NomaDocument } from "../../../src/internal.js";
import { reparseEdited } from "../../../src/noma/reparse/reparse-edited.js";
import { applyPatch } from "../../../src/patch/apply-patch.js";

const LINES = [
  "# Title",
  '## Sub {id="sub"}',
  "",
  "",
  "para line",
  "more [[k0]] prose",
  '::claim{id="k0"}',
  '::note{id="k1" for="k0"}',
  ':::inner{id="k2"}',
  ":::",
  "::",
  "```",
  "```js",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "- item",
  "1. one",
  "> quote",
  "---",
  '::section{id="s"}',
  "## Same",
  "### Same",
  '## Same {aliases="al1"}',
  '::note{id="k1" aliases="a1,a2"}',
  '::note{aliases="a1"}',
  "#### Inner heading",
  "## [[k0]] linked",
];
const lineArb = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const docArb = fc
  .tuple(fc.array(lineArb, { maxLength: 40 }), fc.boolean(), fc.boolean())
  .map(([lines, fm, trailing]) => (fm ? "---\ntitle: t\naliases: [fm1]\n---\n" : "") + lines.join("\n") + (trailing ? "\n" : ""));

const snapshot = (doc: NomaDocument): unknown => parseSnapshot(doc, { walk: true });

function canonical(text: string): unknown {
  return snapshot(parseNoma(text));
}

describe("reparseEdited", () => {
  it("equals a full parse after any line-level edit", () => {
    fc.assert(
      fc.property(docArb, fc.nat(), fc.nat(3), fc.array(lineArb, { maxLength: 4 }), (src, at, remove, insert) => {
        const lines = src.split("\n");
        const i = lines.length === 0 ? 0 : at % lines.length;
        const edited = [...lines];
        edited.splice(i, remove, ...insert);
        const next = edited.join("\n");
        const incremental = reparseEdited(parseNoma(src), next);
        expect(snapshot(incremental)).toEqual(canonical(next));
        expect(incremental.source).toBe(next);
        expect([...incremental.lineStarts]).toEqual([...parseNoma(next).lineStarts]);
      }),
      { numRuns: Number(process.env.NR_RUNS ?? 2000) },
    );
  });

  it("equals a full parse after any character-level edit, CRLF included", () => {
    fc.assert(
      fc.property(
        docArb,
        fc.constantFrom("\n", "\r\n"),
        fc.nat(),
        fc.nat(6),
        fc.constantFrom("", "x", "\n", "::", "```\n", "# H\n", "\n\n", "[[k1]]", "}"),
        (src0, eol, at, remove, insert) => {
          const src = src0.replace(/\n/g, eol);
          const i = src.length === 0 ? 0 : at % (src.length + 1);
          const next = src.slice(0, i) + insert + src.slice(i + remove);
          const incremental = reparseEdited(parseNoma(src), next);
          expect(snapshot(incremental)).toEqual(canonical(next));
        },
      ),
      { numRuns: Number(process.env.NR_RUNS ?? 2000) },
    );
  });

  it("equals a full parse after every edit of a chain (the tree it splices is itself spliced)", () => {
    const HEADINGS = ["# One", '# Two {aliases="t2"}', "## Sub", "## Sub", "### Deep", "#### Deeper", "## [[k0]] linked", '### Deep {id="dd"}'];
    const chainLine = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...LINES) },
      { weight: 2, arbitrary: fc.constantFrom(...HEADINGS) },
      { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
    );
    const chainDoc = fc
      .tuple(fc.array(chainLine, { maxLength: 50 }), fc.boolean())
      .map(([lines, fm]) => `${(fm ? "---\ntitle: t\naliases: [fm1]\n---\n" : "") + lines.join("\n")}\n`);
    const edit = fc.tuple(fc.nat(), fc.nat(3), fc.array(chainLine, { maxLength: 3 }));
    fc.assert(
      fc.property(chainDoc, fc.array(edit, { minLength: 1, maxLength: 8 }), (src, edits) => {
        let doc = parseNoma(src);
        let text = src;
        for (const [at, remove, insert] of edits) {
          const lines = text.split("\n");
          const i = at % lines.length;
          lines.splice(i, remove, ...insert);
          text = lines.join("\n");
          doc = reparseEdited(doc, text);
          expect(snapshot(doc)).toEqual(canonical(text));
        }
      }),
      { numRuns: Number(process.env.NR_RUNS ?? 1500) },
    );
  });

  it("is what the patch engine uses between ops: results equal the op-by-op full-parse results", () => {
    const src = Array.from({ length: 50 }, (_, i) => `::claim{id="c${i}"}\nClaim ${i}.\n::\n`).join("\n");
    const ops = Array.from({ length: 30 }, (_, k) =>
      k % 3 === 0
        ? { op: "delete_block", id: `c${k}` }
        : k % 3 === 1
          ? { op: "update_attribute", id: `c${k}`, key: "n", value: k }
          : { op: "add_comment", id: `cm${k}`, target: `c${k}`, content: "ok" },
    );
    let sequential = src;
    for (const op of ops) sequential = applyPatch(sequential, [op]).text;
    expect(applyPatch(src, ops).text).toBe(sequential);
  });
});
