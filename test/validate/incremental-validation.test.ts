/**
 * Validation that takes over an earlier state's facts (`cacheBlockFacts` + `previous`, what
 * the patch engine does between states): for any chain of edits, each re-parsed state validates to exactly the
 * diagnostics a fresh parse and a plain validation give. What is carried over — facts,
 * unresolved references, name lists, findings of single directives, which claims lack
 * evidence — is checked against the from-scratch answer over random chains, with
 * validations after every edit or only after several (the lineage of several re-parses),
 * with options that change between validations, and without remembering (the earlier
 * facts only read).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma, type ValidateOptions } from "../../src/internal.js";
import { reparseEdited } from "../../src/noma/reparse/reparse-edited.js";

const LINES = [
  "# Title",
  '## Sub {id="sub" aliases="s1,s2"}',
  "",
  "",
  "prose with [[k0]] and [[nowhere]]",
  "`[[masked]]` but [[s1]]",
  '::claim{id="k0" confidence=0.5}',
  '::claim{id="k9" confidence=7}',
  '::claim{id="k8" aliases="ka,kb"}',
  "::claim",
  '::evidence{id="e1" for="k0"}',
  '::evidence{for="missing"}',
  '::evidence{for="ka"}',
  '::counterevidence{for="k9"}',
  "::evidence",
  ':::risk{id="r1"}',
  ':::risk{owner="me"}',
  ":::",
  "::",
  '::memory{id="m1" type="fact"}',
  '::memory{type="nope" confidence=2 last_seen="never"}',
  "see [[k0]]",
  "see [[m1]]",
  "```",
  "| a | [[k9]] |",
  "|---|---|",
  "| [[sub]] | 2 |",
  "- item [[e1]]",
  "> quote [[gone]]",
  '::section{id="k0"}',
  '::decision{id="d1"}',
  '::adr{status="ok" owner="o"}',
  '::citation{accessed="2020-01-01"}',
  '::citation{url="u" accessed="2025-12-30" stale_after_days=1}',
  '::change_request{action="insert"}',
  "::todo",
  '::agent_task{scope="x"}',
  '::control{id="c1" type="slider" default=5 min=0 max=3}',
  '::control{type="number" lock="odd"}',
  '::computed_metric{id="m2" formula="c1 * 2 + zz"}',
  '::computed_metric{formula="(("}',
  '::state_change{block="k0"}',
  "::diagram",
  "graph TD",
  "::plotly",
  "{ not json",
  '::figure{alt="a"}',
  "::figure",
  "::html",
  "::svg{trusted}",
  '::plot{dataset="ds" column="y"}',
  '::plot{data="1,2" xlabels="a b"}',
  '::dataset{id="ds" format="csv"}',
  "x,z",
  "::risk{noverify}",
  '::claim{id="k0"}',
];
const lineArb = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
const docArb = fc
  .tuple(fc.array(lineArb, { maxLength: 50 }), fc.constantFrom("", "---\nprofile: research\n---\n", "---\nprofiles: [minimal]\n---\n"))
  .map(([lines, fm]) => `${fm + lines.join("\n")}\n`);
/** An edit (where, how many lines out, which lines in) and whether to validate after it. */
const editArb = fc.tuple(fc.nat(), fc.nat(3), fc.array(lineArb, { maxLength: 3 }), fc.boolean());

const NOW = new Date("2026-01-01T00:00:00Z");
const OPTION_SETS: ValidateOptions[] = [
  { now: NOW },
  { now: NOW, profile: "research" },
  { now: NOW, ignoreRules: ["risk-without-owner", "broken-reference"] },
  { now: NOW, requireEvidenceForClaims: false },
  { now: NOW, staleDays: 3000 },
];

/** Well-formed documents as blocks (so edits re-parse incrementally), and edits of whole blocks or of one opening line. */
const OPENERS = [
  'claim{id="k0" confidence=0.5}',
  'claim{id="k9" confidence=7}',
  'claim{id="k8" aliases="ka,kb"}',
  "claim",
  'claim{id="k0"}',
  'claim{id="k7" noverify}',
  'evidence{id="e1" for="k0"}',
  'evidence{for="missing"}',
  'evidence{for="ka"}',
  'counterevidence{for="k9"}',
  "evidence",
  'evidence{for="k8"}',
  'evidence{for="k7"}',
  'risk{id="r1"}',
  'risk{owner="me"}',
  "risk{noverify}",
  'memory{id="m1" type="fact"}',
  'memory{type="nope" confidence=2}',
  'decision{id="d1"}',
  'adr{status="ok" owner="o"}',
  'citation{accessed="2020-01-01"}',
  'citation{url="u"}',
  'change_request{action="insert"}',
  "todo",
  'control{id="c1" type="slider" default=5 min=0 max=3}',
  'computed_metric{id="m2" formula="c1 * 2 + zz"}',
  'state_change{block="k0"}',
  "diagram",
  "plotly",
  "figure",
  "html",
  'plot{dataset="ds" column="y"}',
  'dataset{id="ds" format="csv"}',
  'section{id="k0"}',
  'note{id="n1" aliases="k0"}',
];
const BODIES = ["prose with [[k0]] and [[nowhere]]", "see [[m1]] and [[ka]]", "x,z", "graph TD", "{ not json", "formula: k0 + 1", "plain"];
const openerArb = fc.constantFrom(...OPENERS);
const blockArb: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.tuple(openerArb, fc.array(fc.constantFrom(...BODIES), { maxLength: 2 })).map(([o, body]) => [`::${o}`, ...body, "::"].join("\n")),
  },
  { weight: 2, arbitrary: fc.tuple(openerArb, openerArb, fc.constantFrom(...BODIES)).map(([o, i, b]) => [`::${o}`, b, `:::${i}`, b, ":::", "::"].join("\n")) },
  { weight: 2, arbitrary: fc.constantFrom("# Title", '## Sub {id="sub" aliases="s1,s2"}', "### Deep [[k9]]", "## Sub") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(...BODIES, "| a | [[k9]] |\n|---|---|\n| [[sub]] | 2 |", "- item [[e1]]\n- two", "> quote [[gone]]", "```\n::claim\n```"),
  },
);
/** An edit of the block list: [what (0 replace, 1 insert, 2 delete, 3 new opener), where, the block or opener], and whether to validate after it. */
const blockEditArb = fc.tuple(fc.nat(3), fc.nat(), blockArb, openerArb, fc.boolean());

function editBlocks(blocks: string[], [what, at, block, opener]: readonly [number, number, string, string, boolean]): void {
  const i = blocks.length === 0 ? 0 : at % blocks.length;
  if (what === 1 || blocks.length === 0) blocks.splice(i, 0, block);
  else if (what === 0) blocks[i] = block;
  else if (what === 2) blocks.splice(i, 1);
  else if (blocks[i]!.startsWith("::")) blocks[i] = blocks[i]!.replace(/^::[^\n]*/, `::${opener}`);
}

function edit(text: string, [at, remove, insert]: readonly [number, number, readonly string[], boolean]): string {
  const lines = text.split("\n");
  lines.splice(at % lines.length, remove, ...insert);
  return lines.join("\n");
}

describe("validateNoma with previous", () => {
  it("gives the diagnostics of a fresh parse after every edit of a chain", () => {
    fc.assert(
      fc.property(docArb, fc.array(editArb, { minLength: 1, maxLength: 6 }), (src, edits) => {
        let doc = parseNoma(src);
        expect(validateNoma(doc, { now: NOW, cacheBlockFacts: true })).toEqual(validateNoma(parseNoma(src), { now: NOW }));
        let text = src;
        for (const e of edits) {
          text = edit(text, e);
          const previous = doc;
          doc = reparseEdited(doc, text);
          expect(validateNoma(doc, { now: NOW, cacheBlockFacts: true, previous })).toEqual(validateNoma(parseNoma(text), { now: NOW }));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("after several re-parses between validations, with options that change, and without remembering", () => {
    fc.assert(
      fc.property(
        docArb,
        fc.array(editArb, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(OPTION_SETS.length - 1), { minLength: 8, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (src, edits, optionPicks, remember) => {
          let doc = parseNoma(src);
          validateNoma(doc, { ...OPTION_SETS[0], cacheBlockFacts: true });
          // The last state validated with remembered facts: what the next validation takes over.
          let validated = doc;
          let text = src;
          edits.forEach((e, k) => {
            text = edit(text, e);
            doc = reparseEdited(doc, text);
            if (!e[3] && k < edits.length - 1) return;
            const options = OPTION_SETS[optionPicks[k]!]!;
            const fresh = validateNoma(parseNoma(text), options);
            expect(validateNoma(doc, { ...options, cacheBlockFacts: remember[k]!, previous: validated })).toEqual(fresh);
            // The same state again (what a remembered state's next pre-validation does).
            if (remember[k]!) {
              expect(validateNoma(doc, { ...options, cacheBlockFacts: true, previous: doc })).toEqual(fresh);
              validated = doc;
            }
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("over chains of block edits of well-formed documents (re-parsed incrementally), validating after some", () => {
    fc.assert(
      fc.property(
        fc.array(blockArb, { maxLength: 40 }),
        fc.array(blockEditArb, { minLength: 1, maxLength: 8 }),
        fc.nat(OPTION_SETS.length - 1),
        fc.constantFrom("", "---\nprofile: research\n---\n"),
        (start, edits, pick, fm) => {
          const blocks = [...start];
          const options = OPTION_SETS[pick]!;
          const textOf = (): string => `${fm + blocks.join("\n\n")}\n`;
          let text = textOf();
          let doc = parseNoma(text);
          expect(validateNoma(doc, { ...options, cacheBlockFacts: true })).toEqual(validateNoma(parseNoma(text), options));
          let validated = doc;
          edits.forEach((e, k) => {
            editBlocks(blocks, e);
            text = textOf();
            doc = reparseEdited(doc, text);
            if (!e[4] && k < edits.length - 1) return;
            expect(validateNoma(doc, { ...options, cacheBlockFacts: true, previous: validated })).toEqual(validateNoma(parseNoma(text), options));
            validated = doc;
          });
        },
      ),
      { numRuns: 1500 },
    );
  });

  it("finds a broken wikilink that an edit adds far below unchanged, already-collected blocks", () => {
    const blocks = Array.from({ length: 30 }, (_, i) => `::claim{id="c${i}"}\nSee [[c${(i + 1) % 30}]].\n::\n`);
    const src = blocks.join("\n");
    const doc = parseNoma(src);
    expect(validateNoma(doc, { cacheBlockFacts: true, requireEvidenceForClaims: false })).toEqual([]);
    const next = src.replace("See [[c0]].", "See [[c0]] and [[nope]].");
    const diags = validateNoma(reparseEdited(doc, next), { cacheBlockFacts: true, previous: doc, requireEvidenceForClaims: false });
    expect(diags.map((d) => [d.code, d.pos?.line])).toEqual([["broken-reference", 118]]);
  });

  it("supports or unsupports claims far from an edit that adds, retargets or removes their only evidence", () => {
    const claims = Array.from({ length: 20 }, (_, i) => `::claim{id="c${i}" aliases="al${i}"}\nClaim ${i}.\n::\n`).join("\n");
    const src = `${claims}\n::evidence{id="e" for="c3"}\nIt holds.\n::\n`;
    const codes = (text: string, doc: ReturnType<typeof parseNoma>, previous: ReturnType<typeof parseNoma>): string[] => {
      const got = validateNoma(doc, { cacheBlockFacts: true, previous });
      expect(got).toEqual(validateNoma(parseNoma(text)));
      return got.filter((d) => d.code === "claim-without-evidence").map((d) => d.nodeId!);
    };
    let doc = parseNoma(src);
    expect(validateNoma(doc, { cacheBlockFacts: true }).filter((d) => d.code === "claim-without-evidence")).toHaveLength(19);
    let text = src;
    for (const next of [
      src.replace('for="c3"', 'for="al7"'),
      src.replace('for="c3"', 'for="c3"}\n::\n\n::evidence{for="c12"'),
      src.replace('::evidence{id="e" for="c3"}\nIt holds.\n::\n', ""),
    ]) {
      const previous = doc;
      doc = reparseEdited(doc, next);
      const unsupported = codes(next, doc, previous);
      text = next;
      expect(unsupported).toEqual(expect.arrayContaining(["c0"]));
    }
    expect(text).not.toContain("::evidence");
  });

  it("is exact when the lineage runs out, when previous is unrelated, and when previous was already taken over", () => {
    const src = Array.from({ length: 12 }, (_, i) => `::claim{id="c${i}"}\nSee [[c${i + 1}]].\n::\n\n::evidence{for="c${i}"}\nok\n::\n`).join("\n");
    const first = parseNoma(src);
    validateNoma(first, { cacheBlockFacts: true });
    // More re-parses than the lineage keeps: previous is no longer known to share anything.
    let doc = first;
    let text = src;
    for (let k = 0; k < 1100; k++) {
      text = text.replace(/See \[\[c3\]\]( x)?/, (_m, x: string | undefined) => (x === undefined ? "See [[c3]] x" : "See [[c3]]"));
      doc = reparseEdited(doc, text);
    }
    const fresh = validateNoma(parseNoma(text));
    expect(validateNoma(doc, { cacheBlockFacts: true, previous: first })).toEqual(fresh);
    // An unrelated previous document with facts of its own.
    const other = parseNoma(src.replace(/c/g, "q"));
    validateNoma(other, { cacheBlockFacts: true });
    const again = reparseEdited(doc, text.replace("[[c5]]", "[[gone]]"));
    expect(validateNoma(again, { cacheBlockFacts: true, previous: other })).toEqual(validateNoma(parseNoma(text.replace("[[c5]]", "[[gone]]"))));
    // A previous whose facts a later validation took over (spent): validated from scratch.
    const a = parseNoma(src);
    validateNoma(a, { cacheBlockFacts: true });
    const b = reparseEdited(a, src.replace("[[c1]]", "[[c2]]"));
    validateNoma(b, { cacheBlockFacts: true, previous: a });
    const c = reparseEdited(b, src.replace("[[c1]]", "[[nope]]"));
    expect(validateNoma(c, { cacheBlockFacts: true, previous: a })).toEqual(validateNoma(parseNoma(src.replace("[[c1]]", "[[nope]]"))));
  });
});
