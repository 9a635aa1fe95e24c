/**
 * The id index of a block table: canonical ids and aliases (§2.1, §2.2), the id of
 * each row, and the references directives make — all read in one pass over the rows'
 * attribute blocks; each directive's attribute tokens are kept (AttrTokenIndex), so
 * later lookups compare keys instead of scanning the text again.
 */
import type { AttrValue } from "./ast.js";
import type { AttrTokenIndex } from "./attr-token-index.js";
import { NO_ALIASES, splitAliases } from "./attributes.js";
import { type BlockTable, EXPLICIT_ID, F_A, F_B, F_C, F_D, K_DIRECTIVE, K_SECTION, KIND_MASK, level, NESTED, STRIDE } from "./block-table.js";
import { IdIndexBuilder } from "./id-index-builder.js";

/** The attributes by which a directive points at another block. */
export const REF_ATTRS = ["for", "parent", "dataset"] as const;

/** What the id index reads of a section (its id and aliases) and of a directive (also its references). */
const SECTION_KEYS = ["id", "aliases"];
const DIRECTIVE_KEYS = ["id", "aliases", ...REF_ATTRS];

/** A directive row's `for=`, `parent=` or `dataset=` (a non-empty value, as a string). */
export interface RowRef {
  row: number;
  attr: (typeof REF_ATTRS)[number];
  target: string;
}

/**
 * Ids from a block table (rows in walk order), into `builder`; fills `idSlot`, marks
 * explicit section ids, and collects the directives' references into `refs`.
 */
export function indexRowIds(
  table: BlockTable,
  src: string,
  builder: IdIndexBuilder<number>,
  idSlot: Int32Array,
  refs: RowRef[],
  tokens: AttrTokenIndex,
): readonly string[] {
  const d = table.data;
  const values: Array<AttrValue | undefined> = [undefined, undefined, undefined, undefined, undefined];
  let rootAliases: readonly string[] = NO_ALIASES;
  for (let b = 0; b < table.count; b++) {
    const o = b * STRIDE;
    const word = d[o]!;
    const kind = word & KIND_MASK;
    if (kind !== K_SECTION && kind !== K_DIRECTIVE) continue;
    if (d[o + F_A]! === -1) values.fill(undefined);
    else if (kind === K_SECTION) tokens.scan(src, d[o + F_A]!, d[o + F_B]!, SECTION_KEYS, values);
    // A directive's tokens are kept where the validator finds them (F_D): it reads its other attributes from them.
    else d[o + F_D] = tokens.scan(src, d[o + F_A]!, d[o + F_B]!, DIRECTIVE_KEYS, values);
    let aliases = values[1] === undefined ? NO_ALIASES : splitAliases(values[1]);
    let id: string | undefined;
    if (kind === K_SECTION) {
      const nested = (word & NESTED) !== 0;
      id = IdIndexBuilder.explicitId(values[0]);
      if (id !== undefined) d[o] = word | EXPLICIT_ID;
      else id = builder.slugId(src.slice(d[o + F_C]!, d[o + F_D]!), nested);
      if (builder.claimsRoot(b, level(word), nested, id)) rootAliases = aliases = builder.withRootAliases(aliases);
    } else {
      const v = values[0];
      if (typeof v === "string" && v.length > 0) id = v;
      for (let r = 0; r < REF_ATTRS.length; r++) {
        const ref = values[2 + r];
        if (ref === undefined || typeof ref === "boolean") continue;
        const target = String(ref);
        if (target.length > 0) refs.push({ row: b, attr: REF_ATTRS[r]!, target });
      }
    }
    if (id !== undefined) idSlot[b] = builder.idCount;
    builder.register(b, id, aliases);
  }
  return rootAliases;
}
