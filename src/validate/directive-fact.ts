/**
 * What the validator's rules read of a directive. Two things have this shape: a
 * node of the document tree (`DirectiveNode`), and a row of a block table read
 * in place (`RowDirective`, row-view.ts) when no tree was built.
 */
import type { AttrValue, BlockNode } from "../noma/ast.js";
import { getAttr } from "../noma/attributes.js";

export interface DirectiveFact {
  readonly type: "directive";
  readonly name: string;
  readonly id?: string | undefined;
  readonly aliases: readonly string[];
  readonly attrs: Readonly<Record<string, AttrValue>>;
  readonly pos: { readonly line: number; readonly column: number };
  readonly endLine: number;
  readonly closed: boolean;
  readonly children: readonly BlockNode[];
  /** The value of one attribute, when reading it costs less than building `attrs` (a row read in place). */
  attr?(key: string): AttrValue | undefined;
  /** The values of several attributes (as `attr`), into `out`. */
  attrValues?(keys: readonly string[], out: Array<AttrValue | undefined>): void;
}

/** The value of attribute `key` of `d` (inherited object members are not attributes). */
export function attrOf(d: DirectiveFact, key: string): AttrValue | undefined {
  return d.attr !== undefined ? d.attr(key) : getAttr(d.attrs, key);
}

/** The values of `keys` of `d`, into `out`. */
export function attrValues(d: DirectiveFact, keys: readonly string[], out: Array<AttrValue | undefined>): void {
  if (d.attrValues !== undefined) {
    d.attrValues(keys, out);
    return;
  }
  for (let k = 0; k < keys.length; k++) out[k] = getAttr(d.attrs, keys[k]!);
}
