/**
 * Review ops that add a new block after a target: add_comment (threaded with
 * reply_to), add_footnote, add_endnote, add_change_request. Each writes every field
 * it is given: the attributes, and `content` as the block's body.
 */
import type { AttrValue, NomaDocument } from "../../noma/ast.js";
import { PatchError } from "../patch-error.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import { bodyLines, buildBlock, checkBaseHash, checkNewId, findById, findDirective, insertAfter, locate, type IdNode } from "../op-support.js";
import { applyEdits } from "../text-edit.js";

function checkFreeId(doc: NomaDocument, id: string): void {
  checkNewId(id, "id");
  if (doc.nodeById.has(id) || doc.aliasMap.has(id)) throw new PatchError("id_conflict", `The id "${id}" is already used; choose a new id for the block.`);
}

/** Fence for a block placed next to `target`: a directive's own, or one deeper than a heading's enclosing directive. */
function fenceBeside(doc: NomaDocument, target: IdNode): number {
  if (target.type === "directive") return target.colons;
  const where = locate(doc, target);
  return where.enclosingColons > 0 ? where.enclosingColons + 1 : 2;
}

/** Insert after a directive target, or right after a heading section's heading line. */
function placeAfter(doc: NomaDocument, target: IdNode, block: string[]): string {
  const lastLine = target.type === "directive" ? target.endLine : target.pos.line;
  return applyEdits(doc.source, [insertAfter(doc, lastLine, block)]);
}

export function addComment(doc: NomaDocument, op: PatchOpOf<"add_comment">): string {
  const target = findById(doc, op.target, "target_missing", "Target");
  checkBaseHash(doc, target, op.baseHash, `target "${op.target}"`);
  checkFreeId(doc, op.id);
  let anchor: IdNode = target;
  if (op.reply_to !== undefined) {
    const replied = findDirective(doc, op.reply_to, "target_missing", "reply_to");
    if (replied.name !== "comment") throw new PatchError("invalid_content", `reply_to "${op.reply_to}" is a ::${replied.name} block, not a ::comment.`);
    anchor = replied;
  }
  const attrs: Array<[string, AttrValue | undefined]> = [
    ["id", op.id],
    ["parent", op.target],
    ["reply_to", op.reply_to],
    ["author", op.author],
    ["initials", op.initials],
    ["date", op.date],
  ];
  return placeAfter(doc, anchor, buildBlock(fenceBeside(doc, anchor), "comment", attrs, bodyLines(op.content)));
}

function addNote(doc: NomaDocument, op: PatchOpOf<"add_footnote"> | PatchOpOf<"add_endnote">, name: "footnote" | "endnote"): string {
  const target = findById(doc, op.target, "target_missing", "Target");
  checkBaseHash(doc, target, op.baseHash, `target "${op.target}"`);
  checkFreeId(doc, op.id);
  const attrs: Array<[string, AttrValue | undefined]> = [
    ["id", op.id],
    ["for", op.target],
    ["label", op.label],
  ];
  return placeAfter(doc, target, buildBlock(fenceBeside(doc, target), name, attrs, bodyLines(op.content)));
}

export function addFootnote(doc: NomaDocument, op: PatchOpOf<"add_footnote">): string {
  return addNote(doc, op, "footnote");
}

export function addEndnote(doc: NomaDocument, op: PatchOpOf<"add_endnote">): string {
  return addNote(doc, op, "endnote");
}

export function addChangeRequest(doc: NomaDocument, op: PatchOpOf<"add_change_request">): string {
  const target = findById(doc, op.target, "target_missing", "Target");
  checkBaseHash(doc, target, op.baseHash, `target "${op.target}"`);
  checkFreeId(doc, op.id);
  const attrs: Array<[string, AttrValue | undefined]> = [
    ["id", op.id],
    ["target", op.target],
    ["action", op.action],
    ["from", op.from],
    ["to", op.to],
    ["text", op.text],
    ["author", op.author],
    ["date", op.date],
  ];
  // The rationale (`content`) is the block's body, as a comment's is.
  return placeAfter(doc, target, buildBlock(fenceBeside(doc, target), "change_request", attrs, bodyLines(op.content)));
}
