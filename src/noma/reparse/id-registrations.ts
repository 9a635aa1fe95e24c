/**
 * The registrations of an id index (see carry-id-index.ts): the sections and directives of
 * blocks in walk order, whether a fresh one registers what an old one did, and putting a
 * fresh one in the old one's place.
 */
import type { BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../ast.js";
import { getAttr } from "../attributes.js";
import { slugify } from "../slugify.js";

export type Registrant = SectionNode | DirectiveNode;

/**
 * Sections and directives of `blocks` (top-level blocks in walk order) in walk order. A
 * section's children are not visited: at the top level they follow it in `blocks`, inside
 * a directive it has none.
 */
export function registrants(blocks: readonly BlockNode[], out: Registrant[]): Registrant[] {
  for (const b of blocks) {
    if (b.type === "section") {
      out.push(b);
    } else if (b.type === "directive") {
      out.push(b);
      registrants(b.children, out);
    }
  }
  return out;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function explicitId(node: SectionNode): string | undefined {
  const v = getAttr(node.attrs, "id");
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** Whether fresh registrant `n` registers what old registrant `o` registered (a fresh section not yet given its id). */
export function sameRegistration(o: Registrant, n: Registrant): boolean {
  if (o.type !== n.type || !sameList(o.aliases, n.aliases)) return false;
  if (n.type === "directive") return o.id === n.id;
  const os = o as SectionNode;
  // The root section (the first top-level H1) takes extra aliases: never carried.
  if (os.nested !== n.nested || (!n.nested && (n.depth === 1 || os.depth === 1))) return false;
  const id = explicitId(n);
  if (id !== undefined) return os.explicitId === true && os.id === id;
  return os.explicitId !== true && slugify(os.title) === slugify(n.title);
}

/** Put fresh registrant `n` in the place of old registrant `o` in `doc`'s index (a fresh section takes `o`'s id). */
export function takeRegistration(doc: NomaDocument, o: Registrant, n: Registrant): void {
  if (n.type === "section") {
    const os = o as SectionNode;
    if (os.id !== undefined) n.id = os.id;
    n.explicitId = os.explicitId;
  }
  const id = n.id;
  if (id === undefined) return;
  if (doc.nodeById.get(id) === o) doc.nodeById.set(id, n);
  const dups = doc.duplicateIds.get(id);
  if (dups !== undefined) {
    const at = dups.indexOf(o);
    if (at !== -1) dups[at] = n;
  }
}
