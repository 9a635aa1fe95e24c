/**
 * Memory of op lists (issue 15, item 10): an op list keeps O(document + ops) alive, not one
 * copy of the document per op. Structural, not a size threshold: after a list of n ops the
 * engine holds as many document-sized strings as after one op (the original text, the
 * result, the remembered state's), counted in a heap snapshot of a fresh process running
 * the built library. Before the fix every re-parsed node kept its op's whole text alive
 * through V8's string views: 41 ops left 43 copies.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const LIB = fileURLToPath(new URL("../../dist/index.js", import.meta.url));

/** A child process: build a ~200 KB document, apply `n` ops (mixed kinds), count document-sized strings on the heap. */
const SCRIPT = `
import { getHeapSnapshot } from "node:v8";
const { applyPatch } = await import(process.env.LIB);
const n = Number(process.env.OPS);
const parts = ["# Operations handbook for the memory test", ""];
let sections = 0;
while (sections < 800) {
  const i = sections++;
  parts.push(
    "## Area number " + i + " of the handbook {id=\\"s" + i + "\\"}", "",
    "A paragraph long enough to be a view of the text were it sliced, about area " + i + ".", "",
    "::claim{id=\\"c" + i + "\\" owner=\\"the-platform-team-" + i + "\\" confidence=0.5}",
    "Claim " + i + ": the area behaves as described under the load of the last quarter.", "::", "",
    "::section{id=\\"box" + i + "\\"}", "A box holding what agents add below, for area " + i + ".", "::", "",
    "::table{id=\\"t" + i + "\\"}", "| Metric name here | Value of the metric |", "|---|---|", "| latency in milliseconds | " + i + " |", "::", "",
  );
}
const text = parts.join("\\n");
const kinds = ["update_attribute", "replace_body", "add_block", "update_heading", "update_table_cell"];
const ops = Array.from({ length: n }, (_, k) => {
  const i = Math.floor((k * sections) / n);
  switch (kinds[k % kinds.length]) {
    case "update_attribute": return { op: "update_attribute", id: "c" + i, key: "owner", value: "agent-number-" + k + "-of-the-list" };
    case "replace_body": return { op: "replace_body", id: "c" + i, content: "Replaced by op " + k + " of the list, long enough to slice." };
    case "add_block": return { op: "add_block", parent: "box" + i, content: "::note{id=\\"n" + k + "\\"}\\nA note added by op " + k + " of the list.\\n::" };
    case "update_heading": return { op: "update_heading", id: "s" + i, title: "Area number " + i + " renamed by op " + k };
    default: return { op: "update_table_cell", id: "t" + i, row: 0, column: 1, value: "value written by op " + k };
  }
});
const outcome = applyPatch(text, ops);
if (outcome.result !== "applied") throw new Error(JSON.stringify(outcome.error));
const chunks = [];
for await (const c of getHeapSnapshot()) chunks.push(c);
const snap = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const fields = snap.snapshot.meta.node_fields;
const types = snap.snapshot.meta.node_types[0];
const W = fields.length, T = fields.indexOf("type"), S = fields.indexOf("self_size");
let big = 0;
for (let i = 0; i < snap.nodes.length; i += W) {
  if (types[snap.nodes[i + T]].includes("string") && snap.nodes[i + S] >= text.length) big++;
}
process.stdout.write(JSON.stringify({ big, chars: text.length, applied: outcome.ops.filter((o) => o.result === "applied").length }));
`;

function documentCopiesAfter(ops: number): { big: number; chars: number; applied: number } {
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", SCRIPT], { env: { ...process.env, LIB, OPS: String(ops) }, encoding: "utf8", maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`child exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { big: number; chars: number; applied: number };
}

describe("op-list memory", () => {
  it("keeps as many document-sized strings after 41 ops as after one (no copy of the document per op)", () => {
    const one = documentCopiesAfter(1);
    const many = documentCopiesAfter(41);
    expect(one.chars).toBeGreaterThan(190_000);
    expect(one.applied).toBe(1);
    expect(many.applied).toBe(41);
    // The original text, the result, and what the engine remembers of the result: a few, whatever n.
    expect(one.big).toBeGreaterThan(0);
    expect(one.big).toBeLessThanOrEqual(4);
    expect(many.big).toBe(one.big);
  }, 60_000);
});
