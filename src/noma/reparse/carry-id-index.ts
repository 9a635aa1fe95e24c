/**
 * Carrying a document's id index over an incremental re-parse.
 *
 * The id index (ids in walk order, node by id, duplicates, aliases) is a function
 * of the sequence of registrations in document-walk order: each section or
 * directive with its id (for a section without `{id=…}`, its title's slug with
 * the collision suffix the slugs before it give) and its aliases. When the blocks
 * an edit re-parsed register exactly what the blocks they replace registered —
 * the same ids from the same inputs, the same aliases, in the same order — every
 * id in the document is unchanged, and the old index holds with the new nodes put
 * in place of the old ones. Anything else (an id added, removed or renamed, a
 * heading retitled, a possible root section) returns false: the caller indexes
 * the document from scratch.
 */
import type { BlockNode, DirectiveNode, NomaDocument, SectionNode } from "../ast.js";
import { getAttr } from "../attributes.js";
import { slugify } from "../slugify.js";

type Registrant = SectionNode | DirectiveNode;

/**
 * Sections and directives of `blocks` (top-level blocks in walk order) in walk order. A
 * section's children are not visited: at the top level they follow it in `blocks`, inside
 * a directive it has none.
 */
function registrants(blocks: readonly BlockNode[], out: Registrant[]): Registrant[] {
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

/**
 * If `fresh` (newly parsed blocks, sections not yet given ids) registers what `old`
 * (the blocks of `doc` they replace) registered, give the fresh sections their ids,
 * put the fresh nodes in place of the old ones in `doc`'s index, and return true.
 * Otherwise change nothing and return false. `doc`'s index maps are updated in place.
 */
export function carryIdIndex(doc: NomaDocument, old: readonly BlockNode[], fresh: readonly BlockNode[]): boolean {
  const before = registrants(old, []);
  const after = registrants(fresh, []);
  if (before.length !== after.length) return false;
  for (let k = 0; k < after.length; k++) {
    const o = before[k]!;
    const n = after[k]!;
    if (o.type !== n.type || !sameList(o.aliases, n.aliases)) return false;
    if (n.type === "directive") {
      if (o.id !== n.id) return false;
      continue;
    }
    const os = o as SectionNode;
    // The root section (the first top-level H1) takes extra aliases: never carried.
    if (os.nested !== n.nested || (!n.nested && (n.depth === 1 || os.depth === 1))) return false;
    const id = explicitId(n);
    if (id !== undefined) {
      if (!os.explicitId || os.id !== id) return false;
    } else if (os.explicitId || slugify(os.title) !== slugify(n.title)) {
      return false;
    }
  }
  for (let k = 0; k < after.length; k++) {
    const o = before[k]!;
    const n = after[k]!;
    if (n.type === "section") {
      const os = o as SectionNode;
      if (os.id !== undefined) n.id = os.id;
      n.explicitId = os.explicitId;
    }
    const id = n.id;
    if (id === undefined) continue;
    if (doc.nodeById.get(id) === o) doc.nodeById.set(id, n);
    const dups = doc.duplicateIds.get(id);
    if (dups !== undefined) {
      const at = dups.indexOf(o);
      if (at !== -1) dups[at] = n;
    }
  }
  return true;
}
