/**
 * The patch engine as the conformance harness sees it: apply the op list to a
 * text, or report the PatchError code that rejected it, with per-op outcomes.
 */
import { applyPatch } from "../patch/apply-patch.js";
import type { FixturePatchEngine } from "./evaluate-fixture.js";

export const fixturePatchEngine: FixturePatchEngine = (input, ops, options = {}) => {
  const outcome = applyPatch(input, ops, {
    ...(options.strict !== undefined ? { strict: options.strict } : {}),
    ...(options.expected_sha !== undefined ? { expectedSha: options.expected_sha } : {}),
    ...(options.base_sha256 !== undefined ? { baseSha256: options.base_sha256 } : {}),
  });
  const outcomes = outcome.ops.map((o) => (o.error !== undefined ? { patch_result: o.result, code: o.error.code } : { patch_result: o.result }));
  if (outcome.error !== undefined) return { ok: false, code: outcome.error.code, message: outcome.error.message, outcomes };
  return { ok: true, output: outcome.text, outcomes };
};
