/**
 * A document nothing has built into nodes yet (a fresh parse: a block table, see
 * noma/compact-parse.ts), as ops that only read their target see it: `nodeById.get/has` and
 * `duplicateIds.get/has` build the node of the one row asked for (with its subtree), and
 * everything else of the document (source, line starts, ids, aliases) is the document's
 * own. Building the whole tree of a large document costs more than parsing it; an op such
 * as update_attribute needs one node.
 *
 * An op that reaches for more (the tree, to find a parent; the id maps as a whole) gets
 * `NeedsTree` thrown: its nodes would not be the tree's, so the caller runs it again on
 * the document itself.
 */
import { type ErrorKind, NomaError } from "../errors/noma-error.js";
import type { DirectiveNode, NomaDocument, SectionNode } from "../noma/ast.js";
import { RowMaterializer } from "../noma/materialize-blocks.js";
import { compactParse } from "../noma/compact-parse.js";

type IdNode = SectionNode | DirectiveNode;

/** Thrown when an op reads more of the document than its targets. */
export class NeedsTree extends NomaError {
  static override readonly errorName: string = "NeedsTree";
  static override readonly kind: ErrorKind = "internal";
  constructor() {
    super("needs-tree", "internal: this op reads the document tree");
  }
}

function needsTree(): never {
  throw new NeedsTree();
}

/** `doc` as target-only ops see it, or undefined when it is not a fresh (table-only) parse. */
export function compactTargets(doc: NomaDocument): NomaDocument | undefined {
  const c = compactParse(doc);
  if (c === undefined) return undefined;
  const rows = new RowMaterializer(c.table, doc.source, c.index.starts, c.index.ends, { idSlot: c.idSlot, ids: doc.ids });
  const node = (row: number): IdNode => {
    const made = rows.nodes.get(row) ?? rows.block(row);
    if (row === c.rootRow) (made as SectionNode).aliases = c.rootAliases;
    return made as IdNode;
  };
  // Map-shaped views that answer lookups from the table; anything that would walk them needs the tree.
  const lookupOnly = <V>(get: (id: string) => V | undefined, has: (id: string) => boolean) => ({
    get,
    has,
    get size(): number {
      return needsTree();
    },
    [Symbol.iterator]: needsTree,
    keys: needsTree,
    values: needsTree,
    entries: needsTree,
    forEach: needsTree,
  });
  const nodeById = lookupOnly(
    (id: string): IdNode | undefined => {
      const row = c.rowById.get(id);
      return row === undefined ? undefined : node(row);
    },
    (id: string): boolean => c.rowById.get(id) !== undefined,
  );
  const duplicateIds = lookupOnly(
    (id: string): IdNode[] | undefined => c.duplicateRows.get(id)?.map(node),
    (id: string): boolean => c.duplicateRows.has(id),
  );
  const view = Object.create(doc) as NomaDocument;
  Object.defineProperty(view, "nodeById", { value: nodeById });
  Object.defineProperty(view, "duplicateIds", { value: duplicateIds });
  Object.defineProperty(view, "children", { get: needsTree });
  return view;
}
