/**
 * Which claims no ::evidence or ::counterevidence points at (claim-without-evidence),
 * kept up to date as edits take directives out and put new ones in.
 *
 * A claim is supported when its id, or one of its aliases, is targeted: named by the
 * for= of an evidence block, or the canonical id such a for= is an alias of. Targets are
 * counted (several blocks may name one), so taking one block out only unsupports claims
 * when the count of a name drops to zero; only claims carrying a name whose count crossed
 * zero, and claims put in, are looked at again. The alias map is that of one id index:
 * an edit that changes ids starts a new EvidenceIndex.
 */
import { IdTable } from "../noma/id-table.js";
import { attrOf, type DirectiveFact } from "./directive-fact.js";
import { str } from "./rule-values.js";

function isEvidence(d: DirectiveFact): boolean {
  return d.name === "evidence" || d.name === "counterevidence";
}

export class EvidenceIndex {
  /** Claims no evidence points at (in no particular order). */
  readonly unsupported = new Set<DirectiveFact>();
  /** Name → slot in `counts` (names are never removed; a count may drop to zero). Ids are fresh strings: see id-table.ts. */
  private readonly slots = new IdTable<number>();
  private readonly counts: number[] = [];
  /** Claims by id and by alias. */
  private readonly claims = new IdTable<DirectiveFact[]>();

  private constructor(readonly aliasMap: ReadonlyMap<string, string>) {}

  /** The index of a document's evidence blocks and claims (directives of other names are ignored). */
  static build(aliasMap: ReadonlyMap<string, string>, directives: Iterable<DirectiveFact>, claims: Iterable<DirectiveFact>): EvidenceIndex {
    const index = new EvidenceIndex(aliasMap);
    for (const d of directives) if (isEvidence(d)) index.target(d, 1, null);
    for (const c of claims) index.addClaim(c);
    return index;
  }

  /** Take the directives `gone` out and put `added` in (directives of other names are ignored). */
  update(gone: readonly DirectiveFact[], added: readonly DirectiveFact[]): void {
    const crossed: string[] = [];
    for (const d of gone) {
      if (isEvidence(d)) this.target(d, -1, crossed);
      else if (d.name === "claim") this.removeClaim(d);
    }
    for (const d of added) if (isEvidence(d)) this.target(d, 1, crossed);
    for (const d of added) if (d.name === "claim") this.addClaim(d);
    for (const name of crossed) {
      const list = this.claims.get(name);
      if (list !== undefined) for (const c of list) this.judge(c);
    }
  }

  /** Count the names evidence block `e` targets up or down by `by`; names whose count crossed zero go to `crossed`. */
  private target(e: DirectiveFact, by: number, crossed: string[] | null): void {
    const target = str(attrOf(e, "for"));
    if (target === undefined || target.length === 0) return;
    this.bump(target, by, crossed);
    const canonical = this.aliasMap.size > 0 ? this.aliasMap.get(target) : undefined;
    if (canonical !== undefined) this.bump(canonical, by, crossed);
  }

  private bump(name: string, by: number, crossed: string[] | null): void {
    let slot = this.slots.get(name);
    if (slot === undefined) {
      slot = this.counts.length;
      this.slots.add(name, slot);
      this.counts.push(0);
    }
    const before = this.counts[slot]!;
    const after = before + by;
    this.counts[slot] = after;
    if (crossed !== null && (before === 0) !== (after === 0)) crossed.push(name);
  }

  private targeted(name: string): boolean {
    const slot = this.slots.get(name);
    return slot !== undefined && this.counts[slot]! > 0;
  }

  private judge(c: DirectiveFact): void {
    const hit = c.id !== undefined && (this.targeted(c.id) || c.aliases.some((a) => this.targeted(a)));
    if (hit) this.unsupported.delete(c);
    else this.unsupported.add(c);
  }

  private addClaim(c: DirectiveFact): void {
    if (c.id !== undefined) {
      for (const name of [c.id, ...c.aliases]) {
        const list = this.claims.get(name);
        if (list === undefined) this.claims.add(name, [c]);
        else list.push(c);
      }
    }
    this.judge(c);
  }

  private removeClaim(c: DirectiveFact): void {
    this.unsupported.delete(c);
    if (c.id === undefined) return;
    for (const name of [c.id, ...c.aliases]) {
      const list = this.claims.get(name);
      const at = list !== undefined ? list.indexOf(c) : -1;
      if (at !== -1) list!.splice(at, 1);
    }
  }
}
