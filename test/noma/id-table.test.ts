/**
 * IdTable (ids hashed in JavaScript) and RowMap (values by table row) behave like a Map
 * under any sequence of operations, growth included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "../../src/noma/id-table.js";
import { RowMap } from "../../src/noma/row-map.js";

describe("IdTable", () => {
  it("answers as a Map where the first value added for a key stays", () => {
    const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("a", "b", "a-2", "toString", "__proto__", ""));
    fc.assert(
      fc.property(fc.nat(40), fc.array(fc.tuple(fc.boolean(), key, fc.integer()), { maxLength: 300 }), (expected, ops) => {
        const table = new IdTable<number>(expected);
        const map = new Map<string, number>();
        for (const [add, k, v] of ops) {
          if (add) {
            expect(table.add(k, v)).toBe(map.get(k));
            if (!map.has(k)) map.set(k, v);
          } else {
            expect(table.has(k)).toBe(map.has(k));
            expect(table.get(k)).toBe(map.get(k));
            // The same key read out of a longer text, without a string made for it.
            const text = `[[${k}]]`;
            const at = table.indexOfRange(text, 2, 2 + k.length);
            expect(at === -1 ? undefined : table.values[at]).toBe(map.get(k));
            expect(table.indexOfRange(text, 2, 2 + k.length)).toBe(table.indexOf(k));
          }
        }
        expect(table.size).toBe(map.size);
        expect([...table.entries()]).toEqual([...map.entries()]);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("RowMap", () => {
  it("answers as a Map over rows", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(199), fc.option(fc.string())), { maxLength: 300 }), (ops) => {
        const rows = new RowMap<string>(200);
        const map = new Map<number, string>();
        for (const [row, v] of ops) {
          if (v !== null) {
            rows.set(row, v);
            map.set(row, v);
          }
          expect(rows.get(row)).toBe(map.get(row));
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe("SlugSuffixer", () => {
  /** The rule, with a Set and a Map: the first `a`, then `a-2`, `a-3`, … skipping ids already handed out. */
  class Model {
    private readonly taken = new Set<string>();
    private readonly nextSuffix = new Map<string, number>();
    assign(slug: string): string {
      if (!this.taken.has(slug)) {
        this.taken.add(slug);
        return slug;
      }
      let n = this.nextSuffix.get(slug) ?? 2;
      while (this.taken.has(`${slug}-${n}`)) n++;
      this.nextSuffix.set(slug, n + 1);
      this.taken.add(`${slug}-${n}`);
      return `${slug}-${n}`;
    }
  }

  it("hands out what the Set-and-Map rule hands out, peek included", async () => {
    const { SlugSuffixer } = await import("../../src/noma/slugify.js");
    const slug = fc.constantFrom("a", "a-2", "a-3", "a-2-2", "b", "b-1", "a-10");
    fc.assert(
      fc.property(fc.array(slug, { maxLength: 40 }), (slugs) => {
        const s = new SlugSuffixer();
        const m = new Model();
        for (const x of slugs) {
          const peeked = s.peek(x);
          const got = s.assign(x);
          expect(got).toBe(peeked);
          expect(got).toBe(m.assign(x));
        }
      }),
      { numRuns: 3000 },
    );
  });
});
