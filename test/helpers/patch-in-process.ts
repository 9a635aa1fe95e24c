/**
 * What `patch FILE --op OP` (exit 0, the ops applied) does, in process: for the patches that only
 * prepare the state another command is then run on (issue 38: a CLI process costs 0.1–0.3 s of
 * CPU; the patch engine in process a few ms). The actor as the CLI makes it: kind human, named
 * by --actor-name, else git's user.name ("Test" in the repositories of temp-repo.ts). Tests whose
 * subject is `patch` itself spawn it.
 */
import { join } from "node:path";
import { expect } from "vitest";
import { patchDocument } from "../../src/editing/patch-document.js";

export function patchInProcess(repo: string, file: string, ops: unknown, name = "Test"): void {
  const r = patchDocument(join(repo, file), Array.isArray(ops) ? ops : [ops], { actor: { kind: "human", name }, root: repo, reuse: false });
  expect(r.outcome.result, JSON.stringify(r.outcome)).toBe("applied");
}
