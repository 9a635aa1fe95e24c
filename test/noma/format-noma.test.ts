/**
 * fmt's formatter (src/noma/format-noma.ts):
 * - examples of each rule, and what it leaves alone (paragraph text, list markers, data bodies,
 *   numbers whose canonical digits differ, CRLF, a BOM, Tier-2 documents);
 * - properties over thousands of generated documents: idempotent (fmt(fmt(x)) = fmt(x)), and
 *   meaning-preserving (the parse of the result equals the parse of the input, spans and fence
 *   depths aside: meaningDifference is null), and never left alone for a Tier-1 input;
 * - the same over the upstream conformance corpus, read in place (skipped, with a message,
 *   when it is absent).
 */
import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma } from "../../src/internal.js";
import { formatNoma } from "../../src/noma/format-noma.js";
import { applyLineEdits, lineEditsProblem } from "../../src/noma/line-edits.js";
import { meaningDifference } from "../../src/noma/same-meaning.js";
import { fixtureNames, UPSTREAM, upstreamPresent } from "../conformance/corpus.js";

function fmt(s: string): string {
  return formatNoma(s).text;
}

describe("formatNoma: the rules", () => {
  it("puts one blank line between blocks, none at the start, one line break at the end", () => {
    expect(fmt("\n\n# Title\nSome text.\n\n\n\n- a\n- b\n::note\nbody\n::\n\n\n")).toBe("# Title\n\nSome text.\n\n- a\n- b\n\n::note\nbody\n::\n");
    expect(fmt("just text")).toBe("just text\n");
    expect(fmt("---\ntitle: x\n---\n# T")).toBe("---\ntitle: x\n---\n\n# T\n");
  });

  it("removes blank lines after an opening fence and before a closing one, keeps one between children", () => {
    expect(fmt('::claim{id="c"}\n\n\nText.\n\n::\n\n::section{id="s"}\n\n:::note\na\n:::\n:::note\nb\n:::\n\n::\n')).toBe(
      '::claim{id="c"}\nText.\n::\n\n::section{id="s"}\n:::note\na\n:::\n\n:::note\nb\n:::\n::\n',
    );
  });

  it("re-fences directives by depth, unless a line inside would then read as a fence", () => {
    expect(fmt('::::section{id="s"}\n::::::note\nx\n::::::\n::::\n')).toBe('::section{id="s"}\n:::note\nx\n:::\n::\n');
    // `:::` inside a `::::` block is a paragraph line; with the block at `::`, it would open a child.
    const kept = "::::note\n:::x\n::::\n";
    expect(fmt(kept)).toBe(kept);
  });

  it("writes attributes canonically: one space, no padding, canonical quoting, duplicates once", () => {
    expect(fmt("::claim{ id='c1'   confidence=\"0.9\", draft=true status=open draft }\nx\n::\n")).toBe(
      '::claim{id="c1" confidence=0.9 draft status="open"}\nx\n::\n',
    );
    expect(fmt(":: note {}\nx\n::\n")).toBe("::note\nx\n::\n");
    expect(fmt("::a{k=v n=3 n=4}\n::\n")).toBe('::a{k="v" n=4}\n::\n');
  });

  it("keeps a number's token when its canonical digits differ from the ones written", () => {
    const doc = '::release{version="1.10" build=007 n="2"}\n::\n';
    expect(fmt(doc)).toBe('::release{version="1.10" build=007 n=2}\n::\n');
  });

  it("normalises headings and their attributes", () => {
    expect(fmt('##   Risks   { id="r"  aliases="a,b" }   \ntext\n')).toBe('## Risks {id="r" aliases="a,b"}\n\ntext\n');
    expect(fmt("#\tTabbed\n")).toBe("# Tabbed\n");
  });

  it("normalises quotes", () => {
    expect(fmt(">a\n>  b\n>\n> \n")).toBe("> a\n>  b\n>\n>\n");
  });

  it("aligns pipe tables", () => {
    expect(fmt("| a | long header |\n|:-|--:|\n| wide cell | 1 |\n|x|\n")).toBe(
      "| a         | long header |\n| :-------- | ----------: |\n| wide cell | 1           |\n| x         |             |\n",
    );
    expect(fmt('::table{id="t"}\n|h|i|\n|---|---|\n|1|2|\n::\n')).toBe('::table{id="t"}\n| h   | i   |\n| --- | --- |\n| 1   | 2   |\n::\n');
  });

  it("leaves a table with a row wider than its header as written", () => {
    const doc = "| a | b |\n|---|---|\n| 1 | 2 | 3 |\n";
    expect(fmt(doc)).toBe(doc);
  });

  it("never touches paragraph text, list markers, code, frontmatter or data bodies", () => {
    const doc = [
      "---",
      "title:   spaced   ",
      "---",
      "",
      "A line with a hard break  ",
      "and   more.",
      "",
      "* star",
      "-   spaced item",
      "",
      "3. three",
      "",
      "```js",
      "",
      "",
      "::x{ a=1 }",
      "```",
      "",
      '::dataset{id="d" format=yaml}',
      "",
      "columns: [a, b]",
      "rows:",
      "- [1, 2]",
      "",
      "::",
      "",
    ].join("\n");
    expect(fmt(doc)).toBe(doc.replace("format=yaml", 'format="yaml"'));
  });

  it("keeps each line's line break, uses the document's for new lines, keeps a BOM", () => {
    expect(fmt("# A\r\ntext\r\n::n{ a=1 }\r\n::\r\n")).toBe("# A\r\n\r\ntext\r\n\r\n::n{a=1}\r\n::\r\n");
    // A BOM is the first character of line 1 (here a paragraph line, there a blank line fmt keeps).
    expect(fmt("\uFEFF# A\ntext\n")).toBe("\uFEFF# A\ntext\n");
    expect(fmt("\uFEFF\n\n# A\ntext")).toBe("\uFEFF\n\n# A\n\ntext\n");
  });

  it("leaves Tier-2 documents alone and says why", () => {
    const r = formatNoma("::note\nnever closed\n");
    expect(r.changed).toBe(false);
    expect(r.text).toBe("::note\nnever closed\n");
    expect(r.skipped).toMatch(/parse errors \(line 1: .*never closed/);
  });

  it("does not move a first thematic break up to where it would open frontmatter", () => {
    const doc = "\n---\n\ntext\n\n---\n";
    expect(formatNoma(doc).skipped).toBeUndefined();
    expect(meaningDifference(parseNoma(doc), parseNoma(fmt(doc)))).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Generated documents: blocks of every kind, in every layout fmt normalises.

const word = fc.constantFrom(
  "alpha",
  "Beta",
  "gamma delta",
  "[[c0]]",
  "`code | x`",
  "pipe \\| esc",
  "{braces}",
  "a}b",
  "1.10",
  "x: y",
  "  lead",
  "trail  ",
  "",
);
const attrValue = fc.oneof(
  fc.constantFrom("c0", "c1", "open", "two words", "0.9", "1.10", "007", "-3", "true", "false", "1e5", "a'b", 'a"b', "a}b", "", "x=y"),
  fc.string({ maxLength: 6 }),
);
const attrKey = fc.constantFrom("id", "for", "status", "confidence", "k", "draft", "aliases", "n", "__proto__");
const attrToken = fc
  .tuple(attrKey, attrValue, fc.constantFrom("dq", "sq", "bare", "flag"))
  .map(([k, v, q]) =>
    q === "flag"
      ? k
      : q === "dq" && !v.includes('"')
        ? `${k}="${v}"`
        : q === "sq" && !v.includes("'")
          ? `${k}='${v}'`
          : `${k}=${v.replace(/[\s"']/g, "") || "v"}`,
  );
const attrBlock = fc
  .tuple(fc.array(attrToken, { maxLength: 4 }), fc.constantFrom(" ", "  ", ", ", "\t"), fc.constantFrom("", " "), fc.boolean())
  .map(([tokens, sep, pad, braces]) => (braces || tokens.length > 0 ? `{${pad}${tokens.join(sep)}${pad}}` : ""));
const blank = fc.constantFrom("", "", " ", "\t", "  ");
const blanks = fc.array(blank, { maxLength: 3 });

type Gen = fc.Arbitrary<string[]>;
const paragraph: Gen = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => [ws.join(" ") || "text"]);
const list: Gen = fc
  .array(fc.tuple(fc.constantFrom("- ", "* ", "1. ", "2. "), word), { minLength: 1, maxLength: 3 })
  .map((items) => items.map(([m, w]) => `${m}${w}`));
const quote: Gen = fc.array(fc.tuple(fc.constantFrom(">", "> ", ">  "), word), { minLength: 1, maxLength: 3 }).map((ls) => ls.map(([p, w]) => `${p}${w}`));
const heading: Gen = fc
  .tuple(fc.constantFrom("#", "##", "###"), fc.constantFrom(" ", "  ", "\t"), word, fc.constantFrom("", " "), attrBlock)
  .map(([h, sp, w, s2, a]) => [`${h}${sp}${w || "T"}${a.length > 0 ? ` ${a}` : ""}${s2}`]);
const table: Gen = fc
  .tuple(fc.integer({ min: 1, max: 3 }), fc.array(fc.array(word, { minLength: 0, maxLength: 4 }), { maxLength: 3 }), fc.constantFrom("---", ":-", "--:", ":-:"))
  .map(([n, rows, sep]) => [
    `|${Array.from({ length: n }, (_, i) => ` h${i} `).join("|")}|`,
    `|${Array.from({ length: Math.max(n, 2) }, () => sep).join("|")}|`,
    ...rows.map((r) => `|${r.join("|")}|`),
  ]);
const code: Gen = fc
  .tuple(fc.constantFrom("```", "```js"), fc.array(fc.constantFrom("", "::x", ":::", "# h", "  y"), { maxLength: 3 }))
  .map(([f, body]) => [f, ...body, "```"]);
const rule: Gen = fc.constantFrom(["---"], ["***"], ["___  "], ["- - -"]);

const leaf: Gen = fc.oneof({ weight: 3, arbitrary: paragraph }, list, quote, heading, table, code, rule);

function withGaps(parts: readonly string[][], gaps: readonly string[][]): string[] {
  const out: string[] = [];
  parts.forEach((p, i) => out.push(...(gaps[i] ?? []), ...p));
  return out;
}

const directive = (depth: number): Gen =>
  fc
    .tuple(
      fc.constantFrom("note", "claim", "evidence", "dataset", "table", "section", "plotly"),
      fc.constantFrom(0, 0, 0, 1, 2),
      fc.constantFrom("", " "),
      attrBlock,
      depth < 2 ? fc.array(fc.oneof({ weight: 3, arbitrary: leaf }, directive(depth + 1)), { maxLength: 3 }) : fc.array(leaf, { maxLength: 2 }),
      fc.array(blanks, { maxLength: 4 }),
      blanks,
      fc.constantFrom("", " "),
    )
    .map(([name, extra, space, attrs, kids, gaps, tail, closeSpace]) => {
      const colons = ":".repeat(depth + 2 + extra);
      return [`${colons}${space}${name}${attrs}`, ...withGaps(kids, gaps), ...tail, `${colons}${closeSpace}`];
    });

const nomaDocument = fc
  .tuple(
    fc.option(fc.constantFrom(["---", "title: x", "aliases: [a]", "---"], ["---", "---"]), { nil: undefined }),
    fc.array(fc.oneof({ weight: 2, arbitrary: leaf }, directive(0)), { maxLength: 8 }),
    fc.array(blanks, { maxLength: 9 }),
    blanks,
    fc.constantFrom("\n", "\r\n"),
    fc.boolean(),
  )
  .map(([fm, blocks, gaps, tail, eol, final]) => {
    const lines = [...(fm ?? []), ...withGaps(blocks, gaps), ...tail];
    return lines.join(eol) + (final && lines.length > 0 ? eol : "");
  });

describe("formatNoma: properties", () => {
  it("is idempotent and keeps what every generated document means", () => {
    let formatted = 0;
    fc.assert(
      fc.property(nomaDocument, (src) => {
        const once = formatNoma(src);
        const doc = parseNoma(src);
        const tier1 = !doc.problems.some((p) => p.severity === "error");
        if (tier1) expect(once.skipped).toBeUndefined();
        expect(once.partial).toBeUndefined();
        if (once.changed) formatted++;
        expect(meaningDifference(doc, parseNoma(once.text))).toBeNull();
        // The edits reproduce the result (what a format_document record replays).
        expect(lineEditsProblem(once.edits, src.length === 0 ? 0 : src.split(/\r\n|\r|\n/).length - (/(\r\n|\r|\n)$/.test(src) ? 1 : 0))).toBeNull();
        expect(applyLineEdits(src, once.edits)).toBe(once.text);
        const twice = formatNoma(once.text);
        expect(twice.text).toBe(once.text);
        expect(twice.changed).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // The generator exercises the rules: most documents need formatting.
    expect(formatted).toBeGreaterThan(1500);
  });

  it("is idempotent and meaning-preserving on arbitrary lines of Noma-ish text (Tier 2 left alone)", () => {
    const soup = fc
      .tuple(
        fc.array(
          fc.oneof(
            {
              weight: 4,
              arbitrary: fc.constantFrom(
                "::a",
                '::claim{ id="c1"  confidence=0.5 }',
                ":::note",
                "::",
                ":::",
                "::::",
                "```",
                "# H {id=x}",
                "#\tT {}",
                "| a | b |",
                "|-|-|",
                "|1|",
                "> q",
                "- i",
                "",
                "  ",
                "---",
                "[[c1]] x",
                '::x{a="1.10" b=007}',
              ),
            },
            { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
          ),
          { maxLength: 30 },
        ),
        fc.constantFrom("\n", "\r\n", "\r"),
      )
      .map(([lines, eol]) => lines.join(eol));
    fc.assert(
      fc.property(soup, (src) => {
        const once = formatNoma(src);
        const doc = parseNoma(src);
        if (doc.problems.some((p) => p.severity === "error")) expect(once.text).toBe(src);
        expect(once.partial).toBeUndefined();
        expect(meaningDifference(doc, parseNoma(once.text))).toBeNull();
        expect(formatNoma(once.text).text).toBe(once.text);
      }),
      { numRuns: 2000 },
    );
  });

  it("keeps every line break as it was, and adds only the document's own", () => {
    fc.assert(
      fc.property(nomaDocument, (src) => {
        const out = formatNoma(src).text;
        if (!src.includes("\r")) expect(out.includes("\r")).toBe(false);
        if (src.includes("\r\n") && !/(^|[^\r])\n/.test(src)) expect(/(^|[^\r])\n/.test(out)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});

describe.skipIf(!upstreamPresent)("formatNoma over the upstream conformance corpus (read in place)", () => {
  const names = upstreamPresent ? fixtureNames(UPSTREAM, ["valid", "invalid", "patch", "patch-error"]) : [];
  it.each(names)("%s", (name) => {
    for (const file of ["input.noma", "expected.post.noma", "expected.roundtrip.noma"]) {
      const path = `${UPSTREAM}/${name}/${file}`;
      if (!existsSync(path)) continue;
      const src = readFileSync(path, "utf8");
      const once = formatNoma(src);
      expect(once.skipped).toBeUndefined();
      expect(meaningDifference(parseNoma(src), parseNoma(once.text))).toBeNull();
      expect(formatNoma(once.text).text).toBe(once.text);
    }
  });
});
