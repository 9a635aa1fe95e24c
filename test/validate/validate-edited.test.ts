/**
 * The incremental validation of an edited table-only parse (validate-edited.ts) against a
 * full validation of a fresh parse of the edited text, over random documents rich in what
 * the rules read (ids, aliases, references, wikilinks, claims and evidence, computed blocks,
 * plots and datasets, memories, noverify, duplicates, unclosed blocks, frontmatter):
 * - random line edits, the edited text parsed afresh or, for an edit within one directive's
 *   opening line, from the earlier table (reparseCompactLine);
 * - random op lists through the patch engine, one-shot (a single op, nothing remembered:
 *   the CLI's path) and as lists.
 * Whenever it answers, the answer is the full validation's, in order; and it answers for
 * most edits (the property is not vacuous).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma, type ValidateOptions } from "../../src/internal.js";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { reparseCompactLine } from "../../src/noma/reparse/reparse-compact-line.js";
import { editBase, incrementalDiagnostics, validateEdited } from "../../src/validate/validate-edited.js";

const LINES = [
  "# Title",
  "# Title",
  '## Sub {id="sub" aliases="s1,s2"}',
  "## Sub",
  "### Nested [[k0]]",
  "",
  "",
  "",
  "prose with [[k0]] and [[nowhere]]",
  "`[[masked]]` but [[s1]] and [[m1|label]]",
  "plain prose line",
  "more plain prose",
  '::claim{id="k0" confidence=0.5}',
  '::claim{id="k9" confidence=7 aliases="kk"}',
  '::claim{id="k8" owner="o"}',
  "::claim",
  '::evidence{id="e1" for="k0"}',
  '::evidence{for="missing" noverify}',
  '::evidence{for="k8"}',
  '::counterevidence{for="kk"}',
  ':::risk{id="r1"}',
  ':::risk{owner="me" parent="k0"}',
  ":::",
  "::",
  "::",
  '::memory{id="m1" type="fact"}',
  '::memory{type="bogus" last_seen="2020-13-40"}',
  "see [[k0]] and [[e1]] and [[m1]]",
  "```",
  "| a | [[k9]] |",
  "|---|---|",
  "| [[sub]] | 2 |",
  "- item [[e1]]",
  "1. first [[r1]]",
  "> quote [[gone]]",
  '::section{id="k0"}',
  '::citation{source="x" accessed="2020-01-01"}',
  '::citation{accessed="2025-12-30" stale_after_days=1}',
  '::control{id="c" type="slider" default=5 min=10}',
  '::computed_metric{id="cm" formula="c * 2 + zz"}',
  '::computed_metric{id="cn" formula="cm + 1"}',
  '::plot{dataset="ds" column="q"}',
  '::plot{data="1,2" xlabels="a b"}',
  '::dataset{id="ds" format="csv"}',
  "a,b",
  "::plotly",
  "{not json",
  '::diagram{kind="mermaid"}',
  '::adr{owner="o"}',
  "### Decision",
  "::agent_task",
  "::html",
  '::state_change{block="k0"}',
  '## Linked [[k0]] and [[lost]] {id="t2"}',
  "---",
  "::risk{noverify}",
];
const lineArb = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 8 }) });
const FRONTMATTER = ["", "---\nprofile: research\n---\n", "---\nprofiles: [minimal]\nstale_citation_days: 30\naliases: [top]\n---\n"];
const docArb = fc
  .tuple(fc.array(lineArb, { maxLength: 40 }), fc.constantFrom(...FRONTMATTER), fc.constantFrom("\n", "\r\n"))
  .map(([lines, fm, eol]) => fm + lines.join(eol) + eol);
const optionsArb = fc.record(
  {
    profile: fc.constantFrom("research", "memory", "minimal", "bogus"),
    ignoreRules: fc.subarray(["broken-reference", "claim-without-evidence", "stale-citation", "not-a-rule", "risk-without-owner"]),
    requireEvidenceForClaims: fc.boolean(),
    staleDays: fc.integer({ min: 1, max: 4000 }),
  },
  { requiredKeys: [] },
);
const NOW = new Date("2026-01-15T00:00:00Z");

/** Whole blocks (each closed), in random order and number, with a line or two of anything between some of them. */
const BLOCKS = [
  "# Title",
  '## Sub {id="sub" aliases="s1,s2"}',
  "## Sub",
  '::claim{id="k0" confidence=0.5}\nA claim [[k9]].\n::',
  '::claim{id="k9" confidence=7 aliases="kk"}\nAnother.\n::',
  '::claim{id="k8"}\nThird.\n::',
  '::evidence{id="e1" for="k0"}\nProof.\n::',
  '::counterevidence{for="kk" noverify}\nNo.\n::',
  '::section{id="r0"}\n:::risk{id="r1"}\nRisk [[gone]].\n:::\n::',
  '::memory{id="m1" type="fact"}\nsee [[k0]] and [[m1]]\n::',
  '::control{id="c" type="slider" default=5 min=10}\n::',
  '::computed_metric{id="cm" formula="c * 2 + zz"}\n::',
  '::dataset{id="ds" format="csv"}\na,b\n1,2\n::',
  '::plot{dataset="ds" column="q"}\n::',
  '::citation{source="x" accessed="2020-01-01"}\n::',
  "prose [[k0]] and [[nowhere]]",
  "| a | [[k9]] |\n|---|---|\n| [[sub]] | 2 |",
  "- item [[e1]]\n- two",
];
const blocksArb = fc
  .tuple(
    fc.array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...BLOCKS) }, { weight: 1, arbitrary: lineArb }), { minLength: 3, maxLength: 24 }),
    fc.constantFrom(...FRONTMATTER),
  )
  .map(([blocks, fm]) => `${fm + blocks.join("\n\n")}\n`);

/** An edit: where (as a fraction of the lines), how many lines out, which in; or a change within one line. */
const editArb = fc.oneof(
  fc.record({ kind: fc.constant("lines" as const), at: fc.nat(), out: fc.nat(3), in: fc.array(lineArb, { maxLength: 3 }) }),
  fc.record({
    kind: fc.constant("inline" as const),
    at: fc.nat(),
    pos: fc.nat(),
    cut: fc.nat(4),
    insert: fc.constantFrom(" x=1", ' owner="z"', "", "ok", '"', " noverify", " id=q", "}"),
  }),
);

function editOf(
  text: string,
  edit: { kind: "lines"; at: number; out: number; in: string[] } | { kind: "inline"; at: number; pos: number; cut: number; insert: string },
): { after: string; prefix: number; suffix: number } {
  const lines = text.split("\n");
  const at = edit.at % lines.length;
  const starts: number[] = [];
  let o = 0;
  for (const l of lines) {
    starts.push(o);
    o += l.length + 1;
  }
  if (edit.kind === "lines") {
    const from = starts[at]!;
    const end = Math.min(text.length, at + edit.out < lines.length ? starts[at + edit.out]! : text.length);
    const insert = edit.in.map((l) => `${l}\n`).join("");
    return { after: text.slice(0, from) + insert + text.slice(end), prefix: from, suffix: text.length - end };
  }
  const line = lines[at]!;
  const p = starts[at]! + (line.length === 0 ? 0 : edit.pos % line.length);
  const end = Math.min(starts[at]! + line.length, p + edit.cut);
  return { after: text.slice(0, p) + edit.insert + text.slice(end), prefix: p, suffix: text.length - end };
}

describe("incremental validation after an edit", () => {
  it("equals a full validation of the edited text, for random documents, edits and options", () => {
    const seen = { edits: 0, incremental: 0, sharedTable: 0 };
    fc.assert(
      fc.property(docArb, fc.array(editArb, { minLength: 1, maxLength: 3 }), optionsArb, (text, edits, opts) => {
        const options: ValidateOptions = { ...opts, now: NOW };
        let current = text;
        for (const edit of edits) {
          const { after, prefix, suffix } = editOf(current, edit);
          if (after === current) continue;
          seen.edits++;
          const pre = parseNoma(current);
          const before = validateNoma(pre, options);
          const base = editBase(pre, { prefix, suffix });
          // Within one directive's opening line the earlier table may be reused, as a one-shot patch does.
          const shared = base !== undefined ? reparseCompactLine(pre, after, { prefix, suffix }) : undefined;
          if (shared !== undefined) seen.sharedTable++;
          const post = shared ?? parseNoma(after);
          const expected = validateNoma(parseNoma(after), options);
          if (base !== undefined) {
            const quick = incrementalDiagnostics(post, base, before, options);
            if (quick !== undefined) {
              seen.incremental++;
              expect(quick, `edit ${JSON.stringify(edit)} of:\n${current}\n→\n${after}`).toEqual(expected);
            }
            expect(validateEdited(post, base, before, options)).toEqual(expected);
          }
          current = after;
        }
      }),
      { numRuns: 1500 },
    );
    expect(seen.incremental).toBeGreaterThan(seen.edits / 5);
    expect(seen.sharedTable).toBeGreaterThan(20);
  });

  it("a patch's post-validation equals a full validation of its result, one-shot and for op lists", () => {
    const ids = ["k0", "k9", "k8", "e1", "r0", "r1", "m1", "c", "cm", "ds", "sub", "title"];
    const word = fc.constantFrom("x", "see [[k0]]", "[[nowhere]]", "formula: c + 1", "a,b\n1,2");
    const opArb = fc.oneof(
      fc.record({
        op: fc.constant("update_attribute"),
        id: fc.constantFrom(...ids),
        key: fc.constantFrom("owner", "confidence", "for", "id", "aliases", "noverify", "formula", "dataset", "type"),
        value: fc.oneof(fc.constantFrom("k0", "kk", "zz", "cm", "ds", "fact"), fc.integer({ min: 0, max: 9 }), fc.boolean(), fc.constant(null)),
      }),
      fc.record({ op: fc.constant("replace_body"), id: fc.constantFrom(...ids), content: fc.array(word, { maxLength: 3 }).map((w) => w.join("\n")) }),
      fc.record({ op: fc.constant("delete_block"), id: fc.constantFrom(...ids) }),
      fc.record({
        op: fc.constant("add_block"),
        parent: fc.constantFrom("k0", "sub", "title", "r1"),
        content: fc.constantFrom('::claim{id="new1"}\nx\n::', '::evidence{for="k9"}\ny\n::', '::note{id="k0"}\ndup\n::', "::risk\n[[gone]]\n::"),
      }),
      fc.record({ op: fc.constant("rename_id"), from: fc.constantFrom(...ids), to: fc.constantFrom("k7", "kk", "renamed") }),
      fc.record({ op: fc.constant("update_heading"), id: fc.constantFrom("sub", "t2", "title"), title: fc.constantFrom("Sub", "Title", "Other [[k0]]") }),
    );
    let applied = 0;
    fc.assert(
      fc.property(blocksArb, fc.array(opArb, { minLength: 1, maxLength: 3 }), optionsArb, (text, ops, opts) => {
        const validate: ValidateOptions = { ...opts, now: NOW };
        for (const list of [ops.slice(0, 1), ops]) {
          const out = applyPatch(text, list, { validate, reuse: false });
          if (out.result !== "applied") continue;
          applied++;
          expect(out.postDiagnostics, `${JSON.stringify(list)} on:\n${text}`).toEqual(validateNoma(parseNoma(out.text), validate));
        }
      }),
      { numRuns: 1500 },
    );
    expect(applied).toBeGreaterThan(300);
  });

  it("answers without validating the whole document for edits that leave what the rules read across blocks", () => {
    const text = [
      "---",
      "profile: research",
      "---",
      "# Plan",
      "",
      '::claim{id="c1" confidence=0.5}',
      "Revenue grows [[nowhere]].",
      "::",
      "",
      '::risk{id="r1"}',
      "A risk.",
      "::",
      "",
      "Prose.",
      "",
    ].join("\n");
    const options: ValidateOptions = { now: NOW };
    const edit = (from: string, to: string): void => {
      const prefix = text.indexOf(from);
      const after = text.slice(0, prefix) + to + text.slice(prefix + from.length);
      const pre = parseNoma(text);
      const before = validateNoma(pre, options);
      const base = editBase(pre, { prefix, suffix: text.length - prefix - from.length })!;
      const post = reparseCompactLine(pre, after, { prefix, suffix: text.length - prefix - from.length }) ?? parseNoma(after);
      const quick = incrementalDiagnostics(post, base, before, options);
      expect(quick, `${from} → ${to}`).toEqual(validateNoma(parseNoma(after), options));
    };
    edit("confidence=0.5", "confidence=9"); // a claim's attribute
    edit('::risk{id="r1"}', '::risk{id="r1" owner="ana"}'); // a risk's owner
    edit("A risk.", "A risk.\nTwo lines now."); // a body, lines added
    edit("Prose.", "Other prose.\n\nAnd more."); // prose after everything
  });
});
