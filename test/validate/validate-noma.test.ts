/**
 * The validator: every rule fires on a document that breaks it and stays
 * quiet on one that does not; noverify, --ignore-rule, profiles, the injected
 * clock, and the summary derivation of §4.2.
 */
import { describe, expect, it } from "vitest";
import { parseNoma, RULES, summarize, validateNoma, type ValidateOptions } from "../../src/internal.js";

const NOW = new Date("2026-11-22T12:00:00Z");

function codes(src: string, options: ValidateOptions = {}): string[] {
  return validateNoma(parseNoma(src), { now: NOW, ...options }).map((d) => d.code);
}

/** [code, a document that triggers it, a fixed document that does not, options] */
const CASES: Array<[string, string, string, ValidateOptions?]> = [
  ["duplicate-id", '::note{id="x"}\n::\n\n::tip{id="x"}\n::\n', '::note{id="x"}\n::\n\n::tip{id="y"}\n::\n'],
  ["broken-reference", "See [[nowhere]].\n", '::note{id="nowhere"}\n::\n\nSee [[nowhere]].\n'],
  ["unknown-profile", "---\nprofile: nonsense\n---\n", "---\nprofile: minimal\n---\n"],
  [
    "out-of-profile-directive",
    '---\nprofile: minimal\n---\n::claim{id="c"}\n::\n',
    "---\nprofile: minimal\n---\n::note\n::\n",
    { requireEvidenceForClaims: false },
  ],
  ["claim-without-evidence", '::claim{id="c"}\nx\n::\n', '::claim{id="c"}\nx\n::\n\n::evidence{for="c"}\ny\n::\n'],
  ["evidence-missing-for", "::evidence\ny\n::\n", '::claim{id="c"}\n::\n\n::evidence{for="c"}\ny\n::\n'],
  ["risk-without-owner", "::risk\nx\n::\n", '::risk{owner="ana"}\nx\n::\n'],
  ["decision-without-status", "::decision\nx\n::\n", '::decision{status="accepted"}\nx\n::\n'],
  ["claim-invalid-confidence", '::claim{id="c" confidence=1.5}\n::\n', '::claim{id="c" confidence=0.5}\n::\n', { requireEvidenceForClaims: false }],
  [
    "claim-missing-confidence",
    '---\nprofile: research\n---\n::claim{id="c"}\n::\n',
    '---\nprofile: research\n---\n::claim{id="c" confidence=0.7}\n::\n',
    { requireEvidenceForClaims: false },
  ],
  ["citation-missing-source", "::citation\n::\n", '::citation{url="https://x.invalid"}\n::\n'],
  ["stale-citation", '::citation{source="s" accessed="2024-01-01"}\n::\n', '::citation{source="s" accessed="2026-06-01"}\n::\n'],
  ["change-request-invalid-action", '::change_request{action="rewrite" from="a" to="b"}\n::\n', '::change_request{action="replace" from="a" to="b"}\n::\n'],
  ["change-request-missing-revision-text", '::change_request{action="replace" from="a"}\n::\n', '::change_request{action="insert" text="new words"}\n::\n'],
  ["agent-task-without-scope", "::agent_task\n::\n", '::agent_task{scope="docs/"}\n::\n'],
  ["control-missing-default", '::control{id="k" type="slider"}\n::\n', '::control{id="k" type="slider" default=3}\n::\n'],
  [
    "control-out-of-range-default",
    '::control{id="k" type="slider" default=30 min=0 max=10}\n::\n',
    '::control{id="k" type="slider" default=3 min=0 max=10}\n::\n',
  ],
  ["control-invalid-lock", '::control{id="k" lock="forever"}\n::\n', '::control{id="k" lock="content"}\n::\n'],
  ["computed-missing-formula", '::computed_metric{id="m"}\n::\n', '::computed_metric{id="m" formula="1 + 2"}\n::\n'],
  ["formula-parse-error", '::computed_metric{id="m" formula="eval(1)"}\n::\n', '::computed_metric{id="m" formula="max(1, 2) ^ 2"}\n::\n'],
  [
    "computed-unknown-dependency",
    '::computed_metric{id="m" formula="rate * 2"}\n::\n',
    '::control{id="rate" type="number" default=1}\n::\n\n::computed_metric{id="m" formula="rate * 2"}\n::\n',
  ],
  [
    "computed-chain-too-deep",
    '::computed_metric{id="a" formula="1"}\n::\n::computed_metric{id="b" formula="a"}\n::\n::computed_metric{id="c" formula="b"}\n::\n::computed_metric{id="d" formula="c"}\n::\n',
    '::computed_metric{id="a" formula="1"}\n::\n::computed_metric{id="b" formula="a"}\n::\n::computed_metric{id="c" formula="b"}\n::\n',
  ],
  ["state-change-missing-block", '::state_change{from="a" to="b"}\n::\n', '::note{id="n"}\n::\n\n::state_change{block="n" from="a" to="b"}\n::\n'],
  ["state-change-missing-from-to", '::state_change{block="x" from="a"}\n::\n', '::state_change{block="x" from="a" to="b"}\n::\n'],
  ["diagram-missing-kind", "::diagram\ngraph TD\n::\n", '::diagram{kind="mermaid"}\ngraph TD\n::\n'],
  ["diagram-missing-source", '::diagram{kind="mermaid"}\n::\n', '::diagram{kind="mermaid"}\ngraph TD\n::\n'],
  ["plot-missing-data", "::plot\n::\n", '::plot{data="1,2,3"}\n::\n'],
  [
    "plot-unknown-dataset",
    '::note{id="n"}\n::\n\n::plot{dataset="n"}\n::\n',
    '::dataset{id="n"}\nschema:\n  a: number\nrows:\n  - [1]\n::\n\n::plot{dataset="n"}\n::\n',
  ],
  [
    "plot-unknown-column",
    '::dataset{id="d"}\nschema:\n  a: number\nrows:\n  - [1]\n::\n\n::plot{dataset="d" column="b"}\n::\n',
    '::dataset{id="d"}\nschema:\n  a: number\nrows:\n  - [1]\n::\n\n::plot{dataset="d" column="a"}\n::\n',
  ],
  ["plot-mixed-delimiters", '::plot{data="1,2,3" xlabels="a b c"}\n::\n', '::plot{data="1,2,3" xlabels="a,b,c"}\n::\n'],
  ["plotly-missing-spec", "::plotly\n::\n", '::plotly\n{"data": []}\n::\n'],
  ["plotly-invalid-json", "::plotly\n{data: []}\n::\n", '::plotly\n{"data": []}\n::\n'],
  ["figure-missing-alt", '::figure{src="a.png"}\n::\n', '::figure{src="a.png" alt="A chart"}\n::\n'],
  ["escape-hatch-untrusted", "::html\n<b>x</b>\n::\n", "::html{trusted}\n<b>x</b>\n::\n"],
  ["memory-missing-id", '::memory{type="fact"}\n::\n', '::memory{id="m" type="fact"}\n::\n'],
  ["memory-missing-type", '::memory{id="m"}\n::\n', '::memory{id="m" type="fact"}\n::\n'],
  ["memory-invalid-type", '::memory{id="m" type="rumour"}\n::\n', '::memory{id="m" type="preference"}\n::\n'],
  ["memory-invalid-confidence", '::memory{id="m" type="fact" confidence="high"}\n::\n', '::memory{id="m" type="fact" confidence=0.9}\n::\n'],
  ["memory-invalid-last-seen", '::memory{id="m" type="fact" last_seen="2026-02-30"}\n::\n', '::memory{id="m" type="fact" last_seen="2026-02-28"}\n::\n'],
  [
    "memory-wikilink-non-memory-target",
    '::note{id="n"}\n::\n\n::memory{id="m" type="fact"}\nSee [[n]].\n::\n',
    '::memory{id="n" type="fact"}\n::\n\n::memory{id="m" type="fact"}\nSee [[n]].\n::\n',
  ],
  [
    "adr-missing-owner",
    '::adr{id="a" status="accepted" date="2026-01-01" decision="use x"}\n::\n',
    '::adr{id="a" status="accepted" owner="li" date="2026-01-01" decision="use x"}\n::\n',
  ],
  [
    "adr-missing-date",
    '::adr{id="a" status="accepted" owner="li" decision="use x"}\n::\n',
    '::adr{id="a" status="accepted" owner="li" date="2026-01-01" decision="use x"}\n::\n',
  ],
  [
    "adr-missing-decision",
    '::adr{id="a" status="accepted" owner="li" date="2026-01-01"}\n::\n',
    '::adr{id="a" status="accepted" owner="li" date="2026-01-01"}\n:::decision{status="accepted"}\nUse x.\n:::\n::\n',
  ],
  ["invalid-frontmatter", "---\na: [\n---\n", "---\na: []\n---\n"],
  ["unclosed-directive", "::note\ntext\n", "::note\ntext\n::\n"],
  ["unclosed-code-fence", "```\ncode\n", "```\ncode\n```\n"],
  ["frontmatter-aliases-unattached", "---\naliases: [a]\n---\ntext\n", "---\naliases: [a]\n---\n# Root\n"],
];

describe("every rule", () => {
  it.each(CASES)("%s fires on the broken document and not on the fixed one", (code, broken, fixed, options) => {
    expect(codes(broken, options)).toContain(code);
    expect(codes(fixed, options)).not.toContain(code);
  });

  it("each emitted code's severity is the catalogue's", () => {
    for (const [code, broken, , options] of CASES) {
      const found = validateNoma(parseNoma(broken), { now: NOW, ...options }).find((d) => d.code === code);
      expect(found?.severity, code).toBe(RULES[code as keyof typeof RULES].severity);
    }
  });

  it("the table covers every rule the catalogue lists (except the ones tested separately)", () => {
    const covered = new Set(CASES.map((c) => c[0]));
    const separate = new Set([
      "unknown-ignore-rule",
      "dataset-src-missing",
      "book-manifest-invalid",
      "book-chapter-missing",
      "capability-invalid",
      "capability-unknown-version",
    ]);
    expect(Object.keys(RULES).filter((c) => !covered.has(c) && !separate.has(c))).toEqual([]);
  });
});

describe("references", () => {
  it("resolve through aliases and report each broken target once", () => {
    const src = '::claim{id="c" aliases="main"}\n::\n\n::evidence{for="main"}\n::\n\n[[gone]] and [[gone|again]] and `[[code]]` and [[not an id]]\n';
    const diags = validateNoma(parseNoma(src), { now: NOW });
    expect(diags.filter((d) => d.code === "broken-reference").map((d) => d.message)).toEqual(["[[gone]] points at an id that does not exist."]);
    expect(diags.map((d) => d.code)).not.toContain("claim-without-evidence");
  });

  it("point at the offending block with line, column and node id", () => {
    const d = validateNoma(parseNoma('# T\n\n::evidence{id="e" for="nope"}\nx\n::\n'), { now: NOW });
    expect(d).toEqual([
      {
        severity: "error",
        code: "broken-reference",
        message: 'for="nope" on ::evidence points at an id that does not exist.',
        pos: { line: 3, column: 1 },
        nodeId: "e",
        endLine: 5,
      },
    ]);
  });

  it("wikilinks in code fences are ignored", () => {
    expect(codes("```\n[[nowhere]]\n```\n")).toEqual([]);
  });
});

describe("suppression", () => {
  it("noverify silences a block and its own prose", () => {
    expect(codes("::risk{noverify}\nSee [[nowhere]].\n::\n")).toEqual([]);
  });

  it("ignoreRules silences codes; unknown codes yield one info each", () => {
    const d = validateNoma(parseNoma("::risk\n::\n"), { ignoreRules: ["risk-without-owner", "no-such-rule", "no-such-rule"] });
    expect(d).toEqual([expect.objectContaining({ severity: "info", code: "unknown-ignore-rule" })]);
  });
});

describe("options", () => {
  it("a --profile overrides the frontmatter's", () => {
    expect(codes('---\nprofile: research\n---\n::memory{id="m" type="fact"}\n::\n')).toContain("out-of-profile-directive");
    expect(codes('---\nprofile: research\n---\n::memory{id="m" type="fact"}\n::\n', { profile: "agent-memory" })).toEqual([]);
  });

  it("stale windows: block > frontmatter > staleDays option > 365", () => {
    const cite = (attrs: string): string => `::citation{source="s" accessed="2026-10-01" ${attrs}}\n::\n`;
    expect(codes(cite(""))).toEqual([]);
    expect(codes(cite(""), { staleDays: 30 })).toEqual(["stale-citation"]);
    expect(codes(`---\nstale_citation_days: 90\n---\n${cite("")}`, { staleDays: 30 })).toEqual([]);
    expect(codes(cite("stale_after_days=10"))).toEqual(["stale-citation"]);
  });

  it("the clock is injected", () => {
    const src = '::citation{source="s" accessed="2026-01-01"}\n::\n';
    expect(codes(src, { now: new Date("2026-06-01") })).toEqual([]);
    expect(codes(src, { now: new Date("2027-06-01") })).toEqual(["stale-citation"]);
  });

  it("dataset-src-missing asks the injected loader", () => {
    const src = '::dataset{id="d" src="data/x.csv"}\n::\n';
    expect(codes(src, { datasetSrcExists: () => false })).toEqual(["dataset-src-missing"]);
    expect(codes(src, { datasetSrcExists: () => true })).toEqual([]);
    expect(codes(src)).toEqual([]);
  });

  it("claim-without-evidence can be turned off", () => {
    expect(codes('::claim{id="c"}\n::\n', { requireEvidenceForClaims: false })).toEqual([]);
  });
});

describe("summary (§4.2)", () => {
  it("takes the highest severity; empty is ok", () => {
    expect(summarize([])).toBe("ok");
    expect(summarize([{ severity: "info", code: "x", message: "" }])).toBe("ok");
    expect(
      summarize([
        { severity: "warning", code: "x", message: "" },
        { severity: "info", code: "y", message: "" },
      ]),
    ).toBe("warn");
    expect(
      summarize([
        { severity: "warning", code: "x", message: "" },
        { severity: "error", code: "y", message: "" },
      ]),
    ).toBe("error");
  });
});
