/**
 * broken-reference: for=, parent=, dataset= and [[wikilinks]] whose target is no id or alias
 * of the document (nor, with `resolveOutside`, of its book). Each target is reported once.
 */
import type { Reference, Wikilink } from "../collect-facts.js";
import type { Run, Unresolved } from "../facts-index.js";
import { isNoverify } from "../rule-values.js";
import type { Validation } from "../validation.js";

/** Indexes of the references and wikilinks in [refFrom, refTo) and [linkFrom, linkTo) that do not resolve, appended. */
function lookUp(v: Validation, out: Pick<Unresolved, "refs" | "links">, refFrom: number, refTo: number, linkFrom: number, linkTo: number): void {
  for (let k = refFrom; k < refTo; k++) if (!v.resolves(v.refs[k]!.target)) out.refs.push(k);
  for (let k = linkFrom; k < linkTo; k++) if (!v.resolves(v.wikilinks[k]!.target)) out.links.push(k);
}

/**
 * Which references and wikilinks do not resolve, in order. Resolution depends on the
 * targets and on the id maps alone: when this document kept the id maps of the state its
 * facts were taken over from (an incremental re-parse that left every id as it was), the
 * shared head and tail keep their answers and only the blocks between are looked up.
 */
function unresolvedIndexes(v: Validation): Pick<Unresolved, "refs" | "links"> {
  const { nodeById, aliasMap } = v.doc;
  const facts = v.facts;
  if (facts?.unresolved !== undefined && facts.unresolved.nodeById === nodeById && facts.unresolved.aliasMap === aliasMap) return facts.unresolved;
  const out: Unresolved = { nodeById, aliasMap, refs: [], links: [] };
  const splice = facts?.splice;
  const prev = splice?.unresolved;
  if (splice !== undefined && prev !== undefined && prev.nodeById === nodeById && prev.aliasMap === aliasMap) {
    // Indexes before the replaced run keep their answers, those after it move with it.
    const keep = (old: readonly number[], run: Run, into: number[], head: boolean): void => {
      const shift = run.newTo - run.oldTo;
      for (const k of old) {
        if (head && k < run.from) into.push(k);
        else if (!head && k >= run.oldTo) into.push(k + shift);
      }
    };
    keep(prev.refs, splice.refs, out.refs, true);
    keep(prev.links, splice.links, out.links, true);
    lookUp(v, out, splice.refs.from, splice.refs.newTo, splice.links.from, splice.links.newTo);
    keep(prev.refs, splice.refs, out.refs, false);
    keep(prev.links, splice.links, out.links, false);
  } else {
    lookUp(v, out, 0, v.refs.length, 0, v.wikilinks.length);
  }
  if (facts !== undefined) facts.unresolved = out;
  return out;
}

export function brokenReferences(v: Validation): void {
  const reported = new Set<string>();
  let brokenRefs: readonly Reference[];
  let brokenLinks: readonly Wikilink[];
  if (v.rows !== undefined) {
    ({ brokenRefs, brokenLinks } = v.rows);
  } else {
    const unresolved = unresolvedIndexes(v);
    brokenRefs = unresolved.refs.map((k) => v.refs[k]!);
    brokenLinks = unresolved.links.map((k) => v.wikilinks[k]!);
  }
  // Each target is looked up outside at most once (a book lookup may parse other chapters).
  const outside = v.options.resolveOutside;
  const elsewhere = new Map<string, true | string>();
  const where = (target: string): true | string => {
    if (outside === undefined) return "";
    let w = elsewhere.get(target);
    if (w === undefined) elsewhere.set(target, (w = outside(target)));
    return w;
  };
  for (const ref of brokenRefs) {
    if (reported.has(ref.target)) continue;
    if (isNoverify(ref.node) || (v.options.ignoreRules ?? []).includes("broken-reference")) continue;
    const w = where(ref.target);
    if (w === true) continue;
    reported.add(ref.target);
    v.report("broken-reference", `${ref.attr}="${ref.target}" on ::${ref.node.name} points at an id that does not exist${w}.`, ref.node);
  }
  for (const link of brokenLinks) {
    if (reported.has(link.target) || isNoverify(link.owner) || (v.options.ignoreRules ?? []).includes("broken-reference")) continue;
    const w = where(link.target);
    if (w === true) continue;
    reported.add(link.target);
    v.report("broken-reference", `[[${link.target}]] points at an id that does not exist${w}.`, null, link.owner, link.anchor.pos.line + link.rel, link.column);
  }
}
