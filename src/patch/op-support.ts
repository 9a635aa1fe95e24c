/**
 * Shared machinery for the patch ops: target lookup with the right error
 * codes, block hashes, fragment parsing and re-fencing, attribute rewriting on
 * an opening line, blank-line-aware insertion and deletion of blocks.
 */
import type { AttrValue, BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { coerceAttrValue, getAttr, parseAttributes } from "../noma/attributes.js";
import { classifyColonLine, lineText, MAX_COLONS, parseNoma } from "../noma/parse-noma.js";
import { rawLinesSlice } from "../noma/raw-lines-slice.js";
import { oneShotSha256Hex } from "./one-shot-sha256.js";
import { PatchError } from "./patch-error.js";
import { deleteLines, insertLines, type TextEdit } from "./text-edit.js";

export type IdNode = SectionNode | DirectiveNode;

/** sha256 hex of a block's source lines (raw, `\r` kept) joined with `\n` (the `baseHash` / `read_doc` hash). */
export function blockHash(doc: NomaDocument, node: { pos: { line: number }; endLine: number }): string {
  return oneShotSha256Hex(rawLinesSlice(doc.source, doc.lineStarts, node.pos.line, node.endLine));
}

/** The node carrying canonical id `id`, or a PatchError with `missingCode` explaining why not. */
export function findById(doc: NomaDocument, id: string, missingCode: "target_missing" | "parent_missing", role: string): IdNode {
  const node = doc.nodeById.get(id);
  if (node === undefined) {
    const canonical = doc.aliasMap.get(id);
    if (canonical !== undefined) {
      throw new PatchError(missingCode, `${role} "${id}" is an alias of "${canonical}"; patches address blocks by canonical id only (§2.2).`);
    }
    throw new PatchError(missingCode, `${role} "${id}" does not exist in the document.`);
  }
  const dups = doc.duplicateIds.get(id);
  if (dups !== undefined) {
    throw new PatchError(
      "id_conflict",
      `${role} "${id}" is carried by ${dups.length} blocks (lines ${dups.map((n) => n.pos.line).join(", ")}); block identity is ambiguous until the ` +
        `duplicate-id error is fixed.`,
    );
  }
  return node;
}

/** Like findById, but the node must be a directive block. */
export function findDirective(
  doc: NomaDocument,
  id: string,
  missingCode: "target_missing" | "parent_missing" = "target_missing",
  role = "Target",
): DirectiveNode {
  const node = findById(doc, id, missingCode, role);
  if (node.type !== "directive") {
    throw new PatchError(
      missingCode,
      `${role} "${id}" is a heading section (line ${node.pos.line}), not a directive block; this op works on directive blocks only.`,
    );
  }
  return node;
}

/** Check an op's `baseHash` precondition against a block. */
export function checkBaseHash(doc: NomaDocument, node: { pos: { line: number }; endLine: number }, baseHash: string | undefined, role: string): void {
  if (baseHash === undefined) return;
  const actual = blockHash(doc, node);
  if (!actual.startsWith(baseHash.toLowerCase())) {
    throw new PatchError(
      "sha_mismatch",
      `baseHash ${baseHash} does not match the current hash of ${role} (${actual.slice(0, 12)}…): the block changed since it was read.`,
    );
  }
}

export interface Parented {
  parent: DirectiveNode | SectionNode | null;
  siblings: BlockNode[];
  index: number;
  /** Colons of the nearest enclosing directive (0 at the top level). */
  enclosingColons: number;
}

/** Where a node sits in the tree. */
export function locate(doc: NomaDocument, target: BlockNode): Parented {
  let found: Parented | null = null;
  const visit = (nodes: BlockNode[], parent: DirectiveNode | SectionNode | null, colons: number): boolean => {
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i]!;
      if (n === target) {
        found = { parent, siblings: nodes, index: i, enclosingColons: colons };
        return true;
      }
      if (n.pos.line <= target.pos.line && n.endLine >= target.endLine) {
        if (n.type === "directive" && visit(n.children, n, n.colons)) return true;
        if (n.type === "section" && visit(n.children, n, colons)) return true;
      }
    }
    return false;
  };
  visit(doc.children, null, 0);
  if (found === null) throw new Error("internal: node not found in its own document");
  return found;
}

/** Every directive in a subtree (including the root), in order. */
export function directivesIn(node: DirectiveNode): DirectiveNode[] {
  const out: DirectiveNode[] = [];
  const go = (n: DirectiveNode): void => {
    out.push(n);
    for (const c of n.children) if (c.type === "directive") go(c);
  };
  go(node);
  return out;
}

/** Ids declared in a subtree (sections included). */
export function idsIn(nodes: readonly BlockNode[]): string[] {
  const out: string[] = [];
  const go = (list: readonly BlockNode[]): void => {
    for (const n of list) {
      if ((n.type === "directive" || n.type === "section") && n.id !== undefined) out.push(n.id);
      if (n.type === "directive" || n.type === "section") go(n.children);
    }
  };
  go(nodes);
  return out;
}

/** Shift every fence line (opener and close) of `block` (lines relative to `firstLine`) by `shift` colons, at least 2. */
export function refence(lines: string[], firstLine: number, block: DirectiveNode, shift: number): string[] {
  if (shift === 0) return lines;
  const out = [...lines];
  for (const d of directivesIn(block)) {
    const idxs = [d.pos.line - firstLine];
    if (d.closed) idxs.push(d.endLine - firstLine);
    for (const i of idxs) {
      const line = out[i]!;
      let m = 0;
      while (line.charCodeAt(m) === 58) m++;
      const next = Math.max(2, m + shift);
      if (next > MAX_COLONS) throw new PatchError("invalid_content", `Re-fencing would nest "${d.name}" deeper than ${MAX_COLONS} colons.`);
      out[i] = ":".repeat(next) + line.slice(m);
    }
  }
  return out;
}

export interface Fragment {
  lines: string[];
  node: DirectiveNode;
  ids: string[];
}

/** A `replace_block`/`add_block` fragment: trailing newlines stripped; exactly one closed top-level directive. */
export function parseFragment(content: string, field = "content"): Fragment {
  const text = content.replace(/(?:\r\n|\r|\n)+$/, "");
  if (text.trim().length === 0)
    throw new PatchError("invalid_content", `${field} is empty; it must be exactly one directive block (e.g. "::note{id=\\"n1\\"}\\ntext\\n::").`);
  const doc = parseNoma(text);
  if (doc.frontmatter !== undefined) throw new PatchError("invalid_content", `${field} starts with frontmatter; it must be exactly one directive block.`);
  const problem = doc.problems.find((p) => p.severity === "error");
  if (problem !== undefined) throw new PatchError("invalid_content", `${field} does not parse cleanly: ${problem.message}`);
  if (doc.children.length !== 1 || doc.children[0]!.type !== "directive") {
    const kinds = doc.children.map((c) => (c.type === "directive" ? `::${c.name}` : c.type)).join(", ");
    throw new PatchError(
      "invalid_content",
      `${field} must parse to exactly one top-level directive block; found ${doc.children.length === 0 ? "nothing" : kinds}.`,
    );
  }
  const ids = idsIn(doc.children);
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new PatchError("id_conflict", `${field} declares the id "${id}" twice.`);
    seen.add(id);
  }
  return { lines: text.split(/\r\n|\r|\n/), node: doc.children[0] as DirectiveNode, ids };
}

/** A block that receives children: a directive, or a heading section that folds the blocks after it. */
export type ParentNode = DirectiveNode | SectionNode;

/** The parent named by an add_block / move_block op: a directive or a (top-level) heading section (§2.1, §3.1.2). */
export function findParent(doc: NomaDocument, id: string): ParentNode {
  const node = findById(doc, id, "parent_missing", "Parent");
  // A heading section's children are the blocks its heading folds: read from the tree (a
  // target-only view of a fresh parse hands the op back to the whole document here).
  if (node.type === "section") void doc.children;
  if (node.type === "section" && node.nested) {
    throw new PatchError(
      "parent_missing",
      `Parent "${id}" is a heading inside a directive (line ${node.pos.line}): a one-line section with no children of its own; add the block to the ` +
        `enclosing directive.`,
    );
  }
  return node;
}

/**
 * How many of a parent's children a new block can be placed among. A heading section's
 * children after its first sub-heading lie inside that sub-heading's range: a block written
 * after one of them would belong to the sub-heading, so those insertion points do not exist.
 */
export function placeableCount(parent: ParentNode): number {
  if (parent.type === "directive") return parent.children.length;
  const i = parent.children.findIndex((c) => c.type === "section");
  return i === -1 ? parent.children.length : i;
}

/**
 * The index a new child goes to: `position`, or the end of the parent's children (for a
 * heading section: after its own blocks, before its first sub-heading). Out of range →
 * parent_missing (§3.1.2; the reference clamps, §A.1).
 */
export function childPosition(parent: ParentNode, position: number | undefined, context = ""): number {
  const count = parent.children.length;
  const placeable = placeableCount(parent);
  const at = position ?? placeable;
  const name = parent.id !== undefined ? `"${parent.id}"` : `at line ${parent.pos.line}`;
  if (at < 0 || at > count) {
    throw new PatchError("parent_missing", `position ${at} is out of range for parent ${name}, which has ${count} children${context} (valid: 0–${count}).`);
  }
  if (at > placeable) {
    throw new PatchError(
      "parent_missing",
      `position ${at} of heading section ${name} lies after its sub-heading "${(parent.children[placeable] as SectionNode).title}" ` +
        `(child ${placeable}); a block placed there would belong to that sub-heading. Use a position from 0 to ${placeable}, or add the block to the ` +
        `sub-section.`,
    );
  }
  return at;
}

/**
 * The fence a new child at `position` of `parent` should use: that of the sibling it lands
 * next to, else one more than a directive parent's, else 2 (a heading section's child is at
 * the top level).
 */
export function childFence(doc: NomaDocument, parent: ParentNode, position: number): number {
  const kids = parent.children;
  const last = placeableCount(parent) - 1;
  const sibling = position <= last ? kids[position] : kids[last];
  if (sibling !== undefined) {
    const cl = classifyColonLine(lineText(doc, sibling.pos.line - 1));
    if (cl !== null && cl.kind === "open") return cl.colons;
  }
  return parent.type === "directive" ? parent.colons + 1 : 2;
}

/**
 * Insert block lines as child `position` of `parent` (blank-line rules of the reference):
 * "fragment + blank line" before a sibling, "blank line + fragment" after the last child;
 * into an empty directive with no blank lines, into an empty heading section right after
 * its heading line with a blank line between.
 */
export function insertChild(doc: NomaDocument, parent: ParentNode, position: number, block: readonly string[]): TextEdit {
  const kids = parent.children;
  const count = placeableCount(parent);
  if (count === 0) return parent.type === "directive" ? insertLines(doc, parent.pos.line, block) : insertAfter(doc, parent.pos.line, block);
  if (position < count) return insertLines(doc, kids[position]!.pos.line - 1, [...block, ""]);
  return insertLines(doc, kids[count - 1]!.endLine, ["", ...block]);
}

/**
 * move_block into a heading section (issue 27): the block lands among all the section's
 * children as the tree has them, sub-sections included (§B: remove, then add_block's
 * insertion; position counted after removal, valid from 0 to the number of children).
 * Before child `position` as "fragment + blank line"; without `position` (or at the end)
 * after the last child — the end of the section's range, past its sub-sections — as "blank
 * line + fragment"; into an empty section after the heading line, blank-separated.
 */
export function sectionMovePosition(parent: SectionNode, position: number | undefined, context = ""): number {
  const count = parent.children.length;
  const at = position ?? count;
  if (at < 0 || at > count) {
    const name = parent.id !== undefined ? `"${parent.id}"` : `at line ${parent.pos.line}`;
    throw new PatchError("parent_missing", `position ${at} is out of range for parent ${name}, which has ${count} children${context} (valid: 0–${count}).`);
  }
  return at;
}

export function insertIntoSection(doc: NomaDocument, parent: SectionNode, position: number, block: readonly string[]): TextEdit {
  const kids = parent.children;
  if (kids.length === 0) return insertAfter(doc, parent.pos.line, block);
  if (position < kids.length) return insertLines(doc, kids[position]!.pos.line - 1, [...block, ""]);
  // After the last child's last non-blank line (a section's range runs to the next heading).
  const last = kids[kids.length - 1]!;
  let end = last.endLine;
  while (end > last.pos.line && isBlankLine(doc, end - 1)) end--;
  return insertLines(doc, end, ["", ...block]);
}

function isBlankLine(doc: NomaDocument, i: number): boolean {
  return i >= 0 && i < doc.lineStarts.length - 1 && lineText(doc, i).trim().length === 0;
}

function isCloseLine(doc: NomaDocument, i: number): boolean {
  if (i < 0 || i >= doc.lineStarts.length - 1) return false;
  const cl = classifyColonLine(lineText(doc, i));
  return cl !== null && cl.kind === "close";
}

/**
 * Remove a block's lines, plus one following blank line when blank lines surround it
 * (§B). The rule looks at lines only: a directive's fence lines are not blank, so the same
 * rule holds inside a directive as at the top level. The start of the document counts as
 * a blank line before, its end as a blank line after (the upstream corpus: delete_block
 * and move_block); at the end, the blank line before goes instead.
 */
export function removeBlock(doc: NomaDocument, node: BlockNode): TextEdit {
  let a = node.pos.line - 1;
  let b = node.endLine; // exclusive
  const count = doc.lineStarts.length - 1;
  const before = a === 0 || isBlankLine(doc, a - 1);
  if (before && b < count && isBlankLine(doc, b)) b++;
  else if (before && b >= count && a > 0) a--;
  return deleteLines(doc, a, b);
}

/** Insert block lines right after another block (or a heading line), blank-separated on both sides. */
export function insertAfter(doc: NomaDocument, lastLine: number, block: readonly string[]): TextEdit {
  const count = doc.lineStarts.length - 1;
  const next = lastLine; // 0-based index of the line after
  const needTrailingBlank = next < count && !isBlankLine(doc, next) && !isCloseLine(doc, next);
  return insertLines(doc, next, ["", ...block, ...(needTrailingBlank ? [""] : [])]);
}

export interface OpenerEdit {
  line: string;
  changed: boolean;
}

const KEY = /^[A-Za-z_][\w-]*$/;

export function checkAttrKey(key: string): void {
  if (!KEY.test(key)) throw new PatchError("invalid_content", `"${key}" is not a valid attribute name (a letter or _, then letters, digits, _ or -).`);
}

/**
 * One attribute token as the patch engine writes it (§B's value rule): `true` → bare key;
 * `false` → `key=false`; numbers in JS form (`1e+21`, as the reference writes them: such a
 * token reads back as text, the same in either tool); strings `key="…"`, or `key='…'` when
 * they contain `"`. A value with a line break is invalid_content. A value with both quote
 * kinds is invalid_content where an existing opening line is edited (`"edit"`: §B's
 * attribute writes); a generated block (`"new"`: add_comment, add_footnote, add_endnote,
 * add_change_request) writes it `key='…'`, as the reference does (issue 27) — no token can
 * hold such a value, so it does not read back whole.
 */
export function formatAttrOrThrow(key: string, value: AttrValue, mode: "edit" | "new" = "edit"): string {
  if (value === true) return key;
  if (value === false) return `${key}=false`;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new PatchError("invalid_content", `The value of ${key} is not a finite number.`);
    return `${key}=${String(value)}`;
  }
  if (/[\r\n]/.test(value)) throw new PatchError("invalid_content", `The value of ${key} contains a line break; attribute values must be one line.`);
  if (!value.includes('"')) return `${key}="${value}"`;
  if (value.includes("'") && mode === "edit")
    throw new PatchError(
      "invalid_content",
      `The value of ${key} contains both ' and "; quoted attribute values have no escapes, so no token can hold it and read back the same.`,
    );
  return `${key}='${value}'`;
}

/**
 * Set (or with `value === null`, remove) one attribute on a directive's opening line.
 * An existing token is replaced in place; a new key is appended after one space;
 * without braces `{k=v}` is added; removal re-joins the kept tokens with single spaces.
 */
export function setOpenerAttr(line: string, key: string, value: AttrValue | null): OpenerEdit {
  const cl = classifyColonLine(line);
  if (cl === null || cl.kind !== "open") throw new Error("internal: not a directive opening line");
  const tokens = cl.inner !== undefined ? parseAttributes(cl.inner, cl.innerOffset).tokens : [];
  const mine = tokens.filter((t) => t.key === key);
  if (value === null) {
    if (mine.length === 0) return { line, changed: false };
    const kept = tokens.filter((t) => t.key !== key).map((t) => line.slice(t.start, t.end));
    const open = cl.innerOffset! - 1;
    const close = line.lastIndexOf("}");
    const head = line.slice(0, open).trimEnd();
    const out = kept.length > 0 ? `${line.slice(0, open)}{${kept.join(" ")}}${line.slice(close + 1)}` : head;
    return { line: out.trimEnd(), changed: true };
  }
  const last = mine[mine.length - 1];
  if (last !== undefined && last.value === value) return { line, changed: false };
  const token = formatAttrOrThrow(key, value);
  let out: string;
  if (last !== undefined) {
    out = line.slice(0, last.start) + token + line.slice(last.end);
  } else if (cl.inner !== undefined) {
    const close = line.lastIndexOf("}");
    const inner = line.slice(cl.innerOffset, close).trimEnd();
    out = `${line.slice(0, cl.innerOffset)}${inner.length > 0 ? `${inner} ` : ""}${token}${line.slice(close)}`;
  } else {
    out = `${line.trimEnd()}{${token}}`;
  }
  return { line: out.trimEnd(), changed: out.trimEnd() !== line };
}

/** An id value must read back as a non-empty string id. */
export function checkNewId(id: string, field: string): void {
  if (/[\r\n]/.test(id)) throw new PatchError("invalid_content", `${field} "${id}" contains a line break.`);
  if (typeof coerceAttrValue(id) !== "string")
    throw new PatchError(
      "invalid_content",
      `${field} "${id}" would be read back as a ${typeof coerceAttrValue(id)}, not an id; ids must not look like numbers or booleans.`,
    );
  if (id.includes('"') && id.includes("'")) throw new PatchError("invalid_content", `${field} "${id}" contains both quote kinds and could not be written.`);
}

/** Body text lines for a generated block; rejects content that would break out of the block. */
export function bodyLines(content: string | undefined): string[] {
  if (content === undefined) return [];
  const text = content.replace(/(?:\r\n|\r|\n)+$/, "");
  return text.length === 0 ? [] : text.split(/\r\n|\r|\n/);
}

/** Build a block and check it parses back as exactly one closed directive. */
export function buildBlock(colons: number, name: string, attrs: Array<[string, AttrValue | undefined]>, body: readonly string[]): string[] {
  const tokens = attrs.filter((a): a is [string, AttrValue] => a[1] !== undefined).map(([k, v]) => formatAttrOrThrow(k, v, "new"));
  const fence = ":".repeat(colons);
  const lines = [`${fence}${name}${tokens.length > 0 ? `{${tokens.join(" ")}}` : ""}`, ...body, fence];
  const check = parseNoma(lines.join("\n"));
  const only = check.children[0];
  if (
    check.children.length !== 1 ||
    only === undefined ||
    only.type !== "directive" ||
    !only.closed ||
    only.endLine !== lines.length ||
    check.problems.some((p) => p.severity === "error")
  ) {
    throw new PatchError(
      "invalid_content",
      `The content would not stay inside the new ::${name} block (a line of colons or an unclosed code fence breaks out of it).`,
    );
  }
  // A value written with both quote kinds does not read back whole; it must not give the new
  // block another identity or another target than the op's.
  for (const [key, value] of attrs) {
    if (value === undefined || (key !== "id" && key !== "parent" && key !== "for" && key !== "target" && key !== "reply_to")) continue;
    if (getAttr(only.attrs, key) !== value)
      throw new PatchError(
        "invalid_content",
        `A value with both ' and " would change the new ::${name} block's ${key}= as it reads back; quoted attribute values have no escapes.`,
      );
  }
  return lines;
}

/** Is `inner` inside `outer`'s subtree (or the same node)? */
export function contains(outer: DirectiveNode, inner: BlockNode): boolean {
  return inner.pos.line >= outer.pos.line && inner.endLine <= outer.endLine;
}
