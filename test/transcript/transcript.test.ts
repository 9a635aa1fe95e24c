/**
 * Transcripts (§5), written by real patches to real files:
 * - one record per attempted op, required fields in the specified order,
 *   summaries derived from diagnostics, rejected/noop post = pre;
 * - prev_entry_sha256 chains every record to the previous line;
 * - the verifier detects any single edited, deleted, inserted or reordered
 *   line, invalid records, outside edits and interrupted writes;
 * - replay from a base reproduces the document byte for byte (§5.5).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { patchDocument } from "../../src/editing/patch-document.js";
import { TranscriptRecordSchema } from "../../src/internal.js";
import { transcriptLines, verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { applyPatch, summarize } from "../../src/internal.js";
import { tempDir } from "../helpers/temp-repo.js";

const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const actor = { kind: "agent" as const, name: "tester", model: "m-1" };

function setup(): { dir: string; doc: string; base: string } {
  const dir = tempDir();
  const doc = join(dir, "d.noma");
  writeFileSync(doc, DOC);
  return { dir, doc, base: DOC };
}

function history(doc: string): void {
  patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "confidence", value: 0.7 }], { actor, reason: "tune" });
  patchDocument(doc, [{ op: "delete_block", id: "missing" }], { actor });
  patchDocument(
    doc,
    [
      { op: "rename_id", from: "c1", to: "c2" },
      { op: "add_comment", id: "cm", target: "c2", content: "ok?" },
    ],
    { actor },
  );
  patchDocument(doc, [{ op: "update_attribute", id: "c2", key: "confidence", value: 0.7 }], { actor });
  patchDocument(
    doc,
    [
      { op: "update_attribute", id: "c2", key: "owner", value: "ana" },
      { op: "delete_block", id: "nope" },
    ],
    { actor },
  );
}

const sha = (s: string): string => createHash("sha256").update(s).digest("hex");

describe("records", () => {
  it("one per attempted op, required fields first in the specified order, chained", () => {
    const { doc } = setup();
    history(doc);
    const lines = transcriptLines(readFileSync(`${doc}.patches`, "utf8"));
    expect(lines).toHaveLength(7);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((r) => r["patch_result"])).toEqual(["applied", "rejected", "applied", "applied", "noop", "rejected", "rejected"]);
    expect(Object.keys(records[0]!).slice(0, 14)).toEqual([
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
    ]);
    expect(records[0]).toMatchObject({
      protocol_version: "1.0",
      actor,
      reason: "tune",
      op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.7 },
    });
    expect(String(records[0]!["doc_uri"])).toMatch(/^file:\/\/.*\/d\.noma$/);
    for (const [i, r] of records.entries()) {
      expect(TranscriptRecordSchema.safeParse(r).success).toBe(true);
      expect(r["pre_sha"]).toBe(String(r["pre_sha256"]).slice(0, 8));
      if (r["patch_result"] !== "applied") expect(r["post_sha256"]).toBe(r["pre_sha256"]);
      if (i === 0) expect(r["prev_entry_sha256"]).toBeUndefined();
      else expect(r["prev_entry_sha256"]).toBe(sha(lines[i - 1]!));
      const diags = r["diagnostics"] as Array<{ severity: "info" | "warning" | "error"; code: string; message: string; phase: "pre" | "post" }>;
      for (const phase of ["pre", "post"] as const) expect(r[`${phase}_validation`]).toBe(summarize(diags.filter((d) => d.phase === phase)));
    }
    expect(records[5]!["diagnostics"]).toEqual(expect.arrayContaining([expect.objectContaining({ code: "op_list_aborted", phase: "pre" })]));
    expect(records[6]!["diagnostics"]).toEqual(expect.arrayContaining([expect.objectContaining({ code: "target_missing", severity: "error", phase: "pre" })]));
    expect(new Set(records.map((r) => r["op_id"])).size).toBe(7);
  });

  it("the last applied record's post state is the document on disk; a clean history verifies", () => {
    const { doc } = setup();
    history(doc);
    const report = verifyTranscript(readFileSync(`${doc}.patches`, "utf8"), readFileSync(doc, "utf8"));
    expect(report).toMatchObject({ ok: true, records: 7, applied: 3, findings: [], finalSha256: sha(readFileSync(doc, "utf8")) });
  });
});

describe("tamper evidence: any single line", () => {
  const codesFor = (transcript: string, docText: string): string[] => verifyTranscript(transcript, docText).findings.map((f) => f.code);

  it("edited (every line, including the last)", () => {
    const { doc } = setup();
    history(doc);
    const lines = transcriptLines(readFileSync(`${doc}.patches`, "utf8"));
    const docText = readFileSync(doc, "utf8");
    for (let i = 0; i < lines.length; i++) {
      const edited = [...lines];
      edited[i] = edited[i]!.replace('"kind":"agent"', '"kind":"human"');
      expect(edited[i]).not.toBe(lines[i]);
      expect(codesFor(edited.join(""), docText).length, `edit of line ${i + 1}`).toBeGreaterThan(0);
    }
  });

  it("deleted, inserted (a copy of another line) or swapped with its neighbour", () => {
    const { doc } = setup();
    history(doc);
    const lines = transcriptLines(readFileSync(`${doc}.patches`, "utf8"));
    const docText = readFileSync(doc, "utf8");
    for (let i = 0; i < lines.length - 1; i++) {
      const deleted = lines.filter((_, k) => k !== i);
      expect(codesFor(deleted.join(""), docText).length, `deletion of line ${i + 1}`).toBeGreaterThan(0);
      const inserted = [...lines.slice(0, i + 1), lines[i]!, ...lines.slice(i + 1)];
      expect(codesFor(inserted.join(""), docText).length, `insertion after line ${i + 1}`).toBeGreaterThan(0);
      const swapped = [...lines];
      [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
      expect(codesFor(swapped.join(""), docText).length, `swap of lines ${i + 1} and ${i + 2}`).toBeGreaterThan(0);
    }
  });

  it("deleting the last applied record shows as a document that is not the final state", () => {
    const { doc } = setup();
    patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "x", value: 1 }], { actor });
    patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "x", value: 2 }], { actor });
    const lines = transcriptLines(readFileSync(`${doc}.patches`, "utf8"));
    expect(codesFor(lines[0]!, readFileSync(doc, "utf8"))).toEqual(["transcript-document-mismatch"]);
  });

  it("invalid JSON, a missing required field, a Phase 0 record, an inconsistent summary", () => {
    const { doc } = setup();
    patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "x", value: 1 }], { actor });
    const line = transcriptLines(readFileSync(`${doc}.patches`, "utf8"))[0]!;
    const docText = readFileSync(doc, "utf8");
    expect(codesFor("{not json\n", docText)).toContain("transcript-invalid-json");
    const missing = JSON.parse(line) as Record<string, unknown>;
    delete missing["op_id"];
    delete missing["entry_sha256"];
    expect(codesFor(`${JSON.stringify(missing)}\n`, docText)).toContain("transcript-invalid-record");
    expect(verifyTranscript('{"v":1,"op":{"op":"x"}}\n', docText).findings[0]!.message).toContain("Phase 0");
    const liar = JSON.parse(line) as Record<string, unknown>;
    liar["post_validation"] = "error";
    delete liar["entry_sha256"];
    expect(codesFor(`${JSON.stringify(liar)}\n`, docText)).toContain("transcript-summary-inconsistent");
  });

  it("unknown fields are ignored (§1.3)", () => {
    const { doc } = setup();
    patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "x", value: 1 }], { actor });
    const rec = JSON.parse(readFileSync(`${doc}.patches`, "utf8")) as Record<string, unknown>;
    rec["x_future_field"] = { anything: true };
    delete rec["entry_sha256"];
    expect(verifyTranscript(`${JSON.stringify(rec)}\n`, readFileSync(doc, "utf8")).ok).toBe(true);
  });
});

describe("the document and the protocol", () => {
  it("an edit outside the protocol is reported (warning; error when strict) — between records too", () => {
    const { doc } = setup();
    patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "x", value: 1 }], { actor });
    writeFileSync(doc, `${readFileSync(doc, "utf8")}\nhand edit\n`);
    const t = readFileSync(`${doc}.patches`, "utf8");
    expect(verifyTranscript(t, readFileSync(doc, "utf8")).findings).toEqual([
      expect.objectContaining({ severity: "warning", code: "transcript-document-mismatch" }),
    ]);
    expect(verifyTranscript(t, readFileSync(doc, "utf8"), { strict: true }).ok).toBe(false);
    patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "x", value: 2 }], { actor });
    const gap = verifyTranscript(readFileSync(`${doc}.patches`, "utf8"), readFileSync(doc, "utf8"));
    expect(gap.findings).toEqual([expect.objectContaining({ code: "transcript-state-gap", line: 2 })]);
  });

  it("replay from the base reproduces the document byte for byte (§5.5); a wrong base is named", () => {
    const { doc, base } = setup();
    history(doc);
    const t = readFileSync(`${doc}.patches`, "utf8");
    expect(verifyTranscript(t, readFileSync(doc, "utf8"), { replay: { base, engine: applyPatch } }).ok).toBe(true);
    expect(verifyTranscript(t, readFileSync(doc, "utf8"), { replay: { base: `${base}x`, engine: applyPatch } }).findings.map((f) => f.code)).toEqual([
      "transcript-replay-base-mismatch",
    ]);
  });

  it("a dry run writes nothing", () => {
    const { doc } = setup();
    const r = patchDocument(doc, [{ op: "delete_block", id: "e1" }], { actor, dryRun: true });
    expect(r.outcome.result).toBe("applied");
    expect(r.lines).toHaveLength(1);
    expect(readFileSync(doc, "utf8")).toBe(DOC);
    expect(() => readFileSync(`${doc}.patches`)).toThrow();
  });

  it("a document that is not valid UTF-8 is refused without losing a byte", () => {
    const dir = tempDir();
    const doc = join(dir, "bad.noma");
    const bytes = Buffer.concat([Buffer.from('::n{id="n"}\n'), Buffer.from([0xff, 0xfe]), Buffer.from("\n::\n")]);
    writeFileSync(doc, bytes);
    const r = patchDocument(doc, [{ op: "delete_block", id: "n" }], { actor });
    expect(r.outcome.error?.code).toBe("invalid_content");
    expect(readFileSync(doc).equals(bytes)).toBe(true);
    expect(JSON.parse(r.lines[0]!)["pre_sha256"]).toBe(createHash("sha256").update(bytes).digest("hex"));
  });

  it("capability sidecars: advisories only, never blocking", () => {
    const { doc } = setup();
    writeFileSync(
      `${doc}.capabilities.yml`,
      "nomaAgent:\n  version: 1\n  blocks:\n    claim:\n      ops: [update_attribute]\n      attrs:\n        confidence: {type: number, min: 0, max: 1}\n",
    );
    const granted = patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "confidence", value: 0.6 }], { actor });
    expect(granted.outcome.ops[0]!.diagnostics).toEqual([]);
    const outOfRange = patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "confidence", value: 3 }], { actor });
    expect(outOfRange.outcome.result).toBe("applied");
    expect(outOfRange.outcome.ops[0]!.diagnostics).toEqual([expect.objectContaining({ severity: "info", code: "capability-advisory", phase: "pre" })]);
    const notGranted = patchDocument(doc, [{ op: "delete_block", id: "e1" }], { actor });
    expect(notGranted.outcome.result).toBe("applied");
    expect(notGranted.outcome.ops[0]!.diagnostics[0]!.message).toContain("does not grant delete_block on ::evidence");
    writeFileSync(`${doc}.capabilities.yml`, "nomaAgent:\n  version: 2\n");
    const unknownVersion = patchDocument(doc, [{ op: "update_attribute", id: "c1", key: "confidence", value: 0.1 }], { actor });
    expect(unknownVersion.capabilities).toBe("invalid");
    expect(unknownVersion.outcome.ops[0]!.diagnostics[0]!.message).toContain("no valid capability descriptor");
  });
});
