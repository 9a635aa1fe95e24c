/**
 * findingChanges: what `check --watch` prints between two runs. Examples, and properties
 * (fast-check): nothing changes between a run and itself nor when findings only move; the new
 * and fixed findings account exactly for the difference in counts per file and finding.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findingChanges } from "../../src/check/finding-changes.js";
import type { FileDiagnostics } from "../../src/report/file-diagnostics.js";
import type { Diagnostic } from "../../src/validate/diagnostic.js";

const d = (code: string, line: number, message = `m-${code}`): Diagnostic => ({ severity: "error", code, message, pos: { line, column: 1 } });

describe("findingChanges", () => {
  it("names per file the new findings and the fixed ones, files sorted", () => {
    const before: FileDiagnostics[] = [
      { file: "b.noma", diagnostics: [d("x", 3), d("y", 5)] },
      { file: "a.noma", diagnostics: [] },
    ];
    const after: FileDiagnostics[] = [
      { file: "a.noma", diagnostics: [d("z", 1)] },
      { file: "b.noma", diagnostics: [d("y", 9)] },
    ];
    expect(findingChanges(before, after)).toEqual([
      { file: "a.noma", added: [d("z", 1)], fixed: [] },
      { file: "b.noma", added: [], fixed: [d("x", 3)] },
    ]);
  });

  it("matches equal findings as a multiset, and a file gone takes its findings with it", () => {
    const before: FileDiagnostics[] = [
      { file: "a.noma", diagnostics: [d("x", 1), d("x", 2)] },
      { file: "gone.noma", diagnostics: [d("y", 1)] },
    ];
    const after: FileDiagnostics[] = [{ file: "a.noma", diagnostics: [d("x", 7)] }];
    expect(findingChanges(before, after)).toEqual([
      { file: "a.noma", added: [], fixed: [d("x", 2)] },
      { file: "gone.noma", added: [], fixed: [d("y", 1)] },
    ]);
  });

  it("a message or severity that changes is a fixed finding and a new one", () => {
    const warn: Diagnostic = { ...d("x", 1), severity: "warning" };
    expect(findingChanges([{ file: "a", diagnostics: [d("x", 1)] }], [{ file: "a", diagnostics: [warn] }])).toEqual([
      { file: "a", added: [warn], fixed: [d("x", 1)] },
    ]);
  });

  const finding = fc.record({ code: fc.constantFrom("a", "b", "c"), line: fc.integer({ min: 1, max: 50 }) }).map((f) => d(f.code, f.line));
  const run = fc
    .dictionary(fc.constantFrom("p.noma", "q.noma", "r.noma"), fc.array(finding, { maxLength: 6 }))
    .map((m) => Object.entries(m).map(([file, diagnostics]) => ({ file, diagnostics })));
  const count = (files: readonly FileDiagnostics[], file: string, code: string): number =>
    files.filter((f) => f.file === file).flatMap((f) => f.diagnostics.filter((x) => x.code === code)).length;

  it("property: new minus fixed is the change in count of every finding in every file; a run against itself or moved findings: nothing", () => {
    fc.assert(
      fc.property(run, run, (before, after) => {
        const changes = findingChanges(before, after);
        for (const file of ["p.noma", "q.noma", "r.noma"])
          for (const code of ["a", "b", "c"]) {
            const c = changes.find((x) => x.file === file);
            const added = c?.added.filter((x) => x.code === code).length ?? 0;
            const fixed = c?.fixed.filter((x) => x.code === code).length ?? 0;
            expect(added === 0 || fixed === 0).toBe(true);
            expect(added - fixed).toBe(count(after, file, code) - count(before, file, code));
          }
        expect(findingChanges(before, before)).toEqual([]);
        const moved = before.map((f) => ({ file: f.file, diagnostics: f.diagnostics.map((x) => ({ ...x, pos: { line: x.pos!.line + 3, column: 2 } })) }));
        expect(findingChanges(before, moved)).toEqual([]);
      }),
    );
  });
});
