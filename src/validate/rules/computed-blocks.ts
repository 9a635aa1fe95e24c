/**
 * The computed blocks (::computed_metric, ::computed_plot): a formula present and parsed,
 * every name it uses known, and chains of computed dependencies at most two deep, without
 * cycles.
 */
import { directiveInterior } from "../../noma/directive-interior.js";
import { attrOf, type DirectiveFact } from "../directive-fact.js";
import { parseFormula } from "../parse-formula.js";
import { str } from "../rule-values.js";
import type { Validation } from "../validation.js";

function formulaOf(v: Validation, node: DirectiveFact): string | undefined {
  const attr = attrOf(node, "formula");
  if (attr !== undefined && typeof attr !== "boolean") return String(attr);
  for (const line of directiveInterior(v.doc, node)) {
    const m = /^\s*formula:\s*(.*)$/.exec(line);
    if (m !== null) return m[1]!.trim();
  }
  return undefined;
}

export function computedBlocks(v: Validation): void {
  const computedNodes = [...v.named("computed_metric"), ...v.named("computed_plot")];
  if (computedNodes.length === 0) return;
  // A formula names a control or a computed block by its id or an alias (§2.2), or by the
  // id with `-` written `_` (a formula identifier cannot hold `-`); `name.attr` names an
  // attribute of the block `name`.
  const controlIds = new Set<string>();
  const computedIds = new Map<string, DirectiveFact>();
  const names = (d: DirectiveFact): string[] => {
    const out = d.id !== undefined ? [d.id, ...d.aliases] : [...d.aliases];
    return [...out, ...out.filter((n) => n.includes("-")).map((n) => n.replace(/-/g, "_"))];
  };
  for (const c of v.named("control")) for (const n of names(c)) controlIds.add(n);
  for (const c of computedNodes) for (const n of names(c)) if (!computedIds.has(n)) computedIds.set(n, c);
  const deps = new Map<DirectiveFact, DirectiveFact[]>();
  for (const node of computedNodes) {
    const formula = formulaOf(v, node);
    if (formula === undefined) {
      v.report("computed-missing-formula", `::${node.name} has no formula= attribute or formula: body line.`, node);
      continue;
    }
    const parsed = parseFormula(formula);
    if (!parsed.ok) {
      v.report("formula-parse-error", `::${node.name} formula "${formula}" is invalid: ${parsed.error}.`, node);
      continue;
    }
    const domain = new Set<string>();
    if (node.name === "computed_plot") {
      // The plot's variable: var= (or variable=, domain_var=, x_var=), a domain="t: 0..10"'s name, else x.
      const domainName = /^\s*([A-Za-z_]\w*)\s*(?:[:=]|in\b)/.exec(str(attrOf(node, "domain")) ?? "")?.[1];
      const declared =
        str(attrOf(node, "var")) ?? str(attrOf(node, "variable")) ?? str(attrOf(node, "domain_var")) ?? str(attrOf(node, "x_var")) ?? domainName ?? "x";
      for (const d of declared.split(/[\s,]+/)) if (d.length > 0) domain.add(d);
    }
    const mine: DirectiveFact[] = [];
    for (const full of parsed.names) {
      const head = full.split(".")[0]!;
      const name = controlIds.has(full) || computedIds.has(full) || domain.has(full) ? full : head;
      if (controlIds.has(name) || domain.has(name)) continue;
      const other = computedIds.get(name);
      if (other !== undefined) {
        mine.push(other);
        continue;
      }
      v.report(
        "computed-unknown-dependency",
        `::${node.name} formula uses "${full}", which is not a ::control, a computed block or a plot-domain variable.`,
        node,
      );
    }
    deps.set(node, mine);
  }
  // Chain depth over computed dependencies, with cycle detection (iterative, no recursion limits).
  const depth = new Map<DirectiveFact, number>();
  const inCycle = new Set<DirectiveFact>();
  const state = new Map<DirectiveFact, 1 | 2>();
  for (const start of deps.keys()) {
    if (state.has(start)) continue;
    const stack: Array<{ node: DirectiveFact; i: number }> = [{ node: start, i: 0 }];
    const path: DirectiveFact[] = [start];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const children = deps.get(top.node) ?? [];
      if (top.i < children.length) {
        const child = children[top.i++]!;
        const s = state.get(child);
        if (s === 1) {
          for (let k = path.indexOf(child); k < path.length; k++) inCycle.add(path[k]!);
        } else if (s === undefined) {
          state.set(child, 1);
          stack.push({ node: child, i: 0 });
          path.push(child);
        }
      } else {
        let d = 0;
        for (const c of children) d = Math.max(d, (depth.get(c) ?? 0) + 1);
        depth.set(top.node, d);
        state.set(top.node, 2);
        stack.pop();
        path.pop();
      }
    }
  }
  for (const node of deps.keys()) {
    if (inCycle.has(node)) {
      v.report("computed-chain-too-deep", `::${node.name} is part of a cycle of computed dependencies.`, node);
    } else if ((depth.get(node) ?? 0) > 2) {
      v.report("computed-chain-too-deep", `::${node.name} depends on a computed chain ${depth.get(node)} levels deep (at most 2).`, node);
    }
  }
}
