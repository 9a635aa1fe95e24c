/**
 * `check --fix`: the safe mechanical fix of a diagnostic, as patch ops. Pure.
 *
 * A fix is offered only where the right change is certain from the document itself:
 *
 * - `broken-reference`: the target names exactly one block once case, `_`/`-` and spaces
 *   are ignored (`for="Main_Claim"` → `main-claim`); every reference to that target is
 *   rewritten (for=, parent=, dataset=, [[wikilinks]], a [[link|label]] keeping its label);
 * - `plot-unknown-dataset` / `plot-unknown-column`: the same, among the ::dataset blocks / the
 *   dataset's columns;
 * - `plot-mixed-delimiters`: the space-separated one of data= / xlabels= written with commas;
 * - `control-invalid-lock`: a lock mode in another case or with spaces (`"Content "` → `content`);
 * - `claim-invalid-confidence` / `memory-invalid-confidence`: a percentage (`"85%"` → 0.85);
 * - `memory-invalid-last-seen`: a date written `YYYY/MM/DD` or `YYYY.MM.DD` → `YYYY-MM-DD`;
 * - `memory-missing-id`: an id made from the memory's first words, unique in the document;
 * - `diagram-missing-kind`: the kind the source's first line names beyond doubt (`graph TD`,
 *   `sequenceDiagram`, … → mermaid; `digraph` → graphviz; `<mxfile` → drawio).
 *
 * Every other code has no fix: it needs a person's knowledge (an owner, a status, a source,
 * alt text, evidence, which of two duplicate ids the references mean, whether an escape hatch
 * is trusted) or edits frontmatter, which no patch op addresses.
 *
 * The ops are catalog ops (§3.1, §1.5) with the target block's `baseHash`: `update_attribute`
 * on a block with an id; a change inside a block without one goes to the nearest enclosing
 * directive with an id (`replace_body` when that block holds no directives, else
 * `replace_block`). Patch ops address blocks by id only (§2.1), so a change no such block
 * encloses (a link in a top-level paragraph, a memory block without an id at the top level)
 * has no fix; nor has any diagnostic of a document with duplicate ids (§2.1: no patch may
 * address it) or parse errors. Each fix is tried on the text before it is offered: it must
 * apply, clear its diagnostic, and add no warning and no error (an error may give way to
 * another, as a plot whose dataset= now resolves can be told its column= does not).
 */
import type { AttrValue, BlockNode, DirectiveNode, NomaDocument } from "../noma/ast.js";
import { getAttr } from "../noma/attributes.js";
import { datasetColumns } from "../noma/dataset-columns.js";
import { directiveInterior } from "../noma/directive-interior.js";
import { lineText, parseNoma } from "../noma/parse-noma.js";
import { reparseEdited } from "../noma/reparse/reparse-edited.js";
import { slugify } from "../noma/slugify.js";
import { applyOp, validateOp } from "../patch/apply-op.js";
import { isPatchError } from "../patch/patch-error.js";
import { blockHash, setOpenerAttr } from "../patch/op-support.js";
import { LOCK_MODES } from "../validate/rules/check-directive.js";
import { RULES } from "../validate/rule-catalog.js";
import { scanLineLinks } from "../validate/collect-facts.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import type { ValidateOptions } from "../validate/validate-noma.js";
import { validateNoma } from "../validate/validate-noma.js";

export interface Fix {
  /** What the fix changes, in words. */
  description: string;
  /** The patch ops that apply it, in order. */
  ops: Record<string, unknown>[];
}

/** The codes a fix may exist for. */
export const FIXABLE_CODES: ReadonlySet<string> = new Set([
  "broken-reference",
  "plot-unknown-dataset",
  "plot-unknown-column",
  "plot-mixed-delimiters",
  "control-invalid-lock",
  "claim-invalid-confidence",
  "memory-invalid-confidence",
  "memory-invalid-last-seen",
  "memory-missing-id",
  "diagram-missing-kind",
]);

/** One change a fix makes: an attribute of a directive, or a span of one line. */
type Edit = { kind: "attr"; node: DirectiveNode; key: string; value: AttrValue } | { kind: "text"; line: number; from: number; to: number; insert: string };

interface Planned {
  description: string;
  edits: Edit[];
}

/** Names compared for "the same name, written differently": case, `_`/`-` and spaces ignored. */
function nameKey(s: string): string {
  return s
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "-");
}

function isNoverify(node: DirectiveNode | null): boolean {
  if (node === null) return false;
  const v = getAttr(node.attrs, "noverify");
  return v !== undefined && v !== false;
}

interface Located {
  node: BlockNode;
  /** Directives around it, innermost last. */
  around: DirectiveNode[];
}

/** Every block with the directives around it, in document order. */
function allBlocks(doc: NomaDocument): Located[] {
  const out: Located[] = [];
  const visit = (nodes: readonly BlockNode[], around: DirectiveNode[]): void => {
    for (const n of nodes) {
      out.push({ node: n, around });
      if (n.type === "directive") visit(n.children, [...around, n]);
      else if (n.type === "section") visit(n.children, around);
    }
  };
  visit(doc.children, []);
  return out;
}

/** What the fixes of one document read, indexed once. */
interface Ctx {
  doc: NomaDocument;
  blocks: Located[];
  /** The directive opening on each line (1-based). */
  directiveAt: Map<number, Located>;
  /** For each line (1-based), the innermost directive whose lines hold it (index into `blocks`, -1: none). */
  innermost: Int32Array;
  /** By name key: the canonical ids and aliases written that way, with the canonical id they name. */
  names: Map<string, Array<{ id: string; name: string }>>;
  /** Every reference (an attribute or a wikilink) by its target, built on first use. */
  refs?: Map<string, Edit[]>;
}

function context(doc: NomaDocument): Ctx {
  const blocks = allBlocks(doc);
  const directiveAt = new Map<number, Located>();
  const innermost = new Int32Array(doc.endLine + 2).fill(-1);
  blocks.forEach((b, k) => {
    if (b.node.type !== "directive") return;
    directiveAt.set(b.node.pos.line, b);
    // In document order a child comes after its parent: its lines are overwritten with it.
    innermost.fill(k, b.node.pos.line, b.node.endLine + 1);
  });
  const names = new Map<string, Array<{ id: string; name: string }>>();
  const add = (name: string, id: string): void => {
    const key = nameKey(name);
    const list = names.get(key);
    if (list === undefined) names.set(key, [{ id, name }]);
    else list.push({ id, name });
  };
  for (const id of doc.nodeById.keys()) add(id, id);
  for (const [alias, id] of doc.aliasMap) add(alias, id);
  return { doc, blocks, directiveAt, innermost, names };
}

/** The directives around line `line` (1-based), innermost last; the directive opening on that line counts as around it. */
function directivesAround(ctx: Ctx, line: number): DirectiveNode[] {
  const k = ctx.innermost[line] ?? -1;
  if (k === -1) return [];
  const b = ctx.blocks[k]!;
  return [...b.around, b.node as DirectiveNode];
}

/**
 * The one name (canonical id, else alias) that `target` means once written the same way,
 * among the blocks `admit` accepts; undefined when none or several blocks match.
 */
function uniqueName(ctx: Ctx, target: string, admit: (n: BlockNode) => boolean = () => true): string | undefined {
  const matches = new Map<string, string>();
  for (const { id, name } of ctx.names.get(nameKey(target)) ?? []) {
    const node = ctx.doc.nodeById.get(id);
    if (node === undefined || !admit(node)) continue;
    // The canonical id when it is written that way, else the alias.
    if (name === id || !matches.has(id)) matches.set(id, name);
  }
  if (matches.size !== 1) return undefined;
  const name = [...matches.values()][0]!;
  return name === target ? undefined : name;
}

const REF_KEYS = ["for", "parent", "dataset"] as const;

function resolves(doc: NomaDocument, target: string): boolean {
  return doc.nodeById.has(target) || doc.aliasMap.has(target);
}

/**
 * Every reference (attributes, and wikilinks outside code), by target; the prose of a
 * `noverify` block left out, as the validator leaves it (`all`: kept, as rename_id keeps it).
 */
function references(ctx: Ctx, all = false): Map<string, Edit[]> {
  if (ctx.refs !== undefined && !all) return ctx.refs;
  const refs = new Map<string, Edit[]>();
  const add = (target: string, e: Edit): void => {
    const list = refs.get(target);
    if (list === undefined) refs.set(target, [e]);
    else list.push(e);
  };
  const found: number[] = [];
  const seenLines = new Set<number>();
  for (const { node, around } of ctx.blocks) {
    if (node.type === "directive") {
      if (isNoverify(node) && !all) continue;
      for (const key of REF_KEYS) {
        const v = getAttr(node.attrs, key);
        if (v !== undefined && typeof v !== "boolean") add(String(v), { kind: "attr", node, key, value: String(v) });
      }
      continue;
    }
    if (node.type === "code" || node.type === "thematic_break") continue;
    if (isNoverify(around[around.length - 1] ?? null) && !all) continue;
    const last = node.type === "section" ? node.pos.line : node.endLine;
    for (let line = node.pos.line; line <= last; line++) {
      if (seenLines.has(line)) continue;
      seenLines.add(line);
      const text = lineText(ctx.doc, line - 1);
      if (!text.includes("[[")) continue;
      const n = scanLineLinks(text, 0, text.length, text.indexOf("`"), found);
      for (let k = 0; k < n; k += 2) add(text.slice(found[k]!, found[k + 1]!), { kind: "text", line, from: found[k]!, to: found[k + 1]!, insert: "" });
    }
  }
  if (!all) ctx.refs = refs;
  return refs;
}

/** Every reference to `target`, rewritten to `to`. */
function retarget(ctx: Ctx, target: string, to: string, all = false): Edit[] {
  return (references(ctx, all).get(target) ?? []).map((e) => (e.kind === "attr" ? { ...e, value: to } : { ...e, insert: to }));
}

/**
 * The patch ops that rewrite the references to `from` in `text` — `for=`, `parent=`,
 * `dataset=` and `[[wikilinks]]`, the positions rename_id retargets (§3.3), in `noverify`
 * blocks too — as `to`, each carried by a block with an id as a fix is; `unaddressable`: the
 * lines of those no block with an id encloses (a link in a top-level paragraph), which no
 * patch op can address and the ops leave as written. For the other chapters of a book when
 * a chapter renames one of its ids.
 */
export function retargetOps(text: string, from: string, to: string): { ops: Record<string, unknown>[]; unaddressable: number[] } {
  const doc = parseNoma(text);
  const ctx = context(doc);
  const carried: Edit[] = [];
  const unaddressable: number[] = [];
  for (const e of retarget(ctx, from, to, true)) {
    if (carrierOf(ctx, e) !== undefined) carried.push(e);
    else unaddressable.push(e.kind === "attr" ? e.node.pos.line : e.line);
  }
  const ops = carried.length > 0 ? (toOps(ctx, { description: `"${from}" → "${to}"`, edits: carried }) ?? []) : [];
  return { ops, unaddressable };
}

function str(v: AttrValue | undefined): string | undefined {
  return v === undefined || typeof v === "boolean" ? undefined : String(v);
}

const MERMAID = new RegExp(
  "^(graph|flowchart)\\s+(TB|TD|BT|RL|LR)\\b|" +
    "^(sequenceDiagram|classDiagram|stateDiagram(-v2)?|erDiagram|gantt|pie|journey|gitGraph|mindmap|timeline|quadrantChart|requirementDiagram|C4Context)\\b",
);

/** The kind a diagram's first source line names beyond doubt. */
function diagramKind(doc: NomaDocument, d: DirectiveNode): string | undefined {
  const first = directiveInterior(doc, d).find((l) => l.trim().length > 0 && !l.trim().startsWith("%%") && !l.trim().startsWith("```"));
  if (first === undefined) return undefined;
  const t = first.trim();
  if (MERMAID.test(t)) return "mermaid";
  if (/^(strict\s+)?(di)?graph\b[^{]*\{/.test(t)) return "graphviz";
  if (/^<(mxfile|mxGraphModel)\b/.test(t)) return "drawio";
  return undefined;
}

/** An id for a memory without one: its first words, made unique. */
function memoryId(doc: NomaDocument, d: DirectiveNode): string {
  const text = directiveInterior(doc, d).find((l) => l.trim().length > 0) ?? "";
  const words = slugify(text)
    .split("-")
    .filter((w) => w.length > 0)
    .slice(0, 6)
    .join("-");
  const base = /^[a-z_]/.test(words) ? words : `memory${words.length > 0 ? `-${words}` : ""}`;
  let id = base;
  for (let k = 2; doc.nodeById.has(id) || doc.aliasMap.has(id); k++) id = `${base}-${k}`;
  return id;
}

/** What would fix diagnostic `d` (before translating into ops), or undefined. */
function plan(ctx: Ctx, d: Diagnostic): Planned | undefined {
  const { doc } = ctx;
  const line = d.pos?.line;
  // The directive a diagnostic is about: the one opening on its line.
  const node = line !== undefined ? (ctx.directiveAt.get(line)?.node as DirectiveNode | undefined) : undefined;
  const attr = (key: string, value: AttrValue, what: string): Planned | undefined =>
    node === undefined ? undefined : { description: what, edits: [{ kind: "attr", node, key, value }] };
  switch (d.code) {
    case "broken-reference": {
      let target: string | undefined;
      if (node !== undefined) target = REF_KEYS.map((k) => str(getAttr(node.attrs, k))).find((t) => t !== undefined && t.length > 0 && !resolves(doc, t));
      if (target === undefined && line !== undefined) {
        const text = lineText(doc, line - 1);
        const found: number[] = [];
        const n = scanLineLinks(text, 0, text.length, text.indexOf("`"), found);
        const broken = new Set<string>();
        for (let k = 0; k < n; k += 2) {
          const t = text.slice(found[k]!, found[k + 1]!);
          if (!resolves(doc, t)) broken.add(t);
        }
        const at = d.pos!.column - 1;
        const here = [...broken].find((t) => text.startsWith(`[[${t}`, at));
        target = here ?? (broken.size === 1 ? [...broken][0] : undefined);
      }
      if (target === undefined) return undefined;
      const to = uniqueName(ctx, target);
      if (to === undefined) return undefined;
      const edits = retarget(ctx, target, to);
      return edits.length === 0
        ? undefined
        : { description: `"${target}" → "${to}" (${edits.length} ${edits.length === 1 ? "reference" : "references"})`, edits };
    }
    case "plot-unknown-dataset": {
      const target = node !== undefined ? str(getAttr(node.attrs, "dataset")) : undefined;
      if (target === undefined) return undefined;
      const to = uniqueName(ctx, target, (n) => n.type === "directive" && n.name === "dataset");
      return to === undefined ? undefined : attr("dataset", to, `dataset="${target}" → "${to}"`);
    }
    case "plot-unknown-column": {
      if (node === undefined) return undefined;
      const column = str(getAttr(node.attrs, "column"));
      const dsName = str(getAttr(node.attrs, "dataset"));
      const ds = dsName !== undefined ? (doc.nodeById.get(dsName) ?? doc.nodeById.get(doc.aliasMap.get(dsName) ?? "")) : undefined;
      if (column === undefined || ds === undefined || ds.type !== "directive") return undefined;
      const columns = datasetColumns(directiveInterior(doc, ds), str(getAttr(ds.attrs, "format"))) ?? [];
      const matches = columns.filter((c) => nameKey(c) === nameKey(column));
      return matches.length === 1 ? attr("column", matches[0]!, `column="${column}" → "${matches[0]}"`) : undefined;
    }
    case "plot-mixed-delimiters": {
      if (node === undefined) return undefined;
      for (const key of ["data", "xlabels"]) {
        const v = str(getAttr(node.attrs, key));
        if (v !== undefined && !v.includes(",") && /\S\s+\S/.test(v.trim())) {
          const commas = v.trim().split(/\s+/).join(",");
          return attr(key, commas, `${key}= written with commas: "${commas}"`);
        }
      }
      return undefined;
    }
    case "control-invalid-lock": {
      const lock = node !== undefined ? getAttr(node.attrs, "lock") : undefined;
      const mode = typeof lock === "string" ? lock.trim().toLowerCase() : undefined;
      return mode !== undefined && LOCK_MODES.has(mode) ? attr("lock", mode, `lock="${lock as string}" → "${mode}"`) : undefined;
    }
    case "claim-invalid-confidence":
    case "memory-invalid-confidence": {
      const conf = node !== undefined ? getAttr(node.attrs, "confidence") : undefined;
      const m = typeof conf === "string" ? /^\s*(\d{1,3}(?:\.\d+)?)\s*%\s*$/.exec(conf) : null;
      if (m === null) return undefined;
      const n = Number(m[1]);
      if (n > 100) return undefined;
      const value = Number((n / 100).toFixed(12));
      return attr("confidence", value, `confidence="${conf as string}" → ${value}`);
    }
    case "memory-invalid-last-seen": {
      const seen = node !== undefined ? getAttr(node.attrs, "last_seen") : undefined;
      const m = typeof seen === "string" ? /^\s*(\d{4})[/.](\d{2})[/.](\d{2})\s*$/.exec(seen) : null;
      if (m === null) return undefined;
      const iso = `${m[1]}-${m[2]}-${m[3]}`;
      const t = Date.parse(`${iso}T00:00:00Z`);
      if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== iso) return undefined;
      return attr("last_seen", iso, `last_seen="${seen as string}" → "${iso}"`);
    }
    case "memory-missing-id": {
      if (node === undefined || node.id !== undefined) return undefined;
      const id = memoryId(doc, node);
      return attr("id", id, `give the memory the id "${id}"`);
    }
    case "diagram-missing-kind": {
      const kind = node !== undefined ? diagramKind(doc, node) : undefined;
      return kind === undefined ? undefined : attr("kind", kind, `kind="${kind}" (its source is ${kind})`);
    }
    default:
      return undefined;
  }
}

/** Where an edit is carried: an attribute op on a block with an id, or a rewrite of the enclosing block with an id. */
interface Carrier {
  node: DirectiveNode;
  /** Attribute ops on `node` itself, or its lines rewritten. */
  kind: "attr" | "lines";
}

function carrierOf(ctx: Ctx, e: Edit): Carrier | undefined {
  if (e.kind === "attr" && e.node.id !== undefined && e.key !== "id") return { node: e.node, kind: "attr" };
  const line = e.kind === "attr" ? e.node.pos.line : e.line;
  const around = directivesAround(ctx, line);
  // An attribute edit of a block without an id changes its opening line: a block around it carries it.
  const candidates = e.kind === "attr" ? around.filter((d) => d !== e.node) : around;
  for (let k = candidates.length - 1; k >= 0; k--) if (candidates[k]!.id !== undefined) return { node: candidates[k]!, kind: "lines" };
  return undefined;
}

function contains(outer: DirectiveNode, inner: DirectiveNode): boolean {
  return outer.pos.line <= inner.pos.line && inner.endLine <= outer.endLine;
}

/** The ops of a planned fix, or undefined when some edit has no block to carry it. */
function toOps(ctx: Ctx, planned: Planned): Record<string, unknown>[] | undefined {
  const { doc } = ctx;
  const carried: Array<{ edit: Edit; carrier: Carrier }> = [];
  for (const edit of planned.edits) {
    const carrier = carrierOf(ctx, edit);
    if (carrier === undefined) return undefined;
    carried.push({ edit, carrier });
  }
  // A block whose lines are rewritten carries every edit inside it.
  const rewritten = carried.filter((c) => c.carrier.kind === "lines").map((c) => c.carrier.node);
  for (const c of carried) {
    const outer = rewritten.filter((r) => r !== c.carrier.node && contains(r, c.carrier.node)).sort((a, b) => a.pos.line - b.pos.line)[0];
    if (outer !== undefined) c.carrier = { node: outer, kind: "lines" };
    else if (c.carrier.kind === "attr" && rewritten.includes(c.carrier.node)) c.carrier = { node: c.carrier.node, kind: "lines" };
  }
  const ops: Record<string, unknown>[] = [];
  const hashed = new Set<DirectiveNode>();
  const base = (n: DirectiveNode): Record<string, string> => {
    if (hashed.has(n)) return {};
    hashed.add(n);
    return { baseHash: blockHash(doc, n).slice(0, 16) };
  };
  const byBlock = new Map<DirectiveNode, Edit[]>();
  for (const { edit, carrier } of carried) {
    if (carrier.kind === "attr" && edit.kind === "attr")
      ops.push({ op: "update_attribute", id: carrier.node.id!, key: edit.key, value: edit.value, ...base(carrier.node) });
    else byBlock.set(carrier.node, [...(byBlock.get(carrier.node) ?? []), edit]);
  }
  for (const [block, edits] of byBlock) {
    const lines: string[] = [];
    for (let l = block.pos.line; l <= block.endLine; l++) lines.push(lineText(doc, l - 1));
    const at = (line: number): number => line - block.pos.line;
    // Spans of a line right to left, so earlier offsets stay valid; attribute edits through the engine's own writer.
    const spans = edits.filter((e): e is Extract<Edit, { kind: "text" }> => e.kind === "text").sort((a, b) => a.line - b.line || b.from - a.from);
    for (const e of spans) lines[at(e.line)] = lines[at(e.line)]!.slice(0, e.from) + e.insert + lines[at(e.line)]!.slice(e.to);
    for (const e of edits) if (e.kind === "attr") lines[at(e.node.pos.line)] = setOpenerAttr(lines[at(e.node.pos.line)]!, e.key, e.value).line;
    const bodyOnly =
      block.closed &&
      !block.children.some((c) => c.type === "directive") &&
      !edits.some((e) => (e.kind === "attr" ? e.node === block : e.line === block.pos.line));
    if (bodyOnly) ops.push({ op: "replace_body", id: block.id!, content: lines.slice(1, -1).join("\n"), ...base(block) });
    else ops.push({ op: "replace_block", id: block.id!, content: lines.join("\n"), ...base(block) });
  }
  return ops;
}

/**
 * Apply `ops` in order to `text` as the patch engine does, without what a record needs (a
 * sha256 per op: an op near the start of a large document hashes all of it again), to try
 * fixes; undefined when an op is rejected or nothing changes.
 */
export function applyOpsInMemory(text: string, ops: readonly unknown[]): { text: string; doc: NomaDocument } | undefined {
  let doc = parseNoma(text);
  let current = text;
  try {
    for (const raw of ops) {
      const next = applyOp(doc, validateOp(raw));
      if (next === current) continue;
      current = next;
      doc = reparseEdited(doc, current);
    }
  } catch (e) {
    if (isPatchError(e)) return undefined;
    throw e;
  }
  return current === text ? undefined : { text: current, doc };
}

/** How many diagnostics of each code, and how many errors. */
function counts(ds: readonly Diagnostic[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const d of ds) {
    m.set(d.code, (m.get(d.code) ?? 0) + 1);
    if (d.severity === "error") m.set(" errors", (m.get(" errors") ?? 0) + 1);
  }
  return m;
}

/**
 * Whether `after` has, of each code fixed, fewer diagnostics than `before` by as many as were
 * fixed, no more errors, and no more warnings of any other code. (An error may give way to
 * another: a plot whose dataset= now resolves can be told its column= does not — one error
 * for two, and a fix of its own.)
 */
function clears(before: Map<string, number>, after: Map<string, number>, fixed: ReadonlyMap<string, number>, errorCodes: ReadonlySet<string>): boolean {
  for (const [code, n] of fixed) if ((after.get(code) ?? 0) > (before.get(code) ?? 0) - n) return false;
  if ((after.get(" errors") ?? 0) > (before.get(" errors") ?? 0)) return false;
  for (const [c, n] of after) if (!fixed.has(c) && !c.startsWith(" ") && !errorCodes.has(c) && n > (before.get(c) ?? 0)) return false;
  return true;
}

export interface DocumentFixesOptions {
  /** The options the diagnostics were computed with (profile, ignored rules, …). */
  validate?: ValidateOptions;
}

/**
 * The fix of each diagnostic of `text` that has one, by the diagnostic's index in
 * `diagnostics` (the document's own diagnostics, as `validateNoma` or `check` gave them).
 */
export function documentFixes(text: string, diagnostics: readonly Diagnostic[], options: DocumentFixesOptions = {}): Map<number, Fix> {
  const out = new Map<number, Fix>();
  if (!diagnostics.some((d) => FIXABLE_CODES.has(d.code))) return out;
  const doc = parseNoma(text);
  if (doc.problems.some((p) => p.severity === "error") || doc.duplicateIds.size > 0) return out;
  const ctx = context(doc);
  const before = counts(validateNoma(doc, options.validate ?? {}));
  const errorCodes = new Set(
    Object.entries(RULES)
      .filter(([, r]) => r.severity === "error")
      .map(([c]) => c),
  );
  const candidates: Array<{ i: number; code: string; fix: Fix }> = [];
  diagnostics.forEach((d, i) => {
    if (!FIXABLE_CODES.has(d.code)) return;
    const planned = plan(ctx, d);
    const ops = planned !== undefined ? toOps(ctx, planned) : undefined;
    if (planned !== undefined && ops !== undefined && ops.length > 0) candidates.push({ i, code: d.code, fix: { description: planned.description, ops } });
  });
  const tryOps = (ops: Record<string, unknown>[]): Map<string, number> | undefined => {
    const tried = applyOpsInMemory(text, ops);
    return tried === undefined ? undefined : counts(validateNoma(tried.doc, options.validate ?? {}));
  };
  // Tried in groups of fixes of different blocks, one patch each; a group that does not hold
  // as a whole is tried fix by fix.
  let pending = candidates;
  while (pending.length > 0) {
    const used = new Set<string>();
    const group: typeof candidates = [];
    const rest: typeof candidates = [];
    for (const c of pending) {
      const ids = c.fix.ops.map((op) => String(op["id"]));
      if (ids.some((id) => used.has(id))) rest.push(c);
      else {
        for (const id of ids) used.add(id);
        group.push(c);
      }
    }
    const fixed = new Map<string, number>();
    for (const c of group) fixed.set(c.code, (fixed.get(c.code) ?? 0) + 1);
    const after = group.length > 1 ? tryOps(group.flatMap((c) => c.fix.ops)) : undefined;
    if (after !== undefined && clears(before, after, fixed, errorCodes)) {
      for (const c of group) out.set(c.i, c.fix);
    } else {
      for (const c of group) {
        const alone = tryOps(c.fix.ops);
        if (alone !== undefined && clears(before, alone, new Map([[c.code, 1]]), errorCodes)) out.set(c.i, c.fix);
      }
    }
    pending = rest;
  }
  return out;
}
