/**
 * Attribute ops: update_attribute, remove_attribute, resolve_comment, rename_id.
 * Only the opening lines (and, for rename_id, wikilinks in prose) change.
 */
import type { AttrValue, BlockNode, NomaDocument } from "../../noma/ast.js";
import { getAttr } from "../../noma/attributes.js";
import { lineText } from "../../noma/parse-noma.js";
import { PatchError } from "../patch-error.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import { checkAttrKey, checkBaseHash, checkNewId, findDirective, setOpenerAttr } from "../op-support.js";
import { applyEdits, replaceLineContent } from "../text-edit.js";

function editOpener(doc: NomaDocument, line: number, changes: Array<[string, AttrValue | null]>): string | null {
  let text = lineText(doc, line - 1);
  let changed = false;
  for (const [key, value] of changes) {
    const r = setOpenerAttr(text, key, value);
    text = r.line;
    changed ||= r.changed;
  }
  return changed ? applyEdits(doc.source, [replaceLineContent(doc, line - 1, text)]) : null;
}

export function updateAttribute(doc: NomaDocument, op: PatchOpOf<"update_attribute">): string {
  if (op.key === "id") throw new PatchError("id_attribute_protected", 'update_attribute cannot change "id": use rename_id, which also retargets references.');
  checkAttrKey(op.key);
  const target = findDirective(doc, op.id);
  checkBaseHash(doc, target, op.baseHash, `block "${op.id}"`);
  return editOpener(doc, target.pos.line, [[op.key, op.value]]) ?? doc.source;
}

export function removeAttribute(doc: NomaDocument, op: PatchOpOf<"remove_attribute">): string {
  if (op.key === "id")
    throw new PatchError("id_attribute_protected", 'remove_attribute cannot remove "id": a block keeps its identity; use rename_id to change it.');
  checkAttrKey(op.key);
  const target = findDirective(doc, op.id);
  checkBaseHash(doc, target, op.baseHash, `block "${op.id}"`);
  return editOpener(doc, target.pos.line, [[op.key, null]]) ?? doc.source;
}

export function resolveComment(doc: NomaDocument, op: PatchOpOf<"resolve_comment">): string {
  const target = findDirective(doc, op.id);
  checkBaseHash(doc, target, op.baseHash, `comment "${op.id}"`);
  if (target.name !== "comment") throw new PatchError("invalid_content", `"${op.id}" is a ::${target.name} block, not a ::comment.`);
  const changes: Array<[string, AttrValue | null]> = [["status", "resolved"]];
  if (op.resolved_by !== undefined) changes.push(["resolved_by", op.resolved_by]);
  if (op.resolved_at !== undefined) changes.push(["resolved_at", op.resolved_at]);
  return editOpener(doc, target.pos.line, changes) ?? doc.source;
}

const REF_ATTRS = ["for", "parent", "dataset"] as const;

/** Rewrite `[[from]]` and `[[from|…]]` outside inline code spans. */
function retargetWikilinks(line: string, from: string, to: string): string {
  if (!line.includes(`[[${from}`)) return line;
  const masked = line.replace(/`[^`]*`/g, (m) => "\u0000".repeat(m.length));
  let out = "";
  let at = 0;
  const needle = `[[${from}`;
  for (let i = masked.indexOf(needle); i !== -1; i = masked.indexOf(needle, i + 1)) {
    const next = masked.charAt(i + needle.length);
    if (next !== "]" && next !== "|") continue;
    if (next === "]" && masked.charAt(i + needle.length + 1) !== "]") continue;
    out += line.slice(at, i + 2) + to;
    at = i + needle.length;
  }
  return out + line.slice(at);
}

export function renameId(doc: NomaDocument, op: PatchOpOf<"rename_id">): string {
  const target = findDirective(doc, op.from);
  checkBaseHash(doc, target, op.baseHash, `block "${op.from}"`);
  if (op.to === op.from) throw new PatchError("id_conflict", `rename_id to the same id "${op.to}".`);
  if (doc.nodeById.has(op.to)) throw new PatchError("id_conflict", `The id "${op.to}" is already used (line ${doc.nodeById.get(op.to)!.pos.line}).`);
  checkNewId(op.to, "to");
  const lines = new Map<number, string>();
  const edit = (line: number, key: string, value: string): void => {
    const current = lines.get(line) ?? lineText(doc, line - 1);
    lines.set(line, setOpenerAttr(current, key, value).line);
  };
  edit(target.pos.line, "id", op.to);
  const textLines = new Set<number>();
  const visit = (nodes: readonly BlockNode[]): void => {
    for (const n of nodes) {
      switch (n.type) {
        case "directive":
          for (const key of REF_ATTRS) {
            const v = getAttr(n.attrs, key);
            if (v !== undefined && typeof v !== "boolean" && String(v) === op.from) edit(n.pos.line, key, op.to);
          }
          visit(n.children);
          break;
        case "section":
          textLines.add(n.pos.line);
          visit(n.children);
          break;
        case "paragraph":
        case "quote":
        case "list":
        case "table":
          for (let l = n.pos.line; l <= n.endLine; l++) textLines.add(l);
          break;
        default:
          break;
      }
    }
  };
  visit(doc.children);
  for (const l of textLines) {
    const current = lines.get(l) ?? lineText(doc, l - 1);
    const next = retargetWikilinks(current, op.from, op.to);
    if (next !== current) lines.set(l, next);
  }
  return applyEdits(
    doc.source,
    [...lines].map(([l, text]) => replaceLineContent(doc, l - 1, text)),
  );
}
