/**
 * The validator's rules that look at one directive alone: what they report about a
 * directive depends on nothing but that directive (its name, attributes, children and
 * source lines), the declared profiles and the ignored rules. A directive that an edit
 * left as it was gets the same findings again, at its (possibly moved) lines — which is
 * what lets a re-validation check only the directives an edit re-parsed (see
 * validate-noma.ts, `directiveChecks`).
 *
 * Each directive gets at most one diagnostic per code here, and none of these codes is
 * reported by any other rule: the order these come in never decides the sorted output.
 */
import type { NomaDocument, SectionNode } from "../noma/ast.js";
import { directiveInterior } from "../noma/directive-interior.js";
import { attrOf, type DirectiveFact } from "./directive-fact.js";
import type { RuleCode } from "./rule-catalog.js";
import { confidenceOk, has, parseDate, str } from "./rule-values.js";

/** Where the checks report. */
export interface DirectiveReporter {
  readonly doc: NomaDocument;
  report(code: RuleCode, message: string, node: DirectiveFact | SectionNode | null): void;
}

const NUMERIC_CONTROLS = new Set(["slider", "range", "number", "checkbox", "toggle"]);
const LOCK_MODES = new Set(["control", "content", "all", "unlocked", "none"]);
const CHANGE_ACTIONS = new Set(["insert", "delete", "replace"]);
const MEMORY_TYPES = new Set(["fact", "preference", "episode", "procedure", "decision", "observation", "entity", "relation", "goal", "project", "person"]);
const CITATION_SOURCES = ["source", "url", "doi", "href", "isbn"];

/** Directive names with checks of their own. */
const CHECKED = new Set(["claim", "evidence", "counterevidence", "risk", "decision", "adr", "citation", "change_request", "agent_task", "todo", "control", "state_change", "diagram", "plotly", "figure", "html", "svg", "script", "memory"]);

/** Whether directives named `name` have checks of their own. */
export function isCheckedDirective(name: string): boolean {
  return CHECKED.has(name);
}

/** Report what the one-directive rules find about `d`. `needConfidence`: a declared profile requires claim confidences. */
export function checkDirective(v: DirectiveReporter, d: DirectiveFact, needConfidence: boolean): void {
  switch (d.name) {
    case "claim": {
      const conf = attrOf(d, "confidence");
      if (conf !== undefined && !confidenceOk(conf)) {
        v.report("claim-invalid-confidence", `::claim confidence=${JSON.stringify(conf)} is not a number between 0 and 1.`, d);
      } else if (conf === undefined && needConfidence) {
        v.report("claim-missing-confidence", "::claim has no confidence= attribute (required by the research profiles).", d);
      }
      break;
    }
    case "evidence":
    case "counterevidence": {
      const target = str(attrOf(d, "for"));
      if (target === undefined || target.length === 0) v.report("evidence-missing-for", `::${d.name} has no for= attribute naming the claim it supports.`, d);
      break;
    }
    case "risk":
      if (!has(d, "owner")) v.report("risk-without-owner", "::risk has no owner= attribute.", d);
      break;
    case "decision":
      if (!has(d, "status")) v.report("decision-without-status", "::decision has no status= attribute.", d);
      break;
    case "adr": {
      if (!has(d, "status")) v.report("decision-without-status", "::adr has no status= attribute.", d);
      if (!has(d, "owner")) v.report("adr-missing-owner", "::adr has no owner=.", d);
      if (!has(d, "date")) v.report("adr-missing-date", "::adr has no date=.", d);
      const decided = has(d, "decision") || d.children.some((c) => (c.type === "directive" && c.name === "decision") || (c.type === "section" && /^decision\b/i.test(c.title)));
      if (!decided) v.report("adr-missing-decision", "::adr states no decision (a decision= attribute or a ::decision child).", d);
      break;
    }
    case "citation":
      if (!CITATION_SOURCES.some((k) => has(d, k))) v.report("citation-missing-source", "::citation has no source=, url=, doi=, href= or isbn=.", d);
      break;
    case "change_request": {
      const action = str(attrOf(d, "action"));
      if (action === undefined || !CHANGE_ACTIONS.has(action)) {
        v.report("change-request-invalid-action", `::change_request action=${action === undefined ? "(missing)" : JSON.stringify(action)} is not insert, delete or replace.`, d);
        break;
      }
      const missing = action === "insert" ? !has(d, "to") && !has(d, "text") : action === "delete" ? !has(d, "from") && !has(d, "text") : !has(d, "from") || !has(d, "to");
      if (missing) {
        const need = action === "insert" ? "to= or text=" : action === "delete" ? "from= or text=" : "from= and to=";
        v.report("change-request-missing-revision-text", `::change_request action="${action}" needs ${need}.`, d);
      }
      break;
    }
    case "agent_task":
    case "todo":
      if (!has(d, "scope") && d.children.length === 0) v.report("agent-task-without-scope", `::${d.name} has no scope= attribute, no body and no children.`, d);
      break;
    case "control":
      checkControl(v, d);
      break;
    case "state_change":
      if (!has(d, "block")) v.report("state-change-missing-block", "::state_change has no block= attribute naming the changed block.", d);
      if (!has(d, "from") || !has(d, "to")) v.report("state-change-missing-from-to", "::state_change needs both from= and to=.", d);
      break;
    case "diagram":
      if (!has(d, "kind")) v.report("diagram-missing-kind", "::diagram has no kind= (mermaid, graphviz or drawio).", d);
      if (!directiveInterior(v.doc, d).some((l) => l.trim().length > 0)) v.report("diagram-missing-source", "::diagram has no source body.", d);
      break;
    case "plotly": {
      const body = directiveInterior(v.doc, d).join("\n").trim();
      if (body.length === 0) {
        v.report("plotly-missing-spec", "::plotly has no JSON spec body.", d);
      } else {
        try {
          JSON.parse(body);
        } catch (e) {
          v.report("plotly-invalid-json", `::plotly body is not valid JSON: ${(e as Error).message}.`, d);
        }
      }
      break;
    }
    case "figure":
      if (!has(d, "alt") && !has(d, "caption")) v.report("figure-missing-alt", "::figure has neither alt= nor caption=.", d);
      break;
    case "html":
    case "svg":
    case "script":
      if (!has(d, "trusted")) v.report("escape-hatch-untrusted", `::${d.name} is an escape hatch; add the \`trusted\` flag to acknowledge it (or noverify).`, d);
      break;
    case "memory":
      checkMemory(v, d);
      break;
    default:
      break;
  }
}

function checkControl(v: DirectiveReporter, c: DirectiveFact): void {
  const kind = str(attrOf(c, "type")) ?? str(attrOf(c, "kind"));
  const lock = attrOf(c, "lock");
  if (lock !== undefined && (typeof lock !== "string" || !LOCK_MODES.has(lock))) {
    v.report("control-invalid-lock", `::control lock=${JSON.stringify(lock)} is not one of ${[...LOCK_MODES].join(", ")}.`, c);
  }
  if (kind === undefined || !NUMERIC_CONTROLS.has(kind)) return;
  const def = attrOf(c, "default");
  const boolOk = (kind === "checkbox" || kind === "toggle") && typeof def === "boolean";
  if (typeof def !== "number" && !boolOk) {
    v.report("control-missing-default", `::control (${kind}) has no numeric default= value.`, c);
    return;
  }
  if (typeof def === "number") {
    const min = attrOf(c, "min");
    const max = attrOf(c, "max");
    if ((typeof min === "number" && def < min) || (typeof max === "number" && def > max)) {
      v.report("control-out-of-range-default", `::control default=${def} is outside its range [${typeof min === "number" ? min : "-∞"}, ${typeof max === "number" ? max : "∞"}].`, c);
    }
  }
}

function checkMemory(v: DirectiveReporter, m: DirectiveFact): void {
  if (m.id === undefined) v.report("memory-missing-id", "::memory has no id=.", m);
  const type = str(attrOf(m, "type"));
  if (type === undefined) v.report("memory-missing-type", "::memory has no type=.", m);
  else if (!MEMORY_TYPES.has(type)) v.report("memory-invalid-type", `::memory type="${type}" is not one of ${[...MEMORY_TYPES].join(", ")}.`, m);
  const conf = attrOf(m, "confidence");
  if (conf !== undefined && !confidenceOk(conf)) v.report("memory-invalid-confidence", `::memory confidence=${JSON.stringify(conf)} is not a number between 0 and 1.`, m);
  const seen = attrOf(m, "last_seen");
  if (seen !== undefined && (typeof seen !== "string" || parseDate(seen) === null)) {
    v.report("memory-invalid-last-seen", `::memory last_seen=${JSON.stringify(seen)} is not a date (YYYY-MM-DD or ISO 8601).`, m);
  }
}
