/**
 * A freshly parsed document is validated from its block table, without building the
 * node tree; a document whose tree was built is validated from its nodes. Both give the
 * same diagnostics, for any document and any options, and validating never builds the
 * tree as a side effect.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma, type ValidateOptions } from "../../src/internal.js";
import { compactParse } from "../../src/noma/compact-parse.js";

const LINES = [
  "# Title",
  "# Title",
  '## Sub {id="sub" aliases="s1,s2"}',
  '### {id=""}',
  "",
  "",
  "prose with [[k0]] and [[nowhere]]",
  "`[[masked]]` but [[s1]] and [[m1|label]]",
  '::claim{id="k0" confidence=0.5}',
  '::claim{id="k9" confidence=7 aliases="kk"}',
  "::claim",
  '::evidence{id="e1" for="k0"}',
  '::evidence{for="missing" noverify}',
  '::counterevidence{for="kk"}',
  ':::risk{id="r1"}',
  ':::risk{owner="me"}',
  ":::",
  "::",
  '::memory{id="m1" type="fact"}',
  '::memory{type="bogus" last_seen="2020-13-40"}',
  "see [[k0]] and [[e1]]",
  "```",
  "```js",
  "| a | [[k9]] |",
  "|---|---|",
  "| [[sub]] | 2 |",
  "- item [[e1]]",
  "1. first [[r1]]",
  "> quote [[gone]]",
  '::section{id="k0"}',
  '::citation{source="x" accessed="2020-01-01"}',
  '::control{id="c" type="slider" default=5 min=10}',
  '::computed_metric{id="cm" formula="c * 2 + zz"}',
  '::plot{dataset="k0" column="q"}',
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
  "### `[[masked]]` [[lost2]]",
  "- `a` [[gone]] `b` [[k0|x]]",
  "  - nested [[sub]] [[nope]]",
  "10. [[e1]] and `[[hidden]]` [[m1]]",
  ">[[bare]]",
  "> `x` [[q1]]",
  ">",
  "* [[star]]",
  "::figure",
  '::change_request{action="replace" from="a"}',
  "::decision",
  '::todo{scope="x"}',
];
const lineArb = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const docArb = fc
  .tuple(
    fc.array(lineArb, { maxLength: 40 }),
    fc.constantFrom("", "---\nprofile: research\n---\n", "---\naliases: [top]\nprofiles: [decision, bogus]\n---\n"),
    fc.constantFrom("\n", "\r\n"),
  )
  .map(([lines, fm, eol]) => (fm + lines.join("\n")).replace(/\n/g, eol) + eol);
const optionsArb = fc.record(
  {
    profile: fc.constantFrom("research", "decision", "nope"),
    ignoreRules: fc.subarray(["broken-reference", "claim-without-evidence", "duplicate-id", "made-up"]),
    staleDays: fc.nat(3000),
    requireEvidenceForClaims: fc.boolean(),
  },
  { requiredKeys: [] },
);
const NOW = new Date("2026-06-01T00:00:00Z");

describe("validating from the block table", () => {
  it("gives the diagnostics validating the built tree gives", () => {
    fc.assert(
      fc.property(docArb, optionsArb, fc.boolean(), (src, opts, book) => {
        const options: ValidateOptions = { ...opts, now: NOW, datasetSrcExists: (s) => s === "ok.csv" };
        const parseOptions = book ? { rootAliases: ["chapter"] } : {};
        const compact = parseNoma(src, parseOptions);
        const fromTable = validateNoma(compact, options);
        expect(compactParse(compact)).toBeDefined();
        const tree = parseNoma(src, parseOptions);
        void tree.children;
        expect(compactParse(tree)).toBeUndefined();
        expect(fromTable).toEqual(validateNoma(tree, options));
      }),
      { numRuns: 1500 },
    );
  });
});
