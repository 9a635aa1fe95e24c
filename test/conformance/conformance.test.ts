/**
 * Conformance (Annex C): every fixture of the upstream corpus and of ours, one
 * test each, evaluated by the same code `noma-reconcile verify` runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { evaluateFixture, OP_NAMES, PATCH_ERROR_CODES } from "../../src/internal.js";
import { fixturePatchEngine } from "../../src/verify/fixture-patch-engine.js";
import { fixtureNames, OURS, UPSTREAM, upstreamPresent } from "./corpus.js";

const TRACKS = ["valid", "invalid", "patch", "patch-error"];

function evaluate(root: string, fixture: string) {
  const dir = join(root, fixture);
  return evaluateFixture({ get: (name) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined) }, fixturePatchEngine);
}

describe.skipIf(!upstreamPresent)("upstream corpus (../shared/conformance, read in place)", () => {
  const names = upstreamPresent ? fixtureNames(UPSTREAM, TRACKS) : [];
  it("has the 40 fixtures of the v1.0 minimum corpus", () => {
    expect(names).toHaveLength(40);
  });
  it.each(names)("%s", (fixture) => {
    expect(evaluate(UPSTREAM, fixture)).toEqual({ ok: true });
  });
});

describe("our corpus (fixtures/conformance)", () => {
  const names = fixtureNames(OURS, TRACKS);
  it("covers every op and every PatchError code", () => {
    const ops = new Set<string>();
    const codes = new Set<string>();
    for (const n of names) {
      const dir = join(OURS, n);
      if (existsSync(join(dir, "patch.json"))) {
        const p = JSON.parse(readFileSync(join(dir, "patch.json"), "utf8")) as unknown;
        for (const op of Array.isArray(p) ? p : [p]) ops.add(String((op as { op: unknown }).op));
      }
      if (existsSync(join(dir, "expected.error.json"))) codes.add(String(JSON.parse(readFileSync(join(dir, "expected.error.json"), "utf8")).code));
      if (existsSync(join(dir, "expected.outcomes.json")))
        for (const o of JSON.parse(readFileSync(join(dir, "expected.outcomes.json"), "utf8")) as Array<{ code?: string }>) if (o.code) codes.add(o.code);
    }
    expect([...OP_NAMES].filter((o) => !ops.has(o))).toEqual([]);
    expect([...PATCH_ERROR_CODES].filter((c) => !codes.has(c))).toEqual([]);
  });
  it.each(names)("%s", (fixture) => {
    expect(evaluate(OURS, fixture)).toEqual({ ok: true });
  });
});

describe("the harness catches a wrong implementation", () => {
  it("fails a fixture whose expectations differ", () => {
    const files = new Map([
      ["input.noma", "# A\n"],
      ["expected.ids.json", '{"canonical": ["b"], "aliases": {}}'],
    ]);
    expect(evaluateFixture({ get: (n) => files.get(n) })).toEqual({ ok: false, reason: 'ids mismatch: got ["a"], expected ["b"]' });
  });
  it("fails a span, a roundtrip and a diagnostic mismatch with readable reasons", () => {
    const spans = new Map([
      ["input.noma", "# A\n\ntext\n"],
      ["expected.spans.json", '{"a": {"startLine": 1, "endLine": 2}}'],
    ]);
    expect(evaluateFixture({ get: (n) => spans.get(n) })).toEqual({ ok: false, reason: 'span mismatch for "a": got [1, 3], expected [1, 2]' });
    const rt = new Map([
      ["input.noma", "# A\ntext\n"],
      ["expected.roundtrip.noma", "# A\ntext\n"],
    ]);
    expect(evaluateFixture({ get: (n) => rt.get(n) })).toEqual({ ok: false, reason: 'roundtrip mismatch at line 2: got "", expected "text"' });
    const dg = new Map([
      ["input.noma", "::risk\n::\n"],
      ["expected.diagnostics.json", "[]"],
    ]);
    expect(evaluateFixture({ get: (n) => dg.get(n) })).toEqual({ ok: false, reason: 'diagnostics mismatch: got ["warning risk-without-owner"], expected []' });
  });
});
