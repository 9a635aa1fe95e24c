/**
 * reparseCompactLine: a one-shot patch that edits within a directive's opening line takes
 * the result's block table from the original's instead of parsing the result. Whenever it
 * answers, the document equals `parseNoma(next)` — tree, ids, aliases, problems — and
 * validates to the same diagnostics (read from the updated table in place, as the patch
 * engine validates it); when the edit is of another shape it declines and leaves the
 * original untouched. And it does answer for attribute edits.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSnapshot } from "./helpers/parse-snapshot.js";
import { applyPatch, astToJson, parseNoma, validateNoma, type NomaDocument } from "../../../src/internal.js";
import { reparseCompactLine } from "../../../src/noma/reparse/reparse-compact-line.js";

const LINES = [
  "# Title",
  '## Sub {id="sub"}',
  "",
  "para line with [[k0]] and [[gone]]",
  '::claim{id="k0" confidence=0.5}',
  "A claim.",
  "::",
  '::evidence{id="e0" for="k0"}',
  "It holds.",
  "::",
  '::note{id="k1" for="k0" aliases="a1,a2"}',
  ':::risk{id="k2" owner="ops"}',
  ":::",
  "::",
  '::dataset{id="d0"}',
  "schema:",
  "  a: string",
  "rows:",
  "  - [x]",
  "::",
  '::plot{dataset="d0" column="a"}',
  "::",
  '::citation{id="cit" source="S" accessed="2020-01-01"}',
  "::",
  "```",
  '::not{id="code"}',
  "```",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "- item",
  "::callout",
  "::",
  "::a::b{x=1}",
  "::",
];
const lineArb = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
const docArb = fc
  .tuple(fc.array(lineArb, { maxLength: 40 }), fc.boolean(), fc.constantFrom("\n", "\r\n"))
  .map(([lines, fm, eol]) => `${(fm ? "---\ntitle: t\naliases: [fm1]\n---\n" : "") + lines.join("\n")}\n`.replace(/\n/g, eol));
const INSERTS = [
  "",
  " x=1",
  ' owner="me"',
  ' id="k9"',
  ' for="k1"',
  ' for=""',
  ' dataset="d0"',
  ' aliases="a3"',
  '"',
  "}",
  "{",
  " ",
  "::",
  "x",
  ' accessed="2999-01-01"',
  " confidence=2",
  " noverify",
  "é",
];

function spanOf(a: string, b: string): { prefix: number; suffix: number } {
  const max = Math.min(a.length, b.length);
  let p = 0;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  let s = 0;
  while (s < max - p && a.charCodeAt(a.length - 1 - s) === b.charCodeAt(b.length - 1 - s)) s++;
  return { prefix: p, suffix: s };
}

const snapshot = (doc: NomaDocument): unknown => parseSnapshot(doc, { lineStarts: true });

const NOW = { now: new Date("2026-01-01T00:00:00Z") };

describe("reparseCompactLine", () => {
  it("equals a full parse (and validates the same) whenever it answers; declines other edits untouched", () => {
    let answered = 0;
    fc.assert(
      fc.property(docArb, fc.nat(), fc.boolean(), fc.nat(), fc.nat(8), fc.constantFrom(...INSERTS), (src, lineAt, opener, at, remove, insert) => {
        const lines = src.split("\n");
        // Mostly an opening line (the edits this is for), sometimes any line.
        const openers = lines.flatMap((l, n) => (/^:{2,}[A-Za-z]/.test(l) ? [n] : []));
        const i = opener && openers.length > 0 ? openers[lineAt % openers.length]! : lineAt % lines.length;
        const line = lines[i]!;
        const k = at % (line.length + 1);
        lines[i] = line.slice(0, k) + insert + line.slice(k + remove);
        const next = lines.join("\n");
        const old = parseNoma(src);
        const inc = reparseCompactLine(old, next, spanOf(src, next));
        if (inc === undefined) {
          expect(snapshot(old)).toEqual(snapshot(parseNoma(src)));
          return;
        }
        answered++;
        expect(inc.source).toBe(next);
        // Validated from the updated table in place, then built into a tree.
        expect(validateNoma(inc, NOW)).toEqual(validateNoma(parseNoma(next), NOW));
        expect(snapshot(inc)).toEqual(snapshot(parseNoma(next)));
      }),
      { numRuns: Number(process.env.NR_RUNS ?? 3000) },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it("answers for update_attribute and remove_attribute in a one-shot patch, with the outcome of a full parse", () => {
    const src = ["# Doc", "", '::claim{id="c1" confidence=0.5 owner="a"}', "Claim [[c2]].", "::", "", '::evidence{id="e1" for="c1"}', "Yes.", "::", ""].join(
      "\n",
    );
    for (const op of [
      { op: "update_attribute", id: "c1", key: "confidence", value: 0.75 },
      { op: "update_attribute", id: "c1", key: "owner", value: "someone with a longer name" },
      { op: "update_attribute", id: "e1", key: "for", value: "nowhere" },
      { op: "remove_attribute", id: "c1", key: "owner" },
    ]) {
      const o = applyPatch(src, [op], { reuse: false, validate: NOW });
      expect(o.result, JSON.stringify(op)).toBe("applied");
      expect(o.postDiagnostics).toEqual(validateNoma(parseNoma(o.text), NOW));
      // The fast path answers for this very edit, with what a full parse of the result gives.
      const inc = reparseCompactLine(parseNoma(src), o.text, spanOf(src, o.text));
      expect(inc, JSON.stringify(op)).not.toBeUndefined();
      expect(inc!.source).toBe(o.text);
      expect(snapshot(inc!)).toEqual(snapshot(parseNoma(o.text)));
      expect(validateNoma(inc!, NOW)).toEqual(validateNoma(parseNoma(o.text), NOW));
    }
    const edited = src.replace("confidence=0.5", "confidence=0.75");
    const inc = reparseCompactLine(parseNoma(src), edited, spanOf(src, edited));
    expect(inc).not.toBeUndefined();
    expect(snapshot(inc!)).toEqual(snapshot(parseNoma(edited)));
    expect(astToJson(inc!)).not.toEqual(astToJson(parseNoma(src)));
  });
});
