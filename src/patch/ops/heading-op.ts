/**
 * update_heading: change a heading's title; only the heading line changes. When the
 * new title would give a different implicit id, the old id is pinned with {id="…"}.
 */
import type { NomaDocument } from "../../noma/ast.js";
import { lineText, parseHeadingLine } from "../../noma/parse-noma.js";
import { slugify } from "../../noma/slugify.js";
import { PatchError } from "../patch-error.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import { checkBaseHash, findById, formatAttrOrThrow } from "../op-support.js";
import { applyEdits, replaceLineContent } from "../text-edit.js";

export function updateHeading(doc: NomaDocument, op: PatchOpOf<"update_heading">): string {
  const title = op.title.trim();
  if (title.length === 0) throw new PatchError("invalid_content", "title is empty.");
  if (/[\r\n]/.test(title)) throw new PatchError("invalid_content", "title contains a line break.");
  const node = findById(doc, op.id, "target_missing", "Target");
  // §B's precedence: the baseHash precondition before the op's own checks.
  checkBaseHash(doc, node, op.baseHash, node.type === "section" ? `heading "${op.id}"` : `block "${op.id}"`);
  // A directive has no heading line to rewrite: invalid_content, as the reference answers
  // (issue 27). §3.5's target_missing covers an id that does not exist or resolves to a
  // non-directive node; the spec names no code for a directive given to a heading op.
  if (node.type !== "section") {
    throw new PatchError(
      "invalid_content",
      `"${op.id}" is a ::${node.name} directive, not a heading section; update_heading rewrites a "# Title" line (a directive's title is an ` +
        `attribute: use update_attribute).`,
    );
  }
  const line = lineText(doc, node.pos.line - 1);
  let d = 0;
  while (line.charCodeAt(d) === 35) d++;
  let ws = d;
  while (line.charCodeAt(ws) === 32 || line.charCodeAt(ws) === 9) ws++;
  const prefix = line.slice(0, ws);
  const rest = line.slice(ws).trimEnd();
  const h = parseHeadingLine(line)!;
  // The trailing attribute block as written, with the whitespace before it.
  let attrPart = "";
  if (h.inner !== undefined) {
    const blockStart = rest.length - (h.inner.length + 2);
    let wsStart = blockStart;
    while (wsStart > 0 && (rest.charCodeAt(wsStart - 1) === 32 || rest.charCodeAt(wsStart - 1) === 9)) wsStart--;
    attrPart = rest.slice(wsStart);
  }
  if (!node.explicitId && node.id !== undefined && slugify(title) !== node.id) {
    const pin = formatAttrOrThrow("id", node.id);
    attrPart = h.inner !== undefined ? `${attrPart.slice(0, -1).trimEnd()}${h.inner.trim().length > 0 ? " " : ""}${pin}}` : ` {${pin}}`;
  }
  const next = `${prefix}${title}${attrPart}`;
  const check = parseHeadingLine(next);
  if (check === null || check.title !== title || (check.inner ?? "") !== (attrPart.length > 0 ? attrPart.trim().slice(1, -1) : "")) {
    throw new PatchError(
      "invalid_content",
      `The title "${title}" cannot be written on a heading line and read back unchanged (a trailing {…} would be taken as attributes).`,
    );
  }
  return next === line ? doc.source : applyEdits(doc.source, [replaceLineContent(doc, node.pos.line - 1, next)]);
}
