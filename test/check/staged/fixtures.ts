/**
 * Small documents and specs shared by the hook and PR-check tests.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { patchDocument } from "../../../src/editing/patch-document.js";

export const VALID = "# Intro\n\nAll good.\n";
/** broken-reference at line 3. */
export const BROKEN = '# Doc\n\n::evidence{id="e" for="nope"}\nx\n::\n';
export const CLAIM = '# Plan\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nSeen.\n::\n';

export const SPEC = `schema_version: "0.7"
intent: "The API"
behaviors:
  - name: works
    given: a call
    then: it answers
artifacts:
  code:
    - path: "src/**"
  docs:
    - path: "docs/**"
`;

/** An unknown key at line 3 (column 1). */
export const BAD_SPEC = `schema_version: "0.7"
intent: "x"
behavior: []
artifacts: {}
`;

/** Apply update_attribute ops through the real patch engine (writes the document and its transcript). */
export function patch(repo: string, doc: string, values: number[]): void {
  for (const value of values) {
    const r = patchDocument(join(repo, doc), [{ op: "update_attribute", id: "c1", key: "confidence", value }], {
      actor: { kind: "agent", name: "test" },
      now: new Date("2026-01-02T00:00:00Z"),
    });
    if (r.outcome.result !== "applied") throw new Error(`patch not applied: ${JSON.stringify(r.outcome.error)}`);
  }
}

/** Replace the first occurrence of `from` on 1-based `line` of a file. */
export function editLine(repo: string, file: string, line: number, from: string, to: string): void {
  const path = join(repo, file);
  const lines = readFileSync(path, "utf8").split("\n");
  if (!lines[line - 1]!.includes(from)) throw new Error(`line ${line} of ${file} has no ${from}`);
  lines[line - 1] = lines[line - 1]!.replace(from, to);
  writeFileSync(path, lines.join("\n"));
}
