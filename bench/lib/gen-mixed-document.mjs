// A large synthetic .noma document shaped like real ones: frontmatter, long prose, nested
// headings, research directives (claims, evidence, citations, risks, decisions), datasets
// in YAML, CSV and JSON with plots naming their columns, callouts with nested directives,
// nested lists, tables, code fences, footnotes and comments. Used by the one-shot CLI bench
// (`check`, `patch`), where every kind of block a real document holds should be paid for.
const PROSE = [
  "The service keeps its latency budget under load because the queue in front of the writer absorbs bursts",
  "and the reader pool scales with the number of open connections, which the operators watch every morning.",
  "When the upstream provider slows down, the circuit breaker opens after five consecutive timeouts and the",
  "fallback path answers from the cache, trading freshness for availability as the runbook describes.",
];

function prose(i, lines, ref = i) {
  const out = [];
  for (let k = 0; k < lines; k++) out.push(`${PROSE[(i + k) % PROSE.length]}${k === lines - 1 ? ` See [[c${ref}]] and [[s${ref}]].` : ""}`);
  return out.join("\n");
}

function yamlDataset(i) {
  return [
    `::dataset{id="d${i}" title="Quarterly figures ${i}"}`,
    "schema:",
    "  quarter: string",
    "  revenue: number",
    "  margin: number",
    "rows:",
    `  - [Q1, ${i}.5, 0.31]`,
    `  - [Q2, ${i + 1}.25, 0.33]`,
    `  - [Q3, ${i + 2}.75, 0.29]`,
    `  - [Q4, ${i + 3}.0, 0.35]`,
    "::",
  ];
}

function csvDataset(i) {
  return [`::dataset{id="d${i}" format="csv"}`, "region,users,churn", `north,${i * 3},0.02`, `south,${i * 5},0.03`, `east,${i * 7},0.01`, "::"];
}

function jsonDataset(i) {
  return [
    `::dataset{id="d${i}" format="json"}`,
    "[",
    `  {"week": 1, "signups": ${i}, "activations": ${i >> 1}},`,
    `  {"week": 2, "signups": ${i + 4}, "activations": ${(i + 4) >> 1}},`,
    `  {"week": 3, "signups": ${i + 9}, "activations": ${(i + 9) >> 1}}`,
    "]",
    "::",
  ];
}

const COLUMNS = [
  ["revenue", "margin"],
  ["users", "churn"],
  ["signups", "activations"],
];

/** One section in DATA_EVERY holds a dataset (YAML, CSV or JSON in turn) and two plots of its columns. */
const DATA_EVERY = 50;

function data(i) {
  const kind = (i / DATA_EVERY) % 3;
  const ds = kind === 0 ? yamlDataset(i) : kind === 1 ? csvDataset(i) : jsonDataset(i);
  return [
    `### Data ${i}`,
    "",
    ...ds,
    "",
    `::plot{id="p${i}" dataset="d${i}" column="${COLUMNS[kind][0]}" type="line"}`,
    "::",
    "",
    `::plot{id="q${i}" dataset="d${i}" column="${COLUMNS[kind][1]}" type="bar"}`,
    "::",
    "",
  ];
}

export function generateMixedDocument(targetBytes) {
  const head = [
    "---",
    "title: Operations handbook (benchmark)",
    "profile: research",
    "aliases: [ops-handbook, handbook]",
    "owners:",
    "  - platform-team",
    "  - sre",
    "status: living",
    "updated: 2026-10-01",
    "---",
    "",
    "# Operations handbook",
    "",
    prose(1, 3, 0),
    "",
  ].join("\n");
  const parts = [head];
  let size = head.length;
  let i = 0;
  while (size < targetBytes) {
    const s = [
      `## Area ${i} {id="s${i}"}`,
      "",
      prose(i, 4),
      "",
      prose(i + 1, 3, i),
      "",
      `::claim{id="c${i}" confidence=0.${(i % 9) + 1} owner="team-${i % 7}"}`,
      `Claim ${i}: the area behaves as described in [[s${i}]] under the load of the last quarter.`,
      "::",
      "",
      `::evidence{id="e${i}" for="c${i}"}`,
      `Measured in load test ${i} at 1,800 requests per second; the report is attached to [[s${i}]].`,
      "::",
      "",
      `::citation{id="cit${i}" source="Postmortem ${i}" accessed="2026-09-01"}`,
      "Chapter 4, service level objectives.",
      "::",
      "",
      ...(i % DATA_EVERY === 0 ? data(i) : []),
      `### Risks and decisions ${i}`,
      "",
      `::callout{id="box${i}" kind="warning"}`,
      `:::risk{id="r${i}" owner="ops" severity="${["low", "medium", "high"][i % 3]}"}`,
      `A nested risk for area ${i}; mitigated by [[dec${i}]].`,
      ":::",
      "::",
      "",
      `::decision{id="dec${i}" status="accepted"}`,
      `We keep the fallback path for area ${i}.[^n${i}]`,
      "::",
      "",
      `[^n${i}]: Decided in the weekly review ${i}.`,
      "",
      "| Metric | Value | Unit |",
      "|:-------|------:|:----:|",
      `| latency | ${i} | ms |`,
      `| throughput | ${i * 3} | rps |`,
      `| errors | ${i % 11} | % |`,
      "",
      "- first step",
      "  - a nested detail",
      "- second step",
      `- third step, see [[r${i}]]`,
      "",
      "1. numbered one",
      "2. numbered two",
      "",
      "```sh",
      `curl -s https://example.invalid/area/${i} | jq .status # ::not-a-directive`,
      "```",
      "",
    ].join("\n");
    parts.push(s);
    size += s.length + 1;
    i++;
  }
  return { text: parts.join("\n"), sections: i };
}
