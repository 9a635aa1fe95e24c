/**
 * The open-drift count after a FAIL (open-drift.ts) takes the built-in check's own drift answers
 * (BuiltinCheckResult.drift) instead of asking the same question of the same work tree again. Equivalence: for
 * generated work trees (the governed file changed, deleted or untouched, a new untracked file, the spec itself
 * changed, a second spec, an invalid spec beside them), acknowledgements (at the file's hash, at another, for a
 * deleted file) and criteria (with or without a test command), the count from the check's answers is the count
 * asking the question again of the same tree (what the loop did before), with the same warnings in the same order.
 */
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { expect, it } from "vitest";
import { type Acknowledgement, builtinCheck } from "../../src/runs/agents/builtin-check.js";
import { openDriftCount } from "../../src/runs/open-drift.js";
import { hashPaths } from "../../src/runs/pending-drift.js";
import { generateCriteria } from "../../src/runs/run-criteria.js";
import { copyTree } from "../helpers/repo-templates.js";
import { git, tempDir } from "../helpers/temp-repo.js";
import { runRepoAsync, SPEC, SPEC_TEXT } from "./helpers/run-repo.js";

const DOCS_SPEC = ".notarai/docs.spec.yaml";
const DOCS_SPEC_TEXT = `schema_version: "0.7"
intent: "The guide."
behaviors:
  - name: guides
    given: "a reader"
    then: "it explains the app"
artifacts:
  docs:
    - path: "docs/**"
`;

const state = fc.record({
  app: fc.constantFrom("same", "changed", "deleted"),
  newFile: fc.boolean(),
  specChanged: fc.boolean(),
  invalidSpec: fc.boolean(),
  twoSpecs: fc.boolean(),
  tests: fc.boolean(),
  /** Per candidate path: no acknowledgement, at its current hash, at another hash, with a null hash. */
  acks: fc.array(fc.constantFrom("none", "current", "other", "null"), { minLength: 4, maxLength: 4 }),
});

it("the count from the check's answers equals the count asking again: same number, same warnings", async () => {
  const base = await runRepoAsync({ drift: { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" } });
  await fc.assert(
    fc.asyncProperty(state, async (s) => {
      const root = tempDir("nr-open-drift-");
      copyTree(base, root);
      const specs = s.twoSpecs ? [SPEC, DOCS_SPEC] : [SPEC];
      if (s.twoSpecs) {
        writeFileSync(join(root, DOCS_SPEC), DOCS_SPEC_TEXT);
        git(root, ["add", DOCS_SPEC]);
        git(root, ["commit", "-qm", "docs spec"]);
      }
      const head = git(root, ["rev-parse", "HEAD"]).trim();
      if (s.app === "changed") writeFileSync(join(root, "src/app.ts"), "export const greet = (n: string) => `yo ${n}`;\n");
      if (s.app === "deleted") rmSync(join(root, "src/app.ts"));
      if (s.newFile) writeFileSync(join(root, "src/new.ts"), "export const n = 1;\n");
      if (s.specChanged) writeFileSync(join(root, SPEC), `${SPEC_TEXT}# changed\n`);
      if (s.invalidSpec) writeFileSync(join(root, ".notarai/bad.spec.yaml"), "schema_version: [\n");
      // Acknowledgements: at the file's current BLAKE3 (what the check will see), at another hash, or null.
      const candidates = ["src/app.ts", "src/new.ts", SPEC, "docs/guide.noma"];
      const current = await hashPaths(root, candidates);
      const acks: Acknowledgement[] = [];
      candidates.forEach((path, i) => {
        const a = s.acks[i]!;
        if (a === "none") return;
        const hash = a === "current" ? (current.get(path) ?? null) : a === "other" ? "0".repeat(64) : null;
        acks.push({ spec: SPEC, path, hash, step: 1 });
      });
      const r = await builtinCheck({
        root,
        stepDir: tempDir("nr-step-"),
        criteria: generateCriteria(specs, s.tests ? ["true"] : null),
        acks,
        startHead: head,
        specs,
        testTimeoutMs: 30_000,
        env: { ...process.env },
      });
      // What may be reused: nothing after a test command; nothing asked with a warning (the invalid spec warns).
      if (s.tests || s.invalidSpec) expect(r.drift.size).toBe(0);
      else expect([...r.drift.keys()].sort()).toEqual([...specs].sort());
      // The loop's count now (the check's answers), then the question asked again of the same tree (the count before).
      const count = async (known: typeof r.drift | null) => {
        const warnings: string[] = [];
        const n = await openDriftCount({ workspace: root, specs, acks, onWarning: (m: string) => warnings.push(m) }, known);
        return { n, warnings };
      };
      expect(await count(r.drift)).toEqual(await count(null));
    }),
    { numRuns: 8 },
  );
});
