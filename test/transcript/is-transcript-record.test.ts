/**
 * The hand-written shape check of a transcript record (is-transcript-record.ts) answers what
 * the zod schema answers, for any JSON value: valid records, records with any field replaced,
 * removed or added (at the top, in the actor, the op, the diagnostics and their positions),
 * and arbitrary JSON.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isTranscriptRecord } from "../../src/transcript/is-transcript-record.js";
import { transcriptSchemas } from "../../src/transcript/transcript-schema.js";

const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef".split("")), minLength: n, maxLength: n });
const sha = hex(64);

const diagnostic = fc.record(
  {
    severity: fc.constantFrom("info", "warning", "error"),
    code: fc.string({ maxLength: 8 }),
    message: fc.string({ maxLength: 8 }),
    pos: fc.record({ line: fc.integer(), column: fc.double({ noNaN: true, noDefaultInfinity: true }) }),
    nodeId: fc.string({ maxLength: 4 }),
    phase: fc.constantFrom("pre", "post"),
  },
  { requiredKeys: ["severity", "code", "message"] },
);

const record = fc
  .record(
    {
      protocol_version: fc.constant("1.0"),
      tool_version: fc.string({ maxLength: 6 }),
      op_id: fc.string({ minLength: 1, maxLength: 8 }),
      ts: fc.constantFrom("2026-11-26T10:00:00Z", "2026-11-26T10:00:00.123Z", "1999-01-01T00:00:00.5Z"),
      actor: fc.record(
        {
          kind: fc.constantFrom("human", "agent", "tool"),
          name: fc.string({ maxLength: 6 }),
          model: fc.string({ maxLength: 4 }),
          version: fc.string({ maxLength: 4 }),
        },
        { requiredKeys: ["kind", "name"] },
      ),
      doc_uri: fc.string({ maxLength: 10 }),
      pre_sha256: sha,
      post_sha256: sha,
      pre_sha: hex(8),
      post_sha: hex(8),
      op: fc.record({ op: fc.string({ maxLength: 10 }), id: fc.string({ maxLength: 3 }) }, { requiredKeys: ["op"] }),
      patch_result: fc.constantFrom("applied", "rejected", "noop"),
      pre_validation: fc.constantFrom("ok", "warn", "error"),
      post_validation: fc.constantFrom("ok", "warn", "error"),
      reason: fc.string({ maxLength: 5 }),
      parent_op_id: fc.string({ maxLength: 5 }),
      base_sha256: sha,
      diagnostics: fc.array(diagnostic, { maxLength: 3 }),
      elapsed_ms: fc.double({ noNaN: true, noDefaultInfinity: true }),
      prev_entry_sha256: sha,
      signature: fc.constant(null),
      entry_sha256: sha,
    },
    {
      requiredKeys: [
        "protocol_version",
        "tool_version",
        "op_id",
        "ts",
        "actor",
        "doc_uri",
        "pre_sha256",
        "post_sha256",
        "pre_sha",
        "post_sha",
        "op",
        "patch_result",
        "pre_validation",
        "post_validation",
      ],
    },
  )
  .map((r) => JSON.parse(JSON.stringify(r)) as Record<string, unknown>);

/** Any JSON value, and near misses of the shapes checked (wrong case, one character short, an array for an object). */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(
    "1.0",
    "1.1",
    1,
    "",
    "ok",
    "OK",
    "human",
    "Agent",
    "applied",
    "pre",
    "a".repeat(64),
    "A".repeat(64),
    "0".repeat(63),
    "0".repeat(8),
    "2026-11-26T10:00:00",
    [],
    {},
    null,
    true,
  ),
);

type Path = string[];
const paths: Path[] = [
  ...[
    "protocol_version",
    "tool_version",
    "op_id",
    "ts",
    "actor",
    "doc_uri",
    "pre_sha256",
    "post_sha256",
    "pre_sha",
    "post_sha",
    "op",
    "patch_result",
    "pre_validation",
    "post_validation",
    "reason",
    "parent_op_id",
    "base_sha256",
    "diagnostics",
    "elapsed_ms",
    "prev_entry_sha256",
    "signature",
    "entry_sha256",
    "extra",
  ].map((k) => [k]),
  ["actor", "kind"],
  ["actor", "name"],
  ["actor", "model"],
  ["actor", "version"],
  ["op", "op"],
  ["op", "more"],
  ["diagnostics", "0"],
  ["diagnostics", "0", "severity"],
  ["diagnostics", "0", "code"],
  ["diagnostics", "0", "message"],
  ["diagnostics", "0", "pos"],
  ["diagnostics", "0", "pos", "line"],
  ["diagnostics", "0", "pos", "column"],
  ["diagnostics", "0", "nodeId"],
  ["diagnostics", "0", "phase"],
];

/** `r` with the value at `path` replaced by `value`, or removed (`remove`); missing parents are made. */
function edit(r: Record<string, unknown>, path: Path, value: unknown, remove: boolean): unknown {
  const copy = JSON.parse(JSON.stringify(r)) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof at[key] !== "object" || at[key] === null) at[key] = key === "diagnostics" ? [{ severity: "info", code: "c", message: "m" }] : {};
    at = at[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

describe("isTranscriptRecord", () => {
  const schema = transcriptSchemas().record;
  const same = (v: unknown): void => {
    expect(isTranscriptRecord(v), JSON.stringify(v)).toBe(schema.safeParse(v).success);
  };

  it("accepts every valid record the schema accepts", () => {
    fc.assert(
      fc.property(record, (r) => {
        expect(schema.safeParse(r).success).toBe(true);
        same(r);
      }),
      { numRuns: 500 },
    );
  });

  it("answers as the schema for a record with one field replaced, removed or added, anywhere", () => {
    fc.assert(
      fc.property(record, fc.constantFrom(...paths), anyValue, fc.boolean(), (r, path, value, remove) => {
        same(edit(r, path, value, remove));
      }),
      { numRuns: 5000 },
    );
  });

  it("answers as the schema for any JSON value", () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 3 }), same), { numRuns: 2000 });
  });
});
