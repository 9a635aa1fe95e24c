/**
 * Property: on random sequences of patches, edits made outside the protocol (including one
 * that puts the recorded bytes back) and accepts, `verifyTranscript` under strict agrees with
 * a model that only counts states: a patch made over an outside edit leaves a gap inside the
 * transcript, a document not in the recorded state is a mismatch, and an accept acknowledges
 * every one of them (or is refused when there are none, or no transcript). The check's view
 * (transcriptDiagnostics) is the same without the acknowledgements; a rewritten
 * acknowledgement always fails.
 */
import { createHash } from "node:crypto";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers/temp-repo.js";
import { acceptOutsideEdits, AcceptRefusedError, patchDocument, verifyTranscript } from "../../src/internal.js";
import { transcriptDiagnostics } from "../../src/check/transcript-diagnostics.js";

const DOC = '# Plan\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nSeen.\n::\n';
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

type Step = { kind: "patch"; value: number } | { kind: "edit"; line: string } | { kind: "restore" } | { kind: "accept" };
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("patch" as const), value: fc.constantFrom(0.1, 0.2, 0.3) }),
  fc.record({ kind: fc.constant("edit" as const), line: fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom("a", "b", " ", "é") }) }),
  fc.constant({ kind: "restore" as const }),
  fc.constant({ kind: "accept" as const }),
);

/** The model: states only. */
interface Model {
  transcript: boolean;
  /** The state the transcript records (its last record's), and its text. */
  recorded: string | null;
  recordedText: string | null;
  doc: string;
  /** Gaps inside the transcript nobody acknowledged. */
  gaps: number;
  acknowledged: number;
}

function run(dir: string, steps: readonly Step[]): { model: Model; file: string } {
  const file = join(mkdtempSync(join(dir, "r-")), "d.noma");
  writeFileSync(file, DOC);
  const m: Model = { transcript: false, recorded: null, recordedText: null, doc: sha(DOC), gaps: 0, acknowledged: 0 };
  for (const s of steps) {
    if (s.kind === "patch") {
      if (m.transcript && m.doc !== m.recorded) m.gaps++;
      patchDocument(file, [{ op: "update_attribute", id: "c1", key: "confidence", value: s.value }], { actor: { kind: "agent", name: "p" }, reuse: false });
      const text = readFileSync(file, "utf8");
      Object.assign(m, { transcript: true, recorded: sha(text), recordedText: text, doc: sha(text) });
    } else if (s.kind === "edit") {
      appendFileSync(file, `\n${s.line}\n`);
      m.doc = sha(readFileSync(file, "utf8"));
    } else if (s.kind === "restore") {
      if (m.recordedText === null) continue;
      writeFileSync(file, m.recordedText);
      m.doc = m.recorded!;
    } else {
      const refuse = !m.transcript || (m.gaps === 0 && m.doc === m.recorded);
      let refused = false;
      try {
        const r = acceptOutsideEdits(file, { actor: { kind: "human", name: "h" }, reason: "ok" });
        expect(r.accepted).toHaveLength(m.gaps + (m.doc !== m.recorded ? 1 : 0));
      } catch (e) {
        if (!(e instanceof AcceptRefusedError)) throw e;
        refused = true;
      }
      expect(refused).toBe(refuse);
      if (!refuse)
        Object.assign(m, {
          acknowledged: m.acknowledged + m.gaps + (m.doc !== m.recorded ? 1 : 0),
          gaps: 0,
          recorded: m.doc,
          recordedText: readFileSync(file, "utf8"),
        });
    }
  }
  return { model: m, file };
}

describe("verify agrees with the model on patches, outside edits and accepts", () => {
  it("findings, acknowledged edits, the final state and the check's view", () => {
    const dir = tempDir();
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 9 }), (steps) => {
        const { model: m, file } = run(dir, steps);
        if (!m.transcript) {
          expect(existsSync(`${file}.patches`)).toBe(false);
          return;
        }
        const transcript = readFileSync(`${file}.patches`, "utf8");
        const doc = readFileSync(file, "utf8");
        const report = verifyTranscript(transcript, doc, { strict: true });
        const expected = [...Array<string>(m.gaps).fill("transcript-state-gap"), ...(m.doc !== m.recorded ? ["transcript-document-mismatch"] : [])];
        expect(report.findings.filter((f) => f.severity === "error").map((f) => f.code)).toEqual(expected);
        expect(report.findings.filter((f) => f.severity === "info").map((f) => f.code)).toEqual(
          Array<string>(m.acknowledged).fill("transcript-outside-edit-accepted"),
        );
        expect(report.findings.filter((f) => f.severity === "warning")).toEqual([]);
        expect(report.ok).toBe(expected.length === 0);
        expect(report.finalSha256).toBe(m.recorded);
        expect(report.outsideEdits.filter((e) => e.acknowledgedOn !== undefined)).toHaveLength(m.acknowledged);
        expect(report.outsideEdits.filter((e) => e.acknowledgedOn === undefined)).toHaveLength(expected.length);
        expect(transcriptDiagnostics(transcript, doc, "d.noma", true).map((d) => d.code)).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it("any acknowledgement rewritten (its reason, a hash, its gap) fails verification", () => {
    const dir = tempDir();
    const withAck = fc
      .array(step, { minLength: 1, maxLength: 7 })
      .map((s) => [
        { kind: "patch", value: 0.1 } as Step,
        { kind: "edit", line: "x" } as Step,
        ...s,
        { kind: "edit", line: "y" } as Step,
        { kind: "accept" } as Step,
      ]);
    fc.assert(
      fc.property(withAck, fc.nat(), fc.constantFrom("reason", "recorded", "accepted", "gap"), (steps, pick, field) => {
        const { file } = run(dir, steps);
        const lines = readFileSync(`${file}.patches`, "utf8")
          .split("\n")
          .filter((l) => l.length > 0);
        const acks = lines.map((l, i) => [l, i] as const).filter(([l]) => l.includes('"accept_outside_edit"'));
        const [line, i] = acks[pick % acks.length]!;
        const r = JSON.parse(line) as Record<string, unknown> & { op: Record<string, unknown> };
        if (field === "reason") r["reason"] = "something else";
        else if (field === "recorded") r.op["recorded_sha256"] = sha("other");
        else if (field === "accepted") r.op["accepted_sha256"] = sha("other");
        else r.op["gap_op_id"] = "no-such-record";
        lines[i] = JSON.stringify(r);
        const report = verifyTranscript(`${lines.join("\n")}\n`, readFileSync(file, "utf8"));
        expect(report.ok).toBe(false);
      }),
      { numRuns: 40 },
    );
  });
});
