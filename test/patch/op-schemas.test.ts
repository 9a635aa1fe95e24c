/**
 * The op schemas are built on first read (patch-op-schema.ts): the library's OP_SCHEMAS still
 * reads as a plain record of the 25 ops (keys, values, one instance per op), `isOpName` knows
 * exactly those names (not inherited ones), and PatchOpSchema is their union.
 */
import { describe, expect, it } from "vitest";
import { OP_NAMES, OP_SCHEMAS, PatchOpSchema } from "../../src/internal.js";
import { isOpName } from "../../src/patch/patch-op-schema.js";

describe("the patch op schemas", () => {
  it("read as a record of the 25 ops, each built once", () => {
    expect(OP_NAMES).toHaveLength(25);
    expect(Object.keys(OP_SCHEMAS)).toEqual(OP_NAMES);
    expect(Object.values(OP_SCHEMAS)).toHaveLength(25);
    for (const name of OP_NAMES) {
      expect(name in OP_SCHEMAS).toBe(true);
      expect(OP_SCHEMAS[name]).toBe(OP_SCHEMAS[name]);
      expect(OP_SCHEMAS[name].safeParse({ op: name }).success).toBe(false); // every op needs more than its name
    }
    // No field beyond the op's own: an op is never applied with a field left out (issue 38).
    expect(OP_SCHEMAS.update_attribute.safeParse({ op: "update_attribute", id: "c1", key: "confidence", value: 0.5, extra: 1 }).success).toBe(false);
    expect(OP_SCHEMAS.update_attribute.safeParse({ op: "update_attribute", id: "", key: "confidence", value: 0.5 }).success).toBe(false);
  });

  it("know only the 25 names", () => {
    for (const name of OP_NAMES) expect(isOpName(name)).toBe(true);
    for (const name of ["constructor", "__proto__", "toString", "hasOwnProperty", "Update_attribute", "", 3, null]) expect(isOpName(name)).toBe(false);
  });

  it("union in PatchOpSchema", () => {
    expect(PatchOpSchema.safeParse({ op: "rename_id", from: "a", to: "b" }).success).toBe(true);
    expect(PatchOpSchema.safeParse({ op: "rename_id", from: "a" }).success).toBe(false);
    expect(PatchOpSchema.safeParse({ op: "no_such_op", id: "a" }).success).toBe(false);
  });
});
