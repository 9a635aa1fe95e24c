/**
 * apply_patch hunks (pure): 1-indexed inclusive ranges, insertion with end = start − 1,
 * line-break handling (LF, CRLF, no final newline), order/overlap refusals, ranges past
 * the end refused with nothing applied. Property: the result equals a line-array model,
 * and replacing ranges with their own text is the identity.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyHunks, type Hunk } from "../../src/workspace/apply-hunks.js";
import type { WorkspaceError } from "../../src/workspace/workspace-error.js";

const apply = (text: string, hunks: Hunk[]) => Buffer.from(applyHunks(Buffer.from(text), hunks)).toString();
const codeOf = (f: () => unknown) => {
  try {
    f();
    return null;
  } catch (e) {
    return (e as WorkspaceError).code;
  }
};

describe("applyHunks", () => {
  it("replaces, inserts, appends and deletes whole lines", () => {
    const t = "a\nb\nc\nd\n";
    expect(apply(t, [{ start_line: 2, end_line: 3, replacement: "X\n" }])).toBe("a\nX\nd\n");
    expect(apply(t, [{ start_line: 2, end_line: 3, replacement: "X" }])).toBe("a\nX\nd\n");
    expect(apply(t, [{ start_line: 2, end_line: 1, replacement: "new" }])).toBe("a\nnew\nb\nc\nd\n");
    expect(apply(t, [{ start_line: 5, end_line: 4, replacement: "tail" }])).toBe("a\nb\nc\nd\ntail\n");
    expect(apply(t, [{ start_line: 1, end_line: 4, replacement: "" }])).toBe("");
    expect(
      apply(t, [
        { start_line: 1, end_line: 1, replacement: "A" },
        { start_line: 3, end_line: 3, replacement: "C1\nC2\n" },
        { start_line: 5, end_line: 4, replacement: "E" },
      ]),
    ).toBe("A\nb\nC1\nC2\nd\nE\n");
    expect(apply("", [{ start_line: 1, end_line: 0, replacement: "first" }])).toBe("first\n");
  });

  it("keeps CRLF line breaks and a missing final newline", () => {
    expect(apply("a\r\nb\r\nc\r\n", [{ start_line: 2, end_line: 2, replacement: "B" }])).toBe("a\r\nB\r\nc\r\n");
    expect(apply("a\nb", [{ start_line: 2, end_line: 2, replacement: "B" }])).toBe("a\nB");
    expect(apply("a\nb", [{ start_line: 3, end_line: 2, replacement: "c" }])).toBe("a\nb\nc\n");
    expect(apply("a\nb", [{ start_line: 1, end_line: 1, replacement: "A" }])).toBe("A\nb");
  });

  it("refuses unordered, overlapping and duplicate insertions (invalid_arguments) and ranges past the end (hunk_out_of_range)", () => {
    const t = "a\nb\nc\n";
    expect(
      codeOf(() =>
        apply(t, [
          { start_line: 2, end_line: 2, replacement: "" },
          { start_line: 1, end_line: 1, replacement: "" },
        ]),
      ),
    ).toBe("invalid_arguments");
    expect(
      codeOf(() =>
        apply(t, [
          { start_line: 1, end_line: 2, replacement: "" },
          { start_line: 2, end_line: 3, replacement: "" },
        ]),
      ),
    ).toBe("invalid_arguments");
    expect(
      codeOf(() =>
        apply(t, [
          { start_line: 2, end_line: 1, replacement: "x" },
          { start_line: 2, end_line: 1, replacement: "y" },
        ]),
      ),
    ).toBe("invalid_arguments");
    expect(codeOf(() => apply(t, [{ start_line: 3, end_line: 1, replacement: "" }]))).toBe("invalid_arguments");
    expect(codeOf(() => apply(t, [{ start_line: 0, end_line: 1, replacement: "" }]))).toBe("invalid_arguments");
    expect(
      codeOf(() =>
        apply(t, [
          { start_line: 1, end_line: 1, replacement: "x" },
          { start_line: 3, end_line: 4, replacement: "" },
        ]),
      ),
    ).toBe("hunk_out_of_range");
    expect(codeOf(() => apply(t, [{ start_line: 5, end_line: 4, replacement: "" }]))).toBe("hunk_out_of_range");
    expect(codeOf(() => apply(t, []))).toBe("invalid_arguments");
    // insert before a line, then replace that line: allowed
    expect(
      apply(t, [
        { start_line: 2, end_line: 1, replacement: "i" },
        { start_line: 2, end_line: 2, replacement: "B" },
      ]),
    ).toBe("a\ni\nB\nc\n");
  });

  const line = fc.string({ unit: fc.constantFrom("x", "y", " ", "é", "\r"), maxLength: 4 });

  it("matches a line-array model on LF text (property)", () => {
    fc.assert(
      fc.property(
        fc.array(
          line.map((l) => l.replace(/\r/g, "")),
          { maxLength: 8 },
        ),
        fc.array(
          fc.tuple(
            fc.nat(9),
            fc.nat(3),
            fc.array(
              line.map((l) => l.replace(/\r/g, "")),
              { maxLength: 3 },
            ),
          ),
          { maxLength: 4 },
        ),
        (lines, raw) => {
          const text = lines.map((l) => `${l}\n`).join("");
          // Build ordered non-overlapping hunks from the raw picks.
          const hunks: Hunk[] = [];
          let next = 1;
          for (const [gap, len, repl] of raw) {
            const start = next + gap;
            const end = start + len - 1;
            if (end > lines.length || start > lines.length + 1) break;
            if (
              len === 0 &&
              hunks.length > 0 &&
              hunks[hunks.length - 1]!.end_line === hunks[hunks.length - 1]!.start_line - 1 &&
              hunks[hunks.length - 1]!.start_line === start
            )
              break;
            hunks.push({ start_line: start, end_line: end, replacement: repl.map((l) => `${l}\n`).join("") });
            next = Math.max(end + 1, start + (len === 0 ? 1 : 0));
          }
          if (hunks.length === 0) return;
          const model = [...lines];
          for (const h of [...hunks].reverse()) model.splice(h.start_line - 1, h.end_line - h.start_line + 1, ...h.replacement.split("\n").slice(0, -1));
          expect(apply(text, hunks)).toBe(model.map((l) => `${l}\n`).join(""));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("replacing any range with its own lines changes nothing, whatever the line breaks (property)", () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.boolean(), fc.nat(7), fc.nat(7), (lines, finalBreak, a, b) => {
        const text = lines.join("\n") + (finalBreak ? "\n" : "");
        if (text.length === 0) return;
        const bytes = Buffer.from(text);
        const n = text.split(/(?<=\n)/).length;
        const start = (a % n) + 1;
        const end = start + (b % (n - start + 1));
        const parts = text.split(/(?<=\n)/);
        const own = parts.slice(start - 1, end).join("");
        expect(Buffer.from(applyHunks(bytes, [{ start_line: start, end_line: end, replacement: own }])).toString()).toBe(text);
      }),
      { numRuns: 2000 },
    );
  });
});
