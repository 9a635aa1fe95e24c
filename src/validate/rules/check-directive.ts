/**
 * The validator's rules that look at one directive alone: what they report about a
 * directive depends on nothing but that directive (its name, attributes, children and
 * source lines), the declared profiles and the ignored rules. A directive that an edit
 * left as it was gets the same findings again, at its (possibly moved) lines — which is
 * what lets a re-validation check only the directives an edit re-parsed (see
 * directive-checks.ts).
 *
 * Each directive gets at most one diagnostic per code here, and none of these codes is
 * reported by any other rule: the order these come in never decides the sorted output.
 */
import type { NomaDocument, SectionNode } from "../../noma/ast.js";
import { directiveInterior } from "../../noma/directive-interior.js";
import { attrOf, type DirectiveFact } from "../directive-fact.js";
import type { RuleCode } from "../rule-catalog.js";
import { confidenceOk, has, parseDate, str } from "../rule-values.js";

/** Where the checks report. */
export interface DirectiveReporter {
  readonly doc: NomaDocument;
  report(code: RuleCode, message: string, node: DirectiveFact | SectionNode | null): void;
}

const NUMERIC_CONTROLS = new Set(["slider", "range", "number", "checkbox", "toggle"]);
export const LOCK_MODES: ReadonlySet<string> = new Set(["control", "content", "all", "unlocked", "none"]);
/**
 * change_request actions: insert, delete, replace, and the words documents use for them
 * (compared case-insensitively). Only a given action= is checked.
 */
const CHANGE_ACTIONS = new Map<string, "insert" | "delete" | "replace">([
  ...(["insert", "insertion", "add", "addition"] as const).map((a) => [a, "insert"] as const),
  ...(["delete", "deletion", "remove", "removal"] as const).map((a) => [a, "delete"] as const),
  ...(["replace", "replacement", "substitute", "substitution", "change", "modify", "edit", "update"] as const).map((a) => [a, "replace"] as const),
]);
/**
 * Memory types (compared case-insensitively, `-` and spaces read as `_`): the kinds agent
 * memories are filed under — semantic/episodic/procedural memory, the kinds of facts,
 * preferences and decisions agents keep, and the entities they keep them about.
 */
const MEMORY_TYPES = new Set([
  "fact",
  "semantic",
  "episode",
  "episodic",
  "event",
  "procedure",
  "procedural",
  "skill",
  "workflow",
  "instruction",
  "preference",
  "habit",
  "decision",
  "rule",
  "policy",
  "convention",
  "constraint",
  "observation",
  "insight",
  "lesson",
  "feedback",
  "belief",
  "hypothesis",
  "question",
  "goal",
  "plan",
  "task",
  "todo",
  "project",
  "context",
  "reference",
  "note",
  "summary",
  "entity",
  "relation",
  "relationship",
  "person",
  "user",
  "profile",
  "identity",
  "state",
  "working",
]);

/** Directive names with checks of their own. */
const CHECKED = new Set([
  "claim",
  "evidence",
  "counterevidence",
  "risk",
  "decision",
  "adr",
  "citation",
  "change_request",
  "agent_task",
  "todo",
  "control",
  "state_change",
  "diagram",
  "plotly",
  "figure",
  "html",
  "svg",
  "script",
  "memory",
]);

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
      const decided =
        has(d, "decision") ||
        d.children.some((c) => (c.type === "directive" && c.name === "decision") || (c.type === "section" && /^decision\b/i.test(c.title)));
      if (!decided) v.report("adr-missing-decision", "::adr states no decision (a decision= attribute or a ::decision child).", d);
      break;
    }
    case "citation":
      // A non-empty string (or number) value of source=, url= or doi= names where it comes from.
      // Three calls, not a .some() over the keys: that made a closure per citation.
      if (!hasText(d, "source") && !hasText(d, "url") && !hasText(d, "doi"))
        v.report("citation-missing-source", "::citation has no source=, url= or doi= naming where it comes from.", d);
      break;
    case "change_request": {
      const action = changeAction(d);
      if (action === undefined) {
        // Only an action= that is given can be invalid: a change request without one (and
        // nothing that tells it) gets no finding, as the reference reports none (issue 27).
        const given = attrOf(d, "action");
        if (given !== undefined)
          v.report("change-request-invalid-action", `::change_request action=${JSON.stringify(given)} is not insert, delete or replace.`, d);
        break;
      }
      const text = has(d, "text") || d.children.length > 0;
      const missing =
        action === "insert" ? !has(d, "to") && !text : action === "delete" ? !has(d, "from") && !text : !has(d, "from") || (!has(d, "to") && !text);
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
      if (!has(d, "trusted"))
        v.report("escape-hatch-untrusted", `::${d.name} is an escape hatch; add the \`trusted\` flag to acknowledge it (or noverify).`, d);
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
      v.report(
        "control-out-of-range-default",
        `::control default=${def} is outside its range [${typeof min === "number" ? min : "-∞"}, ${typeof max === "number" ? max : "∞"}].`,
        c,
      );
    }
  }
}

/**
 * A change request's action: action= (or a word for it); without one, what its fields
 * say — from= and to= replace, to= or text= alone insert, from= alone deletes.
 */
function changeAction(d: DirectiveFact): "insert" | "delete" | "replace" | undefined {
  const given = attrOf(d, "action");
  if (given !== undefined) return typeof given === "string" ? CHANGE_ACTIONS.get(given.trim().toLowerCase()) : undefined;
  const from = has(d, "from");
  const to = has(d, "to") || has(d, "text");
  return from && has(d, "to") ? "replace" : from ? "delete" : to ? "insert" : undefined;
}

/** A known memory type, or one made of them (`user_preference`, `project-decision`). */
function isMemoryType(type: string): boolean {
  const t = type
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return MEMORY_TYPES.has(t) || (t.includes("_") && t.split("_").every((part) => MEMORY_TYPES.has(part)));
}

/** Whether `node` carries `key` with a non-empty text (or number) value: a bare flag names nothing. */
function hasText(node: DirectiveFact, key: string): boolean {
  const v = attrOf(node, key);
  return typeof v === "number" || (typeof v === "string" && v.trim().length > 0);
}

function checkMemory(v: DirectiveReporter, m: DirectiveFact): void {
  if (m.id === undefined) v.report("memory-missing-id", "::memory has no id=.", m);
  const given = attrOf(m, "type");
  const type = str(given);
  if (given === undefined) v.report("memory-missing-type", "::memory has no type=.", m);
  else if (type === undefined || !isMemoryType(type)) {
    v.report(
      "memory-invalid-type",
      `::memory type=${JSON.stringify(given)} is not a memory type (e.g. fact, preference, decision, procedure, episode, observation, entity).`,
      m,
    );
  }
  const conf = attrOf(m, "confidence");
  if (conf !== undefined && !confidenceOk(conf))
    v.report("memory-invalid-confidence", `::memory confidence=${JSON.stringify(conf)} is not a number between 0 and 1.`, m);
  const seen = attrOf(m, "last_seen");
  if (seen !== undefined && (typeof seen !== "string" || parseDate(seen) === null)) {
    v.report("memory-invalid-last-seen", `::memory last_seen=${JSON.stringify(seen)} is not a date (YYYY-MM-DD or ISO 8601).`, m);
  }
}
