/**
 * Renaming a directive's id as patch ops, per file (pure; the caller applies each file's list
 * through the patch engine, one atomic op list per file):
 *
 * - in the document that defines it: `rename_id` (which retargets `for=`, `parent=`,
 *   `dataset=` and `[[wikilinks]]` throughout it, §3.3), then an `update_attribute` for each
 *   `target=`, `block=` or `reply_to=` naming it on a block with an id (rename_id leaves those);
 * - in the other chapters of its books that do not define the name themselves: the
 *   references rewritten as `check --fix` rewrites a broken one (retargetOps);
 * - a reference no block with an id encloses cannot be addressed by any patch op (§2.1): it
 *   is left as written, and the renamed block keeps the old id as an alias (the explicit
 *   `update_attribute` of aliases §3.3 prescribes) so that it still resolves.
 *
 * A section's id comes from its heading (or its `{id=…}`), which rename_id does not address
 * (§3.1.5): refused, as is a new id already in use or one a `[[wikilink]]` cannot spell.
 */
import type { DirectiveNode } from "../noma/ast.js";
import { getAttr, splitAliases } from "../noma/attributes.js";
import { isIdValuedAttr } from "../noma/id-valued-attrs.js";
import { REF_ATTRS } from "../noma/index-row-ids.js";
import { parseNoma } from "../noma/parse-noma.js";
import { NomaError } from "../errors/noma-error.js";
import { referenceSites } from "../validate/reference-sites.js";
import { retargetOps } from "./document-fixes.js";

export class RenameRefusedError extends NomaError {
  static override readonly errorName: string = "RenameRefusedError";
  constructor(message: string) {
    super("rename-refused", message);
  }
}

export interface RenameFile {
  /** Repository-relative path. */
  path: string;
  text: string;
}

export interface RenamePlan {
  /** Each file to patch and its op list, the defining document first. */
  files: Array<{ path: string; ops: Record<string, unknown>[] }>;
  /** References no patch op can address, left as written. */
  unaddressable: Array<{ path: string; line: number }>;
  /** Whether the renamed block keeps the old id as an alias (because of `unaddressable`). */
  keptAlias: boolean;
}

/** What a `[[wikilink]]` target can be (collect-facts.ts). */
const LINKABLE = /^[A-Za-z_][\w\-./:]*$/;

/** Attributes that name a block but that rename_id does not retarget. */
const EXTRA = (key: string): boolean => isIdValuedAttr(key) && !(REF_ATTRS as readonly string[]).includes(key);

export function planRenameId(defining: RenameFile, from: string, to: string, others: readonly RenameFile[] = []): RenamePlan {
  const doc = parseNoma(defining.text);
  const node = doc.nodeById.get(from);
  if (node === undefined) throw new RenameRefusedError(`"${from}" is not a canonical id of ${defining.path}`);
  if (node.type !== "directive")
    throw new RenameRefusedError(
      `"${from}" is a section's id (made from its heading or its {id=…}); rename_id renames directive ids only (§3.1.5): edit the heading instead`,
    );
  if (to === from) throw new RenameRefusedError(`the new id is the current one ("${from}")`);
  if (!LINKABLE.test(to))
    throw new RenameRefusedError(`"${to}" cannot be an id links name: a letter or _ first, then letters, digits, _ - . / : (found ${JSON.stringify(to)})`);
  if (doc.nodeById.has(to) || doc.aliasMap.has(to)) throw new RenameRefusedError(`"${to}" is already an id or alias in ${defining.path}`);
  if (doc.duplicateIds.size > 0)
    throw new RenameRefusedError(`${defining.path} has duplicate ids (${[...doc.duplicateIds.keys()].join(", ")}); no patch may address it (§2.1)`);
  const ops: Record<string, unknown>[] = [{ op: "rename_id", from, to }];
  const unaddressable: Array<{ path: string; line: number }> = [];
  for (const site of referenceSites(doc)) {
    if (site.target !== from || !EXTRA(site.via) || site.node === null) continue;
    const carrier: DirectiveNode = site.node;
    if (carrier.id === undefined) unaddressable.push({ path: defining.path, line: site.line });
    else ops.push({ op: "update_attribute", id: carrier.id === from ? to : carrier.id, key: site.via, value: to });
  }
  const files: RenamePlan["files"] = [{ path: defining.path, ops }];
  for (const other of others) {
    if (other.path === defining.path) continue;
    const od = parseNoma(other.text);
    // A chapter that defines the name itself means its own block by it.
    if (od.nodeById.has(from) || od.aliasMap.has(from)) continue;
    const { ops: retargeted, unaddressable: left } = retargetOps(other.text, from, to);
    const extra: Record<string, unknown>[] = [];
    for (const site of referenceSites(od)) {
      if (site.target !== from || !EXTRA(site.via) || site.node === null) continue;
      if (site.node.id === undefined) left.push(site.line);
      else extra.push({ op: "update_attribute", id: site.node.id, key: site.via, value: to });
    }
    for (const line of left) unaddressable.push({ path: other.path, line });
    if (retargeted.length + extra.length > 0) files.push({ path: other.path, ops: [...retargeted, ...extra] });
  }
  const keptAlias = unaddressable.length > 0;
  if (keptAlias) {
    const aliases = splitAliases(getAttr(node.attrs, "aliases"));
    ops.push({ op: "update_attribute", id: to, key: "aliases", value: [...aliases, from].join(",") });
  }
  return { files, unaddressable: unaddressable.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)), keptAlias };
}
