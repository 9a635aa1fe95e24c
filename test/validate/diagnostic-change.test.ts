/**
 * The identity of a diagnostic across an edit (diagnostic-change.ts): the line map of an
 * edit carries only lines whose text the edit left (property-tested over random texts with
 * every kind of line break and random edits), and the comparison matches findings by code,
 * subject (id, else position moved with the lines) and message, as a multiset.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexLines, type Diagnostic } from "../../src/internal.js";
import { diagnosticChange, diagnosticIdentity, lineShiftOf, mapLine } from "../../src/validate/diagnostic-change.js";

function lineTexts(text: string): string[] {
  const { starts, ends } = indexLines(text);
  const out: string[] = [];
  for (let i = 0; i + 1 < starts.length; i++) out.push(text.slice(starts[i], ends[i]));
  return out;
}

const piece = fc.constantFrom("a", "b", "xy", "\n", "\r\n", "\r", "\n\n", "::", " ");
const textArb = fc.array(piece, { maxLength: 40 }).map((p) => p.join(""));

describe("lineShiftOf", () => {
  it('does not keep a line whose start the edit joined to the line break before it (a "\\n" typed after a "\\r")', () => {
    // Found by the property below (seed -783502830): "aa\r\n\ra" → "aa\r\n\r\n" has two lines, not three.
    const text = "aa\r\n\ra";
    const after = "aa\r\n\r\n";
    const map = lineShiftOf(indexLines(text).starts, text.length, after, 5, 0)(indexLines(after).starts.length - 1);
    expect([1, 2, 3].map((l) => mapLine(map, l))).toEqual([1, 2, undefined]);
  });

  it("maps a line only to a line of the edited text with the same text (unless it is the line the edit starts in)", () => {
    fc.assert(
      fc.property(textArb, fc.nat(), fc.nat(8), textArb, (text, at, cut, insert) => {
        const prefix = Math.min(at, text.length);
        const end = Math.min(text.length, prefix + cut);
        const after = text.slice(0, prefix) + insert + text.slice(end);
        const suffix = text.length - end;
        const before = indexLines(text);
        const map = lineShiftOf(before.starts, text.length, after, prefix, suffix)(indexLines(after).starts.length - 1);
        const a = lineTexts(text);
        const b = lineTexts(after);
        // The line holding the first changed character (its start is at or before it).
        let editLine = 0;
        for (let i = 0; i < a.length; i++) if (before.starts[i]! <= prefix) editLine = i + 1;
        for (let l = 1; l <= a.length; l++) {
          const m = mapLine(map, l);
          if (m === undefined) continue;
          expect(m).toBeGreaterThanOrEqual(1);
          expect(m).toBeLessThanOrEqual(Math.max(b.length, 1));
          if (l !== editLine) expect(b[m - 1], `line ${l} → ${m}`).toBe(a[l - 1]);
        }
        // Lines wholly before the edit and wholly after it are always carried.
        for (let l = 1; l < editLine; l++) expect(mapLine(map, l)).toBe(l);
        for (let l = 1; l <= a.length; l++) {
          if (before.starts[l - 1]! > end) expect(mapLine(map, l)).toBe(l + b.length - a.length);
        }
      }),
      { numRuns: 3000 },
    );
  });
});

const d = (code: string, line: number | undefined, message: string, nodeId?: string): Diagnostic => ({
  severity: "warning",
  code,
  message,
  ...(line !== undefined ? { pos: { line, column: 1 } } : {}),
  ...(nodeId !== undefined ? { nodeId } : {}),
});

describe("diagnosticChange", () => {
  const map = { head: 10, tail: 20, shift: 5 };

  it("matches by id wherever the block moved, by position moved with the lines otherwise", () => {
    const before = [d("a", 3, "m"), d("b", 15, "m", "x"), d("c", 25, "m"), d("d", 15, "m"), d("e", undefined, "doc")];
    const after = [d("a", 3, "m"), d("b", 2, "m", "x"), d("c", 30, "m"), d("d", 15, "m"), d("e", undefined, "doc")];
    // "d" was on a rewritten line (between head and tail): the one there now is a new finding.
    expect(diagnosticChange(before, after, map)).toEqual({ introduced: [after[3]], resolved: [before[3]], unchanged: 4 });
  });

  it("compares messages, and the line lists messages carry as positions", () => {
    const dup = (lines: string, at: number): Diagnostic => ({
      ...d("duplicate-id", at, `Two or more nodes carry the same canonical id "k" (${lines}).`, "k"),
      severity: "error",
    });
    expect(diagnosticChange([dup("lines 3, 25", 25)], [dup("lines 3, 30", 30)], map).unchanged).toBe(1);
    expect(diagnosticChange([dup("lines 3, 25", 25)], [dup("lines 3, 25", 30)], map).unchanged).toBe(0);
    expect(diagnosticIdentity(dup("lines 3, 15", 25), (l) => mapLine(map, l))).toBeUndefined();
    expect(diagnosticChange([d("a", 3, "one")], [d("a", 3, "two")], map)).toMatchObject({ unchanged: 0 });
  });

  it("counts findings with one identity as a multiset", () => {
    const k = d("claim-without-evidence", 40, "m", "k");
    const r = diagnosticChange([k, k, k], [k, k], map);
    expect(r).toEqual({ introduced: [], resolved: [k], unchanged: 2 });
    expect(diagnosticChange([k], [k, k], map)).toEqual({ introduced: [k], resolved: [], unchanged: 1 });
  });
});
