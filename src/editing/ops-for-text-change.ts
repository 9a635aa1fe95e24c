/**
 * The patch ops that make one text of a document into another (pure): what a coding agent's
 * hook offers an agent that tried to write a document directly (src/hooks/). Only where the
 * change falls inside one block with an id, and only ops the patch engine turns into exactly
 * the text the agent meant: every answer is applied to `before` in memory and must give
 * `after` byte for byte, or it is not offered.
 *
 * Which ops, tried from the most specific (§3.1, §1.5):
 * - the opening line of a directive with an id alone changed, its name and id kept:
 *   `update_attribute` / `remove_attribute`, one per key changed (the first carries the block's
 *   `baseHash`: the next ones find the block already changed); its id alone changed: `rename_id`;
 * - a heading line with an id alone changed: `update_heading`;
 * - lines inside the body of a closed directive with an id and no child directives:
 *   `replace_body`;
 * - lines inside a directive with an id (the innermost first, then those around it):
 *   `replace_block`.
 * A change outside every block with an id, across blocks, in the frontmatter, or in a
 * document with parse errors or duplicate ids (§2.1: no patch may address it) has none; the
 * answer says which of these it is.
 */
import type { AttrValue, BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { parseNoma } from "../noma/parse-noma.js";
import { walkBlocks } from "../noma/walk.js";
import { blockHash } from "../patch/op-support.js";
import { applyOpsInMemory } from "./document-fixes.js";

export type TextChangeOps =
  | {
      ok: true;
      /** Catalog ops with their block's `baseHash`, in the order to send them. */
      ops: Record<string, unknown>[];
      /** The id of the block they address, and its lines (1-based, inclusive) in `before`. */
      id: string;
      lines: [number, number];
      /** Where the result differs from `after` on purpose (update_heading keeping the id a new title would change). */
      note?: string;
    }
  | {
      ok: false;
      /** Why no op list is offered, as a sentence ending without a period. */
      reason: string;
      /** The lines of `before` the change touches (1-based, inclusive; an insertion: the two lines around it). */
      lines?: [number, number];
      /** The ids of the blocks with an id whose lines the change touches, outermost first. */
      blocks?: string[];
    };

const NO_OP_OUTSIDE = "and patch ops edit directives (and heading titles), not text directly under a heading";

/** Lines without their breaks; a text ending in a line break has a last, empty line. */
function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

const shortHash = (doc: NomaDocument, node: BlockNode): string => blockHash(doc, node).slice(0, 16);

/** Directives and sections with an id, each with its lines. */
function idBlocks(doc: NomaDocument): Array<DirectiveNode | SectionNode> {
  const out: Array<DirectiveNode | SectionNode> = [];
  walkBlocks(doc, (node) => {
    if ((node.type === "directive" || node.type === "section") && node.id !== undefined && node.id.length > 0) out.push(node);
  });
  return out;
}

function sameValue(a: AttrValue | undefined, b: AttrValue | undefined): boolean {
  return a === b;
}

export function opsForTextChange(before: string, after: string): TextChangeOps {
  if (before === after) return { ok: false, reason: "the new text is the document's current text: nothing changes" };
  const doc = parseNoma(before);
  const parseError = doc.problems.find((p) => p.severity === "error");
  if (parseError !== undefined)
    return { ok: false, reason: `the document does not parse (line ${parseError.line}: ${parseError.message}), and patch ops need one that does` };
  if (doc.duplicateIds.size > 0) {
    const [id, nodes] = [...doc.duplicateIds][0]!;
    return {
      ok: false,
      reason:
        `the id "${id}" is carried by ${nodes.length} blocks (lines ${nodes.map((n) => n.pos.line).join(", ")}): ` +
        "no patch may address a document with duplicate ids until that is fixed",
    };
  }
  const old = linesOf(before);
  const now = linesOf(after);
  let k = 0;
  while (k < old.length && k < now.length && old[k] === now[k]) k++;
  let j = 0;
  while (j < old.length - k && j < now.length - k && old[old.length - 1 - j] === now[now.length - 1 - j]) j++;
  // Lines lo..hi of `before` (1-based) become lines lo..hiNew of `after`; hi = lo - 1 is an insertion before line lo.
  const lo = k + 1;
  const hi = old.length - j;
  const hiNew = now.length - j;
  const delta = now.length - old.length;
  const touched: [number, number] = hi >= lo ? [lo, hi] : [Math.max(1, lo - 1), lo];
  const fm = doc.frontmatter;
  if (fm !== undefined && lo <= fm.endLine) return { ok: false, reason: "the change touches the frontmatter, which no patch op edits", lines: touched };

  const inside = (n: BlockNode, first: number, last: number): boolean =>
    hi >= lo ? n.pos.line <= first && last <= n.endLine : n.pos.line < lo && lo <= n.endLine;
  const around = idBlocks(doc)
    .filter((n) => inside(n, lo, hi))
    .sort((a, b) => a.endLine - a.pos.line - (b.endLine - b.pos.line));
  const verified = (ops: Record<string, unknown>[]): boolean => applyOpsInMemory(before, ops)?.text === after;
  const answer = (node: DirectiveNode | SectionNode, ops: Record<string, unknown>[]): TextChangeOps => ({
    ok: true,
    ops,
    id: node.id!,
    lines: [node.pos.line, node.endLine],
  });

  for (const node of around) {
    const oneLine = hi === lo && hiNew === lo && node.pos.line === lo;
    if (node.type === "section") {
      if (!oneLine) continue;
      const title = headingTitleAt(after, lo);
      if (title === undefined) continue;
      const ops = [{ op: "update_heading", id: node.id!, title, baseHash: shortHash(doc, node) }];
      if (verified(ops)) return answer(node, ops);
      // A new title whose slug is another id: the engine pins the old one ({id="…"}), so references keep working.
      const pinned = applyOpsInMemory(before, ops)?.text;
      if (pinned !== undefined && linesOf(pinned).every((l, i) => (i === lo - 1 ? l.startsWith(now[i]!.trimEnd()) : l === now[i])))
        return {
          ok: true,
          ops,
          id: node.id!,
          lines: [node.pos.line, node.endLine],
          note: `update_heading keeps the heading's id "${node.id}" (written as {id="${node.id}"}), so references to it still resolve`,
        };
      continue;
    }
    if (oneLine) {
      const ops = attributeOps(doc, node, after, lo);
      if (ops !== null && verified(ops)) return answer(node, ops);
    }
    const bodyOnly = node.closed && !node.children.some((c) => c.type === "directive");
    if (bodyOnly && (hi >= lo ? node.pos.line < lo && hi < node.endLine : node.pos.line < lo && lo <= node.endLine)) {
      const content = now.slice(node.pos.line, node.endLine - 1 + delta).join("\n");
      const ops = [{ op: "replace_body", id: node.id!, content, baseHash: shortHash(doc, node) }];
      if (verified(ops)) return answer(node, ops);
    }
    const content = now.slice(node.pos.line - 1, node.endLine + delta).join("\n");
    const ops = [{ op: "replace_block", id: node.id!, content, baseHash: shortHash(doc, node) }];
    if (verified(ops)) return answer(node, ops);
  }
  const where = touched[0] === touched[1] ? `line ${touched[0]}` : `lines ${touched[0]}-${touched[1]}`;
  const blocks = idBlocks(doc)
    .filter((n) => n.type === "directive" && n.pos.line <= touched[1] && touched[0] <= n.endLine)
    .map((n) => n.id!);
  const directiveAround = around.some((n) => n.type === "directive");
  let reason: string;
  if (blocks.length > 1 && !directiveAround)
    reason = `the change (${where}) spans several blocks (${blocks.map((b) => `"${b}"`).join(", ")}): send one op per block, as one op list`;
  else if (!directiveAround) reason = `the change (${where}) is outside every directive with an id, ${NO_OP_OUTSIDE}`;
  else reason = `no op on the directive around the change (${where}) gives exactly the new text (it changes its fences, or blocks inside and around it)`;
  return { ok: false, reason, lines: touched, blocks };
}

/** The title of the heading at line `line` (1-based) of `text`, as the parser reads it, or undefined when that line is no heading. */
function headingTitleAt(text: string, line: number): string | undefined {
  const doc = parseNoma(text);
  let title: string | undefined;
  walkBlocks(doc, (node) => {
    if (node.type === "section" && node.pos.line === line) title = node.title;
  });
  return title;
}

/** Attribute ops for a change of `node`'s opening line alone (line `line` of `after`), or null when its name or colons changed. */
function attributeOps(doc: NomaDocument, node: DirectiveNode, after: string, line: number): Record<string, unknown>[] | null {
  const next = parseNoma(after);
  let changed: DirectiveNode | undefined;
  walkBlocks(next, (n) => {
    if (n.type === "directive" && n.pos.line === line) changed = n;
  });
  if (changed === undefined || changed.name !== node.name || changed.colons !== node.colons) return null;
  if (changed.id !== node.id) {
    const others = Object.keys({ ...node.attrs, ...changed.attrs }).filter((k) => k !== "id" && !sameValue(node.attrs[k], changed!.attrs[k]));
    if (others.length > 0 || changed.id === undefined) return null;
    return [{ op: "rename_id", from: node.id!, to: changed.id, baseHash: shortHash(doc, node) }];
  }
  const ops: Record<string, unknown>[] = [];
  for (const key of Object.keys(changed.attrs)) {
    if (key === "id" || sameValue(node.attrs[key], changed.attrs[key])) continue;
    ops.push({ op: "update_attribute", id: node.id!, key, value: changed.attrs[key] });
  }
  for (const key of Object.keys(node.attrs)) if (key !== "id" && !Object.hasOwn(changed.attrs, key)) ops.push({ op: "remove_attribute", id: node.id!, key });
  if (ops.length === 0) return null;
  ops[0]!["baseHash"] = shortHash(doc, node);
  return ops;
}
