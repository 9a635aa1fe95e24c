/**
 * Carrying a document's id index over a re-parse that added or removed directives
 * (an op list's `add_block` and `delete_block`): the fast path beside carryIdIndex.
 *
 * The id index is a function of the registrations in walk order (see carry-id-index.ts).
 * A directive registers its own id (a non-empty `id` attribute) and its aliases, and
 * nothing else: no slug suffix, no root claim. So when the re-parsed blocks register what
 * the blocks they replace registered, in the same order, except for directives added (or
 * removed) that carry no aliases and whose ids no other node carries, every other id,
 * alias and duplicate is unchanged, and the index of a full parse is the old one with:
 * the added ids in `ids` where the walk meets them (the removed ones taken out), and
 * `nodeById` holding them — in the order a full parse gives, the first registration of
 * each id in walk order. The id maps are new objects, as a full re-index makes them (see
 * below). Anything else returns false and changes nothing: the caller
 * indexes the document from scratch.
 *
 * Equivalence: test/noma/reparse/carry-inserted-ids.test.ts (reparseEdited against a
 * full parse, id index included, over random documents and added or removed directives).
 */
import type { NomaDocument } from "../ast.js";
import { type Registrant, sameRegistration, takeRegistration } from "./id-registrations.js";

/**
 * Pair the registrants of `long` with those of `short` (as [old, fresh] indexes) when `long`
 * holds `short`'s in order plus directives without aliases whose ids are new to `doc` (`long`
 * the fresh list) or carried by no other node of it (`long` the old list); else undefined.
 */
function align(doc: NomaDocument, long: readonly Registrant[], short: readonly Registrant[], longIsFresh: boolean): Array<[number, number]> | undefined {
  const pairs: Array<[number, number]> = [];
  const extra = new Set<string>();
  let k = 0;
  for (let j = 0; j < long.length; j++) {
    const l = long[j]!;
    const s = short[k];
    if (s !== undefined && (longIsFresh ? sameRegistration(s, l) : sameRegistration(l, s))) {
      pairs.push(longIsFresh ? [k, j] : [j, k]);
      k++;
      continue;
    }
    // Only a directive without aliases may be added or removed; its id (if any) held by no other node.
    if (l.type !== "directive" || l.aliases.length > 0) return undefined;
    const id = l.id;
    if (id !== undefined) {
      if (doc.duplicateIds.has(id) || extra.has(id)) return undefined;
      if (longIsFresh ? doc.nodeById.has(id) : doc.nodeById.get(id) !== l) return undefined;
      extra.add(id);
    }
  }
  return k === short.length ? pairs : undefined;
}

/** The ids registrants register, in order. */
function idsOf(list: readonly Registrant[]): string[] {
  const out: string[] = [];
  for (const r of list) if (r.id !== undefined) out.push(r.id);
  return out;
}

/**
 * If `after` (the registrants of the freshly parsed blocks) registers what `before` (those of
 * the blocks of `doc` they replace) registers but for added or removed directives as described
 * above, update `doc`'s index in place to the one a full parse gives and return true; else
 * change nothing and return false.
 */
export function carryInsertedIds(doc: NomaDocument, before: readonly Registrant[], after: readonly Registrant[]): boolean {
  if (before.length === after.length) return false;
  const added = after.length > before.length;
  const pairs = added ? align(doc, after, before, true) : align(doc, before, after, false);
  if (pairs === undefined) return false;
  // Where the old blocks' ids stand in `ids`: found through one of them no other node carries.
  const oldIds = idsOf(before);
  let unique = 0;
  while (unique < oldIds.length && doc.duplicateIds.has(oldIds[unique]!)) unique++;
  if (unique === oldIds.length) return false;
  const at = doc.ids.indexOf(oldIds[unique]!) - unique;
  if (at < 0 || at + oldIds.length > doc.ids.length) return false;
  for (let i = 0; i < oldIds.length; i++) if (doc.ids[at + i] !== oldIds[i]) return false;

  // From here the index is updated: the paired registrants as carryIdIndex does, then the ids.
  for (const [o, n] of pairs) takeRegistration(doc, before[o]!, after[n]!);
  // Every fresh section now has its id: the region's ids are the fresh registrants'.
  doc.ids.splice(at, oldIds.length, ...idsOf(after));
  // New maps, never the old ones changed in place: validation takes a map it has seen for
  // "no id changed" and keeps its earlier answers (broken references, claims' evidence).
  if (added) {
    // The added ids enter nodeById in walk order, as a full parse enters them.
    const paired = new Set(pairs.map(([, n]) => n));
    const node = new Map<string, Registrant>();
    for (let i = 0; i < after.length; i++) if (!paired.has(i) && after[i]!.id !== undefined) node.set(after[i]!.id!, after[i]!);
    const byId: NomaDocument["nodeById"] = new Map();
    for (const id of doc.ids) if (!byId.has(id)) byId.set(id, doc.nodeById.get(id) ?? node.get(id)!);
    doc.nodeById = byId;
  } else {
    const paired = new Set(pairs.map(([o]) => o));
    const byId = new Map(doc.nodeById);
    for (let i = 0; i < before.length; i++) if (!paired.has(i) && before[i]!.id !== undefined) byId.delete(before[i]!.id!);
    doc.nodeById = byId;
  }
  doc.aliasMap = new Map(doc.aliasMap);
  return true;
}
