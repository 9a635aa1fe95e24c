/**
 * One op through the patch engine, checked both ways the engine can run it:
 * reusing the parsed tree (the default) and re-parsing from text
 * (`reuse: false`). Both must agree, and an applied result must parse clean.
 */
import { expect } from "vitest";
import { parseNoma } from "../../src/internal.js";
import { applyPatch } from "../../src/patch/apply-patch.js";

/** Apply `op` to `src`; the result text (fails the test when the op is refused). */
export function applyOk(src: string, op: unknown): string {
  const out = applyPatch(src, [op]);
  if (out.error !== undefined) throw new Error(`expected success, got ${out.error.code}: ${out.error.message}`);
  expect(parseNoma(out.text).problems).toEqual([]);
  expect(applyPatch(src, [op], { reuse: false }).text).toBe(out.text);
  return out.text;
}

/** Apply `op` to `src` expecting a refusal that leaves the text as it was; the error code. */
export function applyRejected(src: string, op: unknown): string {
  const out = applyPatch(src, [op]);
  expect(out.result).toBe("rejected");
  expect(out.text).toBe(src);
  expect(applyPatch(src, [op], { reuse: false }).error?.code).toBe(out.error!.code);
  return out.error!.code;
}
