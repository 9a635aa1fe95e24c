/**
 * The tools' schemas built on first use (src/workspace/lazy-fields.ts, used by
 * src/mcp/tool-schemas.ts and src/workspace/workspace-schemas.ts) against building everything up front:
 * - `lazyFields` for any record and any sequence of reads (property): the same keys in the same
 *   order, the same entries, the same JSON, each builder run at most once and only when its field
 *   is read, every read of a field the same object; `once` likewise;
 * - the real schemas, each in a fresh copy of the modules (an esbuild bundle of the sources,
 *   imported anew each time): whatever order and subset of tools and fields are read first, every
 *   tool's JSON Schemas (what tools/list advertises) equal those of a copy that read every field in
 *   catalog order first (what the eager module did at import), and the argument schemas judge
 *   generated arguments alike (property).
 */
import { join } from "node:path";
import { build } from "esbuild";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { TOOL_NAMES, type ToolName } from "../../src/mcp/tool-catalog.js";
import type { ToolSchemas } from "../../src/mcp/tool-schemas.js";
import { lazyFields, once } from "../../src/workspace/lazy-fields.js";

const ROOT = join(import.meta.dirname, "..", "..");

describe("lazyFields", () => {
  it("is the eager record, for any fields and any reads; each builder runs once, when its field is first read", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 8 }).filter((k) => k !== "__proto__"),
          { maxLength: 12 },
        ),
        fc.array(fc.nat(), { maxLength: 40 }),
        fc.anything(),
        (keys, reads, seed) => {
          const calls: string[] = [];
          const values = Object.fromEntries(keys.map((k, i) => [k, { k, i, seed }]));
          const builders = Object.fromEntries(keys.map((k) => [k, () => (calls.push(k), values[k])]));
          const lazy = lazyFields(builders as { [k: string]: () => unknown });
          expect(calls).toEqual([]);
          const seen = new Map<string, unknown>();
          for (const r of reads) {
            if (keys.length === 0) break;
            const k = keys[r % keys.length]!;
            const v = (lazy as Record<string, unknown>)[k];
            expect(v).toBe(values[k]);
            if (seen.has(k)) expect(v).toBe(seen.get(k));
            seen.set(k, v);
          }
          expect(calls).toEqual([...new Set(calls)]);
          expect(new Set(calls)).toEqual(new Set(seen.keys()));
          expect(Object.keys(lazy)).toEqual(Object.keys(values));
          expect(Object.entries(lazy)).toEqual(Object.entries(values));
          expect(JSON.stringify(lazy)).toBe(JSON.stringify(values));
          expect({ ...lazy }).toEqual(values);
          expect(calls.length).toBe(keys.length);
        },
      ),
    );
  });

  it("once builds on the first call and returns that value ever after", () => {
    fc.assert(
      fc.property(fc.anything(), fc.integer({ min: 1, max: 20 }), (value, n) => {
        let built = 0;
        const get = once(() => (built++, { value }));
        expect(built).toBe(0);
        const first = get();
        for (let i = 0; i < n; i++) expect(get()).toBe(first);
        expect(built).toBe(1);
      }),
    );
  });
});

interface Copy {
  TOOL_SCHEMAS: Record<ToolName, ToolSchemas>;
  toolJsonSchemas: () => Record<ToolName, unknown>;
}

describe("the tools' schemas, built lazily", () => {
  let bundle: string;
  let copies = 0;
  /** A fresh copy of the schema modules (their own memos): a data: URL is a new module each time. */
  const freshCopy = async (): Promise<Copy> =>
    (await import(`data:text/javascript;base64,${Buffer.from(`${bundle}\n// copy ${++copies}\n`).toString("base64")}`)) as Copy;
  let eager: Record<ToolName, unknown>;
  let eagerCopy: Copy;

  beforeAll(async () => {
    const out = await build({
      stdin: {
        contents: 'export { TOOL_SCHEMAS } from "./src/mcp/tool-schemas.ts";\nexport { toolJsonSchemas } from "./src/mcp/generate-tool-json-schemas.ts";\n',
        resolveDir: ROOT,
        loader: "ts",
      },
      absWorkingDir: ROOT,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      write: false,
      logLevel: "warning",
    });
    bundle = out.outputFiles[0]!.text;
    // What the module did before: every tool's every schema built at import, in catalog order.
    eagerCopy = await freshCopy();
    for (const name of TOOL_NAMES) {
      const s = eagerCopy.TOOL_SCHEMAS[name];
      void s.input;
      void s.args;
      void s.output;
    }
    eager = eagerCopy.toolJsonSchemas();
    expect(Object.keys(eager).sort()).toEqual([...TOOL_NAMES].sort());
  });

  it("gives every tool the same JSON Schemas whatever is read first, and judges arguments alike", async () => {
    const fields = ["input", "args", "output"] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.shuffledSubarray([...TOOL_NAMES]),
        fc.array(fc.constantFrom(...fields), { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.constantFrom(...TOOL_NAMES), fc.anything()), { maxLength: 8 }),
        async (first, order, args) => {
          const copy = await freshCopy();
          for (const name of first) for (const f of order) void copy.TOOL_SCHEMAS[name][f];
          for (const [name, value] of args) {
            const judge = (c: Copy) => {
              const s = c.TOOL_SCHEMAS[name];
              const r = (s.args ?? s.input).safeParse(value);
              return r.success ? { ok: true, data: r.data } : { ok: false, issues: r.error.issues };
            };
            expect(judge(copy)).toEqual(judge(eagerCopy));
          }
          expect(Object.keys(copy.TOOL_SCHEMAS)).toEqual(Object.keys(eagerCopy.TOOL_SCHEMAS));
          expect(copy.toolJsonSchemas()).toEqual(eager);
        },
      ),
      { numRuns: 12 },
    );
  });
});
