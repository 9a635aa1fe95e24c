/**
 * Every diagnostic code the validator can emit, with its severity and a one-line
 * description. Used for `--ignore-rule` checking, SARIF rule metadata and `--help`.
 */
import type { Severity } from "./diagnostic.js";

export interface RuleInfo {
  severity: Severity;
  description: string;
}

export const RULES = {
  // Parse origin (our codes; any error here makes a document Tier 2, §6.2)
  "invalid-frontmatter": { severity: "error", description: "The frontmatter between the `---` fences is not a valid YAML mapping." },
  "unclosed-directive": { severity: "error", description: "A directive is never closed by a line of exactly as many colons." },
  "unclosed-code-fence": { severity: "error", description: "A ``` code fence is never closed." },
  "frontmatter-aliases-unattached": { severity: "warning", description: "Frontmatter `aliases:` have no top-level `# ` heading to attach to and are ignored." },
  "book-manifest-invalid": { severity: "error", description: "A book manifest (*.noma.yml) is not a mapping with a `chapters:` list of paths." },
  "book-chapter-missing": { severity: "error", description: "A book manifest lists a chapter file that does not exist." },
  "capability-invalid": { severity: "error", description: "A capability sidecar (<doc>.capabilities.yml) does not match the Annex A descriptor schema." },
  "capability-unknown-version": {
    severity: "warning",
    description: "A capability sidecar declares a nomaAgent.version this tool does not read; it grants nothing.",
  },
  // Document integrity (§4.4)
  "duplicate-id": { severity: "error", description: "Two or more nodes carry the same canonical id." },
  "broken-reference": { severity: "error", description: "A for=, parent=, dataset= or [[wikilink]] points at an id (or alias) that does not exist." },
  // Profiles
  "unknown-profile": { severity: "warning", description: "The frontmatter declares a profile the validator does not know." },
  "out-of-profile-directive": {
    severity: "warning",
    description:
      "A directive belongs to a kind of document (research, memory, ADR, spec, investment thesis, API reference) none of the declared profiles admits.",
  },
  // Research
  "claim-without-evidence": { severity: "warning", description: "A ::claim has no ::evidence or ::counterevidence pointing at it with for=." },
  "evidence-missing-for": { severity: "warning", description: "An ::evidence or ::counterevidence block has no for= attribute." },
  "risk-without-owner": { severity: "warning", description: "A ::risk block has no owner= attribute." },
  "decision-without-status": { severity: "warning", description: "A ::decision or ::adr block has no status= attribute." },
  "claim-invalid-confidence": { severity: "warning", description: "A ::claim's confidence= is not a number between 0 and 1." },
  "claim-missing-confidence": { severity: "warning", description: "A ::claim in a research profile has no confidence= attribute." },
  "citation-missing-source": { severity: "warning", description: "A ::citation has no source=, url= or doi= with a value." },
  "stale-citation": { severity: "warning", description: "A ::citation's accessed= date is older than the stale window." },
  "change-request-invalid-action": {
    severity: "warning",
    description: "A ::change_request's action= is not insert, delete or replace (or a word for one).",
  },
  "change-request-missing-revision-text": { severity: "warning", description: "A ::change_request lacks the from=/to=/text= its action needs." },
  // Agent tasks
  "agent-task-without-scope": { severity: "warning", description: "An ::agent_task or ::todo has no scope=, no body and no children." },
  // Computed interaction
  "control-missing-default": { severity: "warning", description: "A numeric ::control has no numeric default=." },
  "control-out-of-range-default": { severity: "warning", description: "A ::control's default= is outside its min=/max= range." },
  "control-invalid-lock": { severity: "warning", description: "A ::control's lock= is not control, content, all, unlocked or none." },
  "computed-missing-formula": { severity: "warning", description: "A computed block has no formula= attribute or `formula:` body line." },
  "formula-parse-error": { severity: "error", description: "A computed block's formula is not valid or calls a function outside the allow-list." },
  "computed-unknown-dependency": {
    severity: "error",
    description:
      "A formula names something that is not a control or a computed block (by id, alias or id with - as _; " +
      "name.attr names its attribute) or a plot-domain variable.",
  },
  "computed-chain-too-deep": { severity: "warning", description: "A computed block depends on a chain deeper than two levels, or on a cycle." },
  // State changes
  "state-change-missing-block": { severity: "warning", description: "A ::state_change has no block= attribute." },
  "state-change-missing-from-to": { severity: "warning", description: "A ::state_change is missing from= or to=." },
  // Diagrams, plots, figures, datasets
  "diagram-missing-kind": { severity: "warning", description: "A ::diagram has no kind= (mermaid, graphviz or drawio)." },
  "diagram-missing-source": { severity: "warning", description: "A ::diagram has no source body." },
  "plot-missing-data": { severity: "error", description: "A ::plot has neither data= nor dataset=." },
  "plot-unknown-dataset": { severity: "error", description: "A ::plot's dataset= does not resolve to a ::dataset block." },
  "plot-unknown-column": { severity: "error", description: "A ::plot's column= is not a column of its dataset." },
  "plot-mixed-delimiters": { severity: "warning", description: "A ::plot mixes comma-separated and space-separated data= / xlabels=." },
  "plotly-missing-spec": { severity: "warning", description: "A ::plotly block has no JSON spec body." },
  "plotly-invalid-json": { severity: "error", description: "A ::plotly block's body is not valid JSON." },
  "figure-missing-alt": { severity: "warning", description: "A ::figure has neither alt= nor caption=." },
  "dataset-src-missing": { severity: "warning", description: "A ::dataset's src= file cannot be loaded." },
  "escape-hatch-untrusted": { severity: "warning", description: "An ::html, ::svg or ::script block lacks the `trusted` flag." },
  // Memory profile
  "memory-missing-id": { severity: "warning", description: "A ::memory block has no id=." },
  "memory-missing-type": { severity: "warning", description: "A ::memory block has no type=." },
  "memory-invalid-type": { severity: "warning", description: "A ::memory block's type= is not a known memory type." },
  "memory-invalid-confidence": { severity: "warning", description: "A ::memory block's confidence= is not a number between 0 and 1." },
  "memory-invalid-last-seen": { severity: "warning", description: "A ::memory block's last_seen= is not a date (YYYY-MM-DD or ISO 8601)." },
  "memory-wikilink-non-memory-target": {
    severity: "warning",
    description: "A [[wikilink]] inside a ::memory block points at something that is not a ::memory block.",
  },
  // ADR profile
  "adr-missing-owner": { severity: "warning", description: "An ::adr block has no owner=." },
  "adr-missing-date": { severity: "warning", description: "An ::adr block has no date=." },
  "adr-missing-decision": { severity: "warning", description: "An ::adr block states no decision (decision= or a ::decision child)." },
  // Meta
  "unknown-ignore-rule": { severity: "info", description: "--ignore-rule named a code the validator does not know." },
} satisfies Record<string, RuleInfo>;

export type RuleCode = keyof typeof RULES;

export function isRuleCode(code: string): code is RuleCode {
  return Object.hasOwn(RULES, code);
}

/**
 * Across blocks, what a rule reads of every block (see RULE_READS):
 * - `ids`: which blocks carry which ids and aliases, and their kind and directive name
 *   (what a reference or a wikilink resolves to);
 * - `references`: every `for=`, `parent=` and `dataset=` with the directive making it (its
 *   name, id, lines and `noverify`);
 * - `wikilinks`: every `[[link]]` of the prose, where it is, and its nearest enclosing
 *   directive (name, lines, `noverify`);
 * - `claims`: every ::claim's id, aliases, lines and `noverify`;
 * - `computed`: every ::control, ::computed_metric and ::computed_plot, all of its text;
 * - `plots`: every ::plot and ::dataset, all of its text.
 */
export type RuleFacet = "ids" | "references" | "wikilinks" | "claims" | "computed" | "plots";

/**
 * What each rule's diagnostics depend on: the dependency map an incremental validation
 * reads (validate-edited.ts) to know what an edit can have changed.
 * - `parse`: the parse's problems (the text as a whole);
 * - `document`: the frontmatter and the options alone;
 * - `ids`: the id index as a whole (the parse has it: nothing is collected);
 * - `block`: one directive alone — its name, attributes, lines and children — with the
 *   frontmatter and the options (profiles, stale window, clock, dataset lookup);
 * - a list of facets: what the rule reads across blocks (RuleFacet); a diagnostic stays as it
 *   was while what every block contributes to those facets does.
 */
export type RuleReads = "parse" | "document" | "ids" | "block" | readonly RuleFacet[];

export const RULE_READS = {
  "invalid-frontmatter": "parse",
  "unclosed-directive": "parse",
  "unclosed-code-fence": "parse",
  "frontmatter-aliases-unattached": "parse",
  "book-manifest-invalid": "parse",
  "book-chapter-missing": "parse",
  "capability-invalid": "parse",
  "capability-unknown-version": "parse",
  "duplicate-id": "ids",
  "broken-reference": ["ids", "references", "wikilinks"],
  "unknown-profile": "document",
  "out-of-profile-directive": "block",
  "claim-without-evidence": ["ids", "references", "claims"],
  "evidence-missing-for": "block",
  "risk-without-owner": "block",
  "decision-without-status": "block",
  "claim-invalid-confidence": "block",
  "claim-missing-confidence": "block",
  "citation-missing-source": "block",
  "stale-citation": "block",
  "change-request-invalid-action": "block",
  "change-request-missing-revision-text": "block",
  "agent-task-without-scope": "block",
  "control-missing-default": "block",
  "control-out-of-range-default": "block",
  "control-invalid-lock": "block",
  "computed-missing-formula": "block",
  "formula-parse-error": "block",
  "computed-unknown-dependency": ["computed"],
  "computed-chain-too-deep": ["computed"],
  "state-change-missing-block": "block",
  "state-change-missing-from-to": "block",
  "diagram-missing-kind": "block",
  "diagram-missing-source": "block",
  "plot-missing-data": "block",
  "plot-unknown-dataset": ["ids", "plots"],
  "plot-unknown-column": ["ids", "plots"],
  "plot-mixed-delimiters": "block",
  "plotly-missing-spec": "block",
  "plotly-invalid-json": "block",
  "figure-missing-alt": "block",
  "dataset-src-missing": "block",
  "escape-hatch-untrusted": "block",
  "memory-missing-id": "block",
  "memory-missing-type": "block",
  "memory-invalid-type": "block",
  "memory-invalid-confidence": "block",
  "memory-invalid-last-seen": "block",
  "memory-wikilink-non-memory-target": ["ids", "wikilinks"],
  "adr-missing-owner": "block",
  "adr-missing-date": "block",
  "adr-missing-decision": "block",
  "unknown-ignore-rule": "document",
} as const satisfies Record<RuleCode, RuleReads>;
