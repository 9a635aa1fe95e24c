/**
 * Property tests (fast-check) of the pure text parts of the filesystem tools: head and
 * tail lines, the unified diff (applied back, it gives the new text), the text edits
 * (exact replacement, line-by-line matching, CRLF kept), and the line matcher of
 * search_text (the lines a naive line-by-line search finds).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyTextEdits } from "../../src/workspace/apply-text-edits.js";
import { formatMatches, makeMatcher, matchLines, requiredLiteral } from "../../src/workspace/match-lines.js";
import { countLines, headLines, tailLines } from "../../src/workspace/select-lines.js";
import { unifiedHunks } from "../../src/workspace/unified-diff.js";

/** Texts of a few short lines over a small alphabet (so lines repeat and diffs are interesting). */
const line = fc.stringMatching(/^[ab \tx]{0,4}$/);
const text = fc
  .tuple(fc.array(line, { maxLength: 12 }), fc.boolean())
  .map(([ls, finalBreak]) => (ls.length === 0 ? "" : ls.join("\n") + (finalBreak ? "\n" : "")));

/** Apply unified-diff hunks (ours) to a text: a test-side reader of the format. */
function applyHunks(before: string, hunks: string): string {
  const src = before.length === 0 ? [] : before.split("\n");
  const finalBreak = before.endsWith("\n");
  if (finalBreak) src.pop();
  const out: string[] = [];
  let at = 0;
  let noBreak = !finalBreak;
  const lines = hunks.split("\n").filter((l) => l.length > 0);
  for (let i = 0; i < lines.length; i++) {
    const h = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(lines[i]!);
    if (h === null) throw new Error(`not a hunk header: ${lines[i]}`);
    const start = Number(h[2]) === 0 ? Number(h[1]) : Number(h[1]) - 1;
    while (at < start) out.push(src[at++]!);
    for (i++; i < lines.length && !lines[i]!.startsWith("@@"); i++) {
      const l = lines[i]!;
      if (l === "\\ No newline at end of file") {
        if (lines[i - 1]!.startsWith("+") || lines[i - 1]!.startsWith(" ")) noBreak = true;
        continue;
      }
      if (l.startsWith(" ")) {
        out.push(src[at++]!);
        noBreak = false;
      } else if (l.startsWith("-")) at++;
      else {
        out.push(l.slice(1));
        noBreak = false;
      }
    }
    i--;
  }
  while (at < src.length) {
    out.push(src[at++]!);
    noBreak = !finalBreak;
  }
  if (out.length === 0) return "";
  return out.join("\n") + (noBreak ? "" : "\n");
}

describe("head and tail lines", () => {
  it("are a prefix and a suffix of whole lines, as many as asked (or all)", () => {
    fc.assert(
      fc.property(text, fc.nat(15), (t, n) => {
        const h = headLines(t, n);
        const tl = tailLines(t, n);
        expect(t.startsWith(h)).toBe(true);
        expect(t.endsWith(tl)).toBe(true);
        expect(countLines(h)).toBe(Math.min(n, countLines(t)));
        expect(countLines(tl)).toBe(Math.min(n, countLines(t)));
        // Whole lines: what follows the head starts a line, what precedes the tail ends one.
        expect(h === "" || h === t || h.endsWith("\n")).toBe(true);
        expect(tl === "" || tl === t || t.slice(0, t.length - tl.length).endsWith("\n")).toBe(true);
        expect(headLines(t, n) + t.slice(h.length)).toBe(t);
      }),
    );
  });
});

describe("the unified diff", () => {
  it("applied to the old text gives the new one; equal texts have no hunks", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const hunks = unifiedHunks(a, b);
        expect(applyHunks(a, hunks)).toBe(b);
        expect(hunks === "").toBe(a === b);
      }),
      { numRuns: 500 },
    );
  });
});

describe("text edits", () => {
  it("an oldText found as written replaces its first occurrence", () => {
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), fc.string({ maxLength: 6 }), (t, i, len, replacement) => {
        const start = t.length === 0 ? 0 : i % t.length;
        const oldText = t.slice(start, start + 1 + (len % 5));
        fc.pre(oldText.length > 0 && !t.includes("\r") && !replacement.includes("\r"));
        const at = t.indexOf(oldText);
        expect(applyTextEdits(t, [{ oldText, newText: replacement }]).text).toBe(t.slice(0, at) + replacement + t.slice(at + oldText.length));
      }),
    );
  });

  it("a run of lines found ignoring indentation is replaced there, the lines around it untouched", () => {
    const word = fc.stringMatching(/^[a-z]{1,5}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(3), word), { minLength: 1, maxLength: 10 }), fc.nat(), fc.nat(3), (ls, i, n) => {
        const lines = ls.map(([d, w]) => `${"  ".repeat(d)}${w}`);
        const start = i % lines.length;
        const count = 1 + Math.min(n, lines.length - start - 1);
        // The agent's copy: the same lines, indented differently (so not found as written).
        const oldText = lines
          .slice(start, start + count)
          .map((l) => `\t${l.trim()}`)
          .join("\n");
        const file = `${lines.join("\n")}\n`;
        fc.pre(!file.includes(oldText));
        const out = applyTextEdits(file, [{ oldText, newText: "\tNEW" }]);
        const first = lines.findIndex((_, s) => lines.slice(s, s + count).every((l, k) => l.trim() === lines[start + k]!.trim()));
        const expected = [...lines.slice(0, first), `${/^ */.exec(lines[first]!)![0]}NEW`, ...lines.slice(first + count)];
        expect(out.text).toBe(`${expected.join("\n")}\n`);
        expect(out.applied).toEqual([{ match: "lines", line: first + 1 }]);
      }),
    );
  });

  it("a file whose every line break is CRLF keeps them", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[ab]{1,3}$/), { minLength: 1, maxLength: 8 }), fc.nat(), (ls, i) => {
        const file = `${ls.join("\r\n")}\r\n`;
        const k = i % ls.length;
        const out = applyTextEdits(file, [{ oldText: `${ls[k]}\n`, newText: "X\nY\n" }]).text;
        expect(/(^|[^\r])\n/.test(out)).toBe(false);
        expect(out.replace(/\r\n/g, "\n")).toBe(applyTextEdits(file.replace(/\r\n/g, "\n"), [{ oldText: `${ls[k]}\n`, newText: "X\nY\n" }]).text);
      }),
    );
  });
});

describe("search_text's line matcher", () => {
  it("finds exactly the lines a line-by-line search finds, numbered from 1; grep's text lists each once", () => {
    fc.assert(
      fc.property(text, fc.constantFrom("a", "ab", "x", " b", "a\\s*b", "^a", "b$"), fc.nat(3), (t, pattern, context) => {
        const found = matchLines(t, makeMatcher(pattern), 1000, context);
        const re = new RegExp(pattern);
        const naive = t
          .replace(/\n$/, "")
          .split("\n")
          .map((l, i) => [i + 1, l] as const)
          .filter(([, l]) => t.length > 0 && re.test(l))
          .map(([n]) => n);
        expect(found.map((m) => m.line)).toEqual(naive);
        const printed = formatMatches("f", found).filter((l) => l !== "--");
        const numbers = printed.map((l) => Number(/^f[-:](\d+)[-:]/.exec(l)![1]));
        expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
        expect(printed.filter((l) => /^f:\d+:/.test(l))).toHaveLength(naive.length);
      }),
    );
  });
});

describe("search_text's prefilter", () => {
  it("every text a regular expression matches contains the literal it requires", () => {
    const piece = fc.constantFrom(
      "a",
      "b",
      "c",
      "abc",
      "a?",
      "b*",
      "c+",
      "(a|b)",
      "(ab)?",
      "[ab]",
      "[^c]",
      "\\.",
      ".",
      "\\w+",
      "\\s",
      "c{2}",
      "a{0,2}",
      "^",
      "$",
      "|",
      "\\x61",
      "\\u0062",
      "\\bab",
      "+?",
    );
    const subject = fc.stringMatching(/^[abc. \n]{0,24}$/);
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 6 }), fc.array(subject, { minLength: 1, maxLength: 8 }), (pieces, texts) => {
        const pattern = pieces.join("");
        let re: RegExp;
        try {
          re = new RegExp(pattern, "m");
        } catch {
          return; // not a valid expression: search_text refuses it
        }
        const lit = requiredLiteral(pattern);
        if (lit === null) return;
        for (const t of texts) if (re.test(t)) expect(t, `${pattern} matched ${JSON.stringify(t)} without ${JSON.stringify(lit)}`).toContain(lit);
      }),
      { numRuns: 2000 },
    );
    expect(requiredLiteral("needle_\\w+_7f3a")).toBe("needle_");
    expect(requiredLiteral("abc|def")).toBeNull();
    expect(requiredLiteral("\\bclass Foo\\b")).toBe("class Foo");
  });
});
