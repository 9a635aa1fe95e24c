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
 * in place of the old ones. Directives added or removed without touching any other
 * registration are carried as well (carry-inserted-ids.ts). Anything else (an id
 * renamed, a heading retitled, a possible root section) returns false: the caller
 * indexes the document from scratch.
 */
import type { BlockNode, NomaDocument } from "../ast.js";
import { carryInsertedIds } from "./carry-inserted-ids.js";
import { registrants, sameRegistration, takeRegistration } from "./id-registrations.js";

/**
 * If `fresh` (newly parsed blocks, sections not yet given ids) registers what `old`
 * (the blocks of `doc` they replace) registered, give the fresh sections their ids,
 * put the fresh nodes in place of the old ones in `doc`'s index, and return true.
 * Directives added or removed are carried too when they cannot change any other
 * registration (carry-inserted-ids.ts). Otherwise change nothing and return false.
 * `doc`'s index maps are updated in place.
 */
export function carryIdIndex(doc: NomaDocument, old: readonly BlockNode[], fresh: readonly BlockNode[]): boolean {
  const before = registrants(old, []);
  const after = registrants(fresh, []);
  if (before.length !== after.length) return carryInsertedIds(doc, before, after);
  for (let k = 0; k < after.length; k++) if (!sameRegistration(before[k]!, after[k]!)) return false;
  for (let k = 0; k < after.length; k++) takeRegistration(doc, before[k]!, after[k]!);
  return true;
}
