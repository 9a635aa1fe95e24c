/**
 * Transcripts are append-only (pure check against the base version):
 * - appending any lines to any transcript is clean (property);
 * - editing or removing any earlier line is reported at that line number (property);
 * - a base whose last line lacked its line break may get it; deletion is reported.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { appendOnlyDiagnostics } from "../../../src/internal.js";

const line = fc.string({ minLength: 1, maxLength: 20, unit: fc.constantFrom("a", "b", "{", "}", '"', ":", " ") }).map((s) => `${s}\n`);
const lines = fc.array(line, { minLength: 1, maxLength: 12 });

describe("appendOnlyDiagnostics", () => {
  it("any append is clean", () => {
    fc.assert(
      fc.property(lines, fc.array(line, { maxLength: 5 }), (base, more) => {
        expect(appendOnlyDiagnostics(base.join(""), [...base, ...more].join(""))).toEqual([]);
      }),
    );
  });

  it("an edited earlier line is reported at its line", () => {
    fc.assert(
      fc.property(lines, fc.nat(), line, fc.array(line, { maxLength: 3 }), (base, at, replacement, more) => {
        const i = at % base.length;
        fc.pre(replacement !== base[i]);
        const head = [...base.slice(0, i), replacement, ...base.slice(i + 1), ...more];
        const d = appendOnlyDiagnostics(base.join(""), head.join(""));
        expect(d[0]).toMatchObject({ severity: "error", code: "transcript-rewritten", pos: { line: i + 1, column: 1 } });
        expect(d[0]!.message).toContain(`Line ${i + 1} differs`);
      }),
    );
  });

  it("removed lines (truncation) are reported", () => {
    fc.assert(
      fc.property(lines, fc.nat(), (base, cut) => {
        const keep = cut % base.length;
        const d = appendOnlyDiagnostics(base.join(""), base.slice(0, keep).join(""));
        expect(d.length).toBeGreaterThan(0);
        expect(d[0]!.message).toMatch(new RegExp(`^Line ${keep + 1} (existed|differs)`));
      }),
    );
  });

  it("a torn last line may be completed; a deleted transcript is reported", () => {
    expect(appendOnlyDiagnostics('{"a":1}\n{"b"', '{"a":1}\n{"b":2}\n{"c":3}\n')).toEqual([]);
    expect(appendOnlyDiagnostics("x\n", null)[0]).toMatchObject({ code: "transcript-rewritten", message: expect.stringContaining("deleted") });
    const many = Array.from({ length: 30 }, (_, k) => `r${k}\n`);
    const d = appendOnlyDiagnostics(many.join(""), many.map((l) => l.replace("r", "R")).join(""));
    expect(d).toHaveLength(21);
    expect(d[20]!.message).toContain("…and 10 more lines");
  });
});
