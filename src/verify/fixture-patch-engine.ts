/**
 * The patch engine as the conformance harness sees it: apply the op list to a
 * text, or report the PatchError code that rejected it.
 */
import { applyPatch } from "../patch/apply-patch.js";
import type { FixturePatchEngine } from "./evaluate-fixture.js";

export const fixturePatchEngine: FixturePatchEngine = (input, ops) => {
  const outcome = applyPatch(input, ops);
  if (outcome.error !== undefined) return { ok: false, code: outcome.error.code, message: outcome.error.message };
  return { ok: true, output: outcome.text };
};
