/**
 * The engine's memory of document states (DocumentMemo): bounded, take-on-use, and
 * invisible in results — a chain of patches where each starts from the state the
 * previous one produced gives exactly the outcomes of the same chain computed cold.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma } from "../../src/internal.js";
import { applyPatch, clearPatchMemo, preparePatchMemo, type PatchOutcome } from "../../src/patch/apply-patch.js";
import { DocumentMemo } from "../../src/patch/document-memo.js";
import { ResumableSha256 } from "../../src/patch/resumable-sha256.js";
import { validationCacheKey } from "../../src/validate/validation-cache-key.js";

function state(text: string): { doc: ReturnType<typeof parseNoma>; hash: ResumableSha256 } {
  return { doc: parseNoma(text), hash: ResumableSha256.of(text) };
}

describe("DocumentMemo", () => {
  it("hands a state out once", () => {
    const memo = new DocumentMemo();
    const s = state("# A\n");
    memo.put("# A\n", s);
    expect(memo.take("# A\n")).toBe(s);
    expect(memo.take("# A\n")).toBeUndefined();
    expect(memo.size).toBe(0);
  });

  it("keeps at most maxEntries, dropping the oldest", () => {
    const memo = new DocumentMemo(2, 1000);
    memo.put("a", state("a"));
    memo.put("b", state("b"));
    memo.put("c", state("c"));
    expect(memo.size).toBe(2);
    expect(memo.take("a")).toBeUndefined();
    expect(memo.take("b")?.hash.text).toBe(state("b").hash.text);
    expect(memo.take("c")?.hash.text).toBe(state("c").hash.text);
  });

  it("keeps at most maxChars of text, and never a text larger than that", () => {
    const memo = new DocumentMemo(10, 10);
    memo.put("x".repeat(11), state("x"));
    expect(memo.size).toBe(0);
    memo.put("aaaaaa", state("a"));
    memo.put("bbbbbb", state("b"));
    expect(memo.size).toBe(1);
    expect(memo.take("bbbbbb")?.hash.text).toBe(state("b").hash.text);
  });

  it("replaces the state of a text stored twice", () => {
    const memo = new DocumentMemo();
    memo.put("t", state("1"));
    memo.put("t", state("2"));
    expect(memo.size).toBe(1);
    expect(memo.take("t")?.hash.text).toBe(state("2").hash.text);
  });
});

const LINES = [
  "# Title",
  '## Part {id="part"}',
  "",
  "prose with [[k0]] and [[gone]]",
  '::claim{id="k0" confidence=0.5}',
  '::claim{id="k1"}',
  '::evidence{id="e1" for="k0"}',
  "text",
  "::",
  "::",
  "- item [[k1]]",
];
const docArb = fc.array(fc.constantFrom(...LINES), { maxLength: 30 }).map((lines) => `${lines.join("\n")}\n`);
const idArb = fc.constantFrom("k0", "k1", "e1", "part", "nope");
const opArb = fc.oneof(
  fc.record({
    op: fc.constant("update_attribute"),
    id: idArb,
    key: fc.constantFrom("owner", "confidence"),
    value: fc.oneof(fc.constantFrom("x", "y"), fc.integer({ min: 0, max: 3 })),
  }),
  fc.record({ op: fc.constant("remove_attribute"), id: idArb, key: fc.constant("owner") }),
  fc.record({ op: fc.constant("delete_block"), id: idArb }),
  fc.record({ op: fc.constant("replace_body"), id: idArb, content: fc.constantFrom("new [[k0]]", "plain", "see [[missing]]") }),
  fc.record({ op: fc.constant("add_comment"), id: fc.integer({ min: 0, max: 99 }).map((n) => `cm${n}`), target: idArb, content: fc.constant("ok") }),
  fc.record({ op: fc.constant("rename_id"), from: idArb, to: fc.constantFrom("k0", "k9", "z1") }),
);

/** Outcomes without timings. */
function comparable(o: PatchOutcome): unknown {
  return { ...o, ops: o.ops.map(({ elapsedMs: _e, ...rest }) => rest) };
}

describe("applyPatch with remembered states", () => {
  it("a warm chain of patches gives the cold chain's outcomes (first patches one-shot, states prepared ahead or not)", () => {
    fc.assert(
      fc.property(docArb, fc.array(fc.tuple(fc.array(opArb, { minLength: 1, maxLength: 3 }), fc.boolean()), { minLength: 1, maxLength: 6 }), (src, lists) => {
        clearPatchMemo();
        let warm = src;
        let cold = src;
        for (const [ops, prepare] of lists) {
          if (prepare) preparePatchMemo();
          const w = applyPatch(warm, ops, { strict: false, prepareLater: prepare });
          const c = applyPatch(cold, ops, { reuse: false });
          expect(comparable(w)).toEqual(comparable(c));
          warm = w.text;
          cold = c.text;
        }
      }),
      { numRuns: 300 },
    );
  });

  it("starts from the remembered state: a strict patch sees the validation of the text it is given", () => {
    clearPatchMemo();
    const src = '::claim{id="c"}\nSee [[nowhere]].\n::\n';
    const first = applyPatch(src, [{ op: "update_attribute", id: "c", key: "owner", value: "ana" }]);
    expect(first.result).toBe("applied");
    // The produced text still has a broken wikilink (an error):
    const strict = applyPatch(first.text, [{ op: "update_attribute", id: "c", key: "owner", value: "bo" }], { strict: true });
    expect(strict.error?.code).toBe("pre_validation_blocked");
    expect(strict.preSha256).toBe(first.postSha256);
    // A rejected list leaves the state remembered, so the same text can be patched again.
    const again = applyPatch(first.text, [{ op: "update_attribute", id: "c", key: "owner", value: "cy" }]);
    expect(again.result).toBe("applied");
    expect(again.text).toContain('owner="cy"');
  });
});

describe("remembered diagnostics", () => {
  const dated = '::citation{id="c1" source="s" accessed="2026-01-01"}\nQuoted.\n::\n';

  it("are keyed by the options that shape them, and never kept when the result may vary", () => {
    const plain = parseNoma('::note{id="n"}\nx\n::\n');
    expect(validationCacheKey(plain, {})).toBe(validationCacheKey(plain, { now: new Date(0) }));
    expect(validationCacheKey(plain, { profile: "research" })).not.toBe(validationCacheKey(plain, {}));
    expect(validationCacheKey(plain, { ignoreRules: ["x"] })).not.toBe(validationCacheKey(plain, {}));
    expect(validationCacheKey(plain, { datasetSrcExists: () => true })).toBeNull();
    const citation = parseNoma(dated);
    expect(validationCacheKey(citation, {})).toBeNull();
    expect(validationCacheKey(citation, { now: new Date(0) })).not.toBe(validationCacheKey(citation, { now: new Date(1e12) }));
  });

  it("a later clock re-validates a remembered state that has a dated citation", () => {
    clearPatchMemo();
    const early = new Date("2026-01-02T00:00:00Z");
    const late = new Date("2028-01-02T00:00:00Z");
    const first = applyPatch(dated, [{ op: "update_attribute", id: "c1", key: "note", value: "a" }], { validate: { now: early } });
    expect(first.postDiagnostics.map((d) => d.code)).not.toContain("stale-citation");
    const second = applyPatch(first.text, [{ op: "update_attribute", id: "c1", key: "note", value: "b" }], { validate: { now: late } });
    expect(second.preDiagnostics.map((d) => d.code)).toContain("stale-citation");
  });

  it("handed out are copies: changing one patch's diagnostics does not change the next patch's", () => {
    clearPatchMemo();
    const src = '::claim{id="c"}\nSee [[nowhere]].\n::\n';
    const first = applyPatch(src, [{ op: "update_attribute", id: "c", key: "owner", value: "ana" }]);
    const broken = first.postDiagnostics.find((d) => d.code === "broken-reference")!;
    broken.message = "changed";
    broken.pos!.line = 99;
    const second = applyPatch(first.text, [{ op: "update_attribute", id: "c", key: "owner", value: "bo" }]);
    const pre = second.preDiagnostics.find((d) => d.code === "broken-reference")!;
    expect(pre.message).not.toBe("changed");
    expect(pre.pos!.line).toBe(2);
  });
});
