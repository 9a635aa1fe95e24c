/**
 * `applyOpsInMemory` is the fix finder's way to try ops: the patch engine's ops and
 * re-parse without what a record needs (no sha256 per op). Property: for any document and
 * op list it gives what `applyPatch` gives — the same text and a parse equal to a fresh one
 * when the list applies and changes something, nothing when an op is rejected or nothing
 * changes.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyOpsInMemory } from "../../src/editing/document-fixes.js";
import { applyPatch, astToJson, parseNoma } from "../../src/internal.js";

const WORDS = ["alpha", "see [[k0]]", "[[K1]]", "`code [[x]]`", "beta gamma"];

const documentArb = fc
  .record({
    blocks: fc.array(fc.tuple(fc.constantFrom("claim", "note", "evidence", "memory"), fc.constantFrom(...WORDS), fc.boolean()), { minLength: 1, maxLength: 6 }),
    kids: fc.array(fc.constantFrom(...WORDS), { maxLength: 3 }),
    eol: fc.constantFrom("\n", "\r\n"),
  })
  .map(({ blocks, kids, eol }) => {
    const lines = ["# Title", ""];
    blocks.forEach(([name, body, withFor], i) => lines.push(`::${name}{id="k${i}"${withFor ? ` for="K${i}"` : ""}}`, body, "::", ""));
    lines.push('::section{id="sec"}');
    kids.forEach((w, i) => lines.push(`:::note{id="n${i}"}`, w, ":::", ""));
    lines.push("::", "");
    return lines.join(eol);
  });

const opArb = fc.oneof(
  fc.record({
    op: fc.constant("update_attribute"),
    id: fc.constantFrom("k0", "k1", "k2", "n0", "sec", "missing"),
    key: fc.constantFrom("for", "owner", "confidence"),
    value: fc.constantFrom("k0", "k1", "x", 0.5),
  }),
  fc.record({ op: fc.constant("remove_attribute"), id: fc.constantFrom("k0", "k1", "n1"), key: fc.constantFrom("for", "owner") }),
  fc.record({ op: fc.constant("replace_body"), id: fc.constantFrom("k0", "k1", "n0"), content: fc.constantFrom(...WORDS) }),
  fc.record({ op: fc.constant("rename_id"), from: fc.constantFrom("k0", "k1", "n0"), to: fc.constantFrom("k1", "renamed", "n1") }),
  fc.record({ op: fc.constant("delete_block"), id: fc.constantFrom("k0", "k2", "n0", "missing") }),
);

describe("applyOpsInMemory", () => {
  it("gives applyPatch's text, a parse equal to a fresh one, and nothing where applyPatch rejects or changes nothing", () => {
    const seen = { applied: 0, other: 0 };
    fc.assert(
      fc.property(documentArb, fc.array(opArb, { minLength: 1, maxLength: 4 }), (text, ops) => {
        const engine = applyPatch(text, ops, { reuse: false });
        const mine = applyOpsInMemory(text, ops);
        if (engine.result !== "applied" || engine.text === text) {
          expect(mine).toBeUndefined();
          seen.other++;
          return;
        }
        expect(mine).toBeDefined();
        expect(mine!.text).toBe(engine.text);
        expect(astToJson(mine!.doc)).toEqual(astToJson(parseNoma(engine.text)));
        seen.applied++;
      }),
      { numRuns: 400 },
    );
    // Both sides of the property were reached often.
    expect(seen.applied).toBeGreaterThan(100);
    expect(seen.other).toBeGreaterThan(40);
  });
});
