/**
 * Block ops: replace_block, add_block, delete_block, move_block, replace_body.
 * Each takes the parsed current state and returns the new text (or throws a PatchError).
 */
import type { NomaDocument } from "../../noma/ast.js";
import { lineText, parseNoma } from "../../noma/parse-noma.js";
import { PatchError } from "../patch-error.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import {
  checkBaseHash,
  childFence,
  childPosition,
  contains,
  findDirective,
  findParent,
  idsIn,
  insertChild,
  insertIntoSection,
  parseFragment,
  placeableCount,
  refence,
  removeBlock,
  sectionMovePosition,
} from "../op-support.js";
import { applyEdits, replaceLines } from "../text-edit.js";

/** Lines first..last (1-based, inclusive), without line breaks. */
function lineRange(doc: NomaDocument, first: number, last: number): string[] {
  const out: string[] = [];
  for (let i = first; i <= last; i++) out.push(lineText(doc, i - 1));
  return out;
}

function conflictingIds(doc: NomaDocument, ids: readonly string[], except: ReadonlySet<string> = new Set()): string | undefined {
  return ids.find((id) => !except.has(id) && (doc.nodeById.has(id) || doc.aliasMap.has(id)));
}

export function replaceBlock(doc: NomaDocument, op: PatchOpOf<"replace_block">): string {
  const fragment = parseFragment(op.content);
  const target = findDirective(doc, op.id);
  checkBaseHash(doc, target, op.baseHash, `block "${op.id}"`);
  const own = new Set(idsIn([target]));
  const clash = conflictingIds(doc, fragment.ids, own);
  if (clash !== undefined) throw new PatchError("id_conflict", `The replacement declares the id "${clash}", which another block already uses.`);
  const lines = refence(fragment.lines, 1, fragment.node, target.colons - fragment.node.colons);
  return applyEdits(doc.source, [replaceLines(doc, target.pos.line - 1, target.endLine, lines)]);
}

export function addBlock(doc: NomaDocument, op: PatchOpOf<"add_block">): string {
  const fragment = parseFragment(op.content);
  const parent = findParent(doc, op.parent);
  checkBaseHash(doc, parent, op.baseHash, `parent "${op.parent}"`);
  const position = childPosition(parent, op.position);
  const clash = conflictingIds(doc, fragment.ids);
  if (clash !== undefined) throw new PatchError("id_conflict", `The new block declares the id "${clash}", which is already taken.`);
  const lines = refence(fragment.lines, 1, fragment.node, childFence(doc, parent, position) - fragment.node.colons);
  return applyEdits(doc.source, [insertChild(doc, parent, position, lines)]);
}

export function deleteBlock(doc: NomaDocument, op: PatchOpOf<"delete_block">): string {
  const target = findDirective(doc, op.id);
  checkBaseHash(doc, target, op.baseHash, `block "${op.id}"`);
  return applyEdits(doc.source, [removeBlock(doc, target)]);
}

export function moveBlock(doc: NomaDocument, op: PatchOpOf<"move_block">): string {
  const block = findDirective(doc, op.id);
  checkBaseHash(doc, block, op.baseHash, `block "${op.id}"`);
  const parent = findParent(doc, op.parent);
  if (contains(block, parent)) {
    throw new PatchError("parent_missing", `Cannot move "${op.id}" under "${op.parent}": the destination is inside the block being moved.`);
  }
  const blockLines = lineRange(doc, block.pos.line, block.endLine);
  const removed = applyEdits(doc.source, [removeBlock(doc, block)]);
  const after = parseNoma(removed);
  const dest = findParent(after, op.parent);
  const context = ` once "${op.id}" is removed`;
  if (dest.type === "section") {
    // A heading section: among all its children, sub-sections included (issue 27).
    const position = sectionMovePosition(dest, op.position, context);
    const fence = childFence(after, dest, Math.min(position, placeableCount(dest)));
    const lines = refence(blockLines, block.pos.line, block, fence - block.colons);
    return applyEdits(removed, [insertIntoSection(after, dest, position, lines)]);
  }
  const position = childPosition(dest, op.position, context);
  const lines = refence(blockLines, block.pos.line, block, childFence(after, dest, position) - block.colons);
  return applyEdits(removed, [insertChild(after, dest, position, lines)]);
}

export function replaceBody(doc: NomaDocument, op: PatchOpOf<"replace_body">): string {
  const target = findDirective(doc, op.id);
  checkBaseHash(doc, target, op.baseHash, `block "${op.id}"`);
  if (!target.closed) throw new PatchError("invalid_content", `Block "${op.id}" is never closed; fix its closing fence before replacing its body.`);
  const nested = target.children.find((c) => c.type === "directive");
  if (nested !== undefined) {
    throw new PatchError(
      "invalid_content",
      `Block "${op.id}" has child blocks (line ${nested.pos.line}); replace_body only replaces the body of a body-only block. Use replace_block.`,
    );
  }
  // Empty content leaves one empty line as the body (the content's lines, split as given).
  const body = op.content.replace(/(?:\r\n|\r|\n)+$/, "").split(/\r\n|\r|\n/);
  const opener = lineRange(doc, target.pos.line, target.pos.line)[0]!;
  // Re-parse the rebuilt block: the body must not close it early or leave a fence open.
  const rebuilt = [opener, ...body, ":".repeat(target.colons)];
  const check = parseNoma(rebuilt.join("\n"));
  const only = check.children[0];
  if (
    check.children.length !== 1 ||
    only === undefined ||
    only.type !== "directive" ||
    only.endLine !== rebuilt.length ||
    check.problems.some((p) => p.severity === "error")
  ) {
    throw new PatchError(
      "invalid_content",
      `The new body of "${op.id}" would not stay inside the block (a line of ${target.colons} colons or an unclosed code fence breaks out of it).`,
    );
  }
  return applyEdits(doc.source, [replaceLines(doc, target.pos.line, target.endLine - 1, body)]);
}
