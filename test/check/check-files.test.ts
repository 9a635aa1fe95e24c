/**
 * checkFiles, the pure judgement every source shares (an in-memory reader stands in for git or disk):
 * - documents, sidecars and book manifests go to the validator; absent paths are skipped;
 * - a judged document's transcript is judged with it, against the document in the same source;
 * - specs are validated, and $refs in unjudged specs that point at a judged (deleted) spec are reported;
 * - paths of other kinds are ignored.
 */
import { describe, expect, it } from "vitest";
import { applyPatch, buildRecords, chainLines, checkFiles } from "../../src/internal.js";
import { BROKEN, CLAIM, SPEC, VALID } from "./staged/fixtures.js";

function transcriptFor(doc: string, value: number): { transcript: string; after: string } {
  const outcome = applyPatch(doc, [{ op: "update_attribute", id: "c1", key: "confidence", value }]);
  const lines = chainLines(buildRecords(outcome, { docUri: "file:///d.noma", actor: { kind: "agent", name: "t" }, now: new Date(0) }), null);
  return { transcript: lines.join(""), after: outcome.text };
}

const run = (files: Record<string, string>, targets: string[], transcripts: "warn" | "strict" = "warn") =>
  checkFiles({ targets, read: (p) => files[p] ?? null, specPaths: () => Object.keys(files).filter((p) => p.endsWith(".spec.yaml")), config: { transcripts } });

describe("checkFiles", () => {
  it("validates documents, skips absent paths and ignores other kinds", async () => {
    const r = await run({ "a.noma": VALID, "b.noma": BROKEN, "x.ts": "x" }, ["a.noma", "b.noma", "gone.noma", "x.ts"]);
    expect(r.map((f) => [f.file, f.diagnostics.map((d) => d.code)])).toEqual([
      ["a.noma", []],
      ["b.noma", ["broken-reference"]],
    ]);
  });

  it("judges a document's transcript against the document in the same source", async () => {
    const { transcript, after } = transcriptFor(CLAIM, 0.9);
    expect((await run({ "d.noma": after, "d.noma.patches": transcript }, ["d.noma"])).map((f) => f.file)).toEqual(["d.noma", "d.noma.patches"]);
    const hand = after.replace("A claim.", "Hand edit.");
    const edited = await run({ "d.noma": hand, "d.noma.patches": transcript }, ["d.noma"], "strict");
    expect(edited[1]!.diagnostics).toEqual([expect.objectContaining({ severity: "error", code: "transcript-document-mismatch", pos: { line: 1, column: 1 } })]);
    const viaTranscript = await run({ "d.noma": hand, "d.noma.patches": transcript }, ["d.noma.patches"]);
    expect(viaTranscript.map((f) => [f.file, f.diagnostics.map((d) => d.severity)])).toEqual([["d.noma.patches", ["warning"]]]);
  });

  it("validates judged specs and reports $refs to a judged spec that is gone", async () => {
    const system = `${SPEC}subsystems:\n  - $ref: ./api.spec.yaml\n`;
    const r = await run({ ".notarai/system.spec.yaml": system }, [".notarai/api.spec.yaml"]);
    expect(r).toEqual([
      { file: ".notarai/system.spec.yaml", diagnostics: [expect.objectContaining({ code: "spec-missing-ref", pos: { line: 13, column: 11 } })] },
    ]);
    const ok = await run({ ".notarai/system.spec.yaml": system, ".notarai/api.spec.yaml": SPEC }, [".notarai/api.spec.yaml"]);
    expect(ok).toEqual([{ file: ".notarai/api.spec.yaml", diagnostics: [] }]);
  });
});
