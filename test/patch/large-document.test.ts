/**
 * Patching documents of a megabyte and more (results are assembled in a reused byte buffer):
 * an ASCII document is hashed from the bytes read and written from the bytes its result was
 * assembled in; a document with characters beyond ASCII goes through the text. Either way
 * the file holds exactly the edited text, the transcript's digests are the file's, and the
 * transcript verifies — op after op, and across a second document patched in between (the
 * reused buffer then holds the other document's result).
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { patchDocument } from "../../src/editing/patch-document.js";
import { transcriptLines, verifyTranscript } from "../../src/transcript/verify-transcript.js";
import { tempDir } from "../helpers/temp-repo.js";

const actor = { kind: "agent" as const, name: "tester" };
const sha = (b: Buffer | string): string => createHash("sha256").update(b).digest("hex");

/** A document of about `bytes` bytes: sections with a claim each; `extra` goes into every prose line. */
function bigDocument(bytes: number, extra = ""): { text: string; sections: number } {
  const parts: string[] = ["# Handbook\n\n"];
  let n = 0;
  let size = 0;
  while (size < bytes) {
    const s = `## Section ${n}\n\nThe reader pool scales with open connections${extra}, watched every morning by section ${n}.\n\n::claim{id="c${n}" confidence=0.5}\nClaim ${n} holds.\n::\n\n::evidence{id="e${n}" for="c${n}"}\nSeen in production.\n::\n\n`;
    parts.push(s);
    size += Buffer.byteLength(s);
    n++;
  }
  return { text: parts.join(""), sections: n };
}

function check(path: string, expected: string): void {
  const bytes = readFileSync(path);
  expect(bytes.equals(Buffer.from(expected, "utf8"))).toBe(true);
  const lines = transcriptLines(readFileSync(`${path}.patches`, "utf8"));
  const last = JSON.parse(lines[lines.length - 1] as string) as { post_sha256: string };
  expect(last.post_sha256).toBe(sha(bytes));
  const report = verifyTranscript(readFileSync(`${path}.patches`, "utf8"), bytes.toString("utf8"));
  expect(report.findings).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.finalSha256).toBe(sha(bytes));
}

describe("patching large documents", () => {
  for (const [label, extra] of [
    ["ASCII", ""],
    ["with characters beyond ASCII", " (réseau, 東京)"],
  ] as const) {
    it(`${label}: the file is the edited text, the transcript's digests are the file's`, () => {
      const dir = tempDir();
      const a = join(dir, "a.noma");
      const b = join(dir, "b.noma");
      const docA = bigDocument(1_500_000, extra);
      const docB = bigDocument(1_200_000);
      writeFileSync(a, docA.text);
      writeFileSync(b, docB.text);
      let expectedA = docA.text;
      let expectedB = docB.text;
      const mid = Math.floor(docA.sections / 2);
      // Near the start, in the middle, near the end; then the other document; then back.
      for (const [path, id, value] of [
        [a, "c1", 0.1],
        [a, `c${mid}`, 0.2],
        [a, `c${docA.sections - 1}`, 0.3],
        [b, "c2", 0.4],
        [a, `c${mid}`, 0.9],
      ] as const) {
        const r = patchDocument(path, [{ op: "update_attribute", id, key: "confidence", value }], { actor });
        expect(r.outcome.result).toBe("applied");
        expect(r.written).toBe(true);
        const before = path === a ? expectedA : expectedB;
        const pattern = new RegExp(`::claim\\{id="${id}" confidence=[0-9.]+\\}`);
        const after = before.replace(pattern, `::claim{id="${id}" confidence=${value}}`);
        expect(after).not.toBe(before);
        if (path === a) expectedA = after;
        else expectedB = after;
        check(path, after);
      }
      check(a, expectedA);
      check(b, expectedB);
    });

    it(`${label}, as the CLI patches (nothing remembered): a single op and op lists write the edited text`, () => {
      const dir = tempDir();
      const path = join(dir, "a.noma");
      const doc = bigDocument(1_500_000, extra);
      writeFileSync(path, doc.text);
      let expected = doc.text;
      const edit = (id: string, value: number): unknown => {
        const after = expected.replace(new RegExp(`::claim\\{id="${id}" confidence=[0-9.]+\\}`), `::claim{id="${id}" confidence=${value}}`);
        expect(after).not.toBe(expected);
        expected = after;
        return { op: "update_attribute", id, key: "confidence", value };
      };
      const last = doc.sections - 1;
      const mid = doc.sections >> 1;
      // One op (its result kept as pieces of the bytes read), then lists (each op's result assembled).
      const lists = [
        (): unknown[] => [edit("c3", 0.1)],
        (): unknown[] => [edit(`c${last}`, 0.2), edit("c0", 0.3), edit(`c${mid}`, 0.4), edit(`c${mid}`, 0.6)],
        (): unknown[] => [edit("c1", 0.7), edit(`c${last}`, 0.8)],
      ];
      for (const list of lists) {
        const r = patchDocument(path, list(), { actor, reuse: false });
        expect(r.outcome.result).toBe("applied");
        expect(r.written).toBe(true);
        check(path, expected);
      }
    });
  }
});
