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
