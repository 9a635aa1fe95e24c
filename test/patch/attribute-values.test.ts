/**
 * Issue 15 item 5: what an op writes as an attribute value reads back as the same value.
 * Attribute grammar (§B): `key`, `key=value` (up to whitespace), `key="…"`, `key='…'`, no
 * escapes; every value is coerced. So a string holding both quote kinds is written
 * unquoted when it has no whitespace and does not start with a quote; otherwise no single
 * token can carry it and the op is invalid_content. Numbers are written in plain decimal
 * (an exponent form would read back as a string).
 *
 * "The same value" is the value the written text has in any document: a string that reads
 * as a number or a boolean (`"42"`, `"true"`) becomes one, for every writer alike.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch } from "../../src/patch/apply-patch.js";
import { parseNoma } from "../../src/internal.js";
import { coerceAttrValue, getAttr } from "../../src/noma/attributes.js";
import type { AttrValue, DirectiveNode } from "../../src/noma/ast.js";

const DOC = '::claim{id="c1" confidence=0.5 note="x"}\nBody.\n::\n';

function expected(value: AttrValue): AttrValue {
  return typeof value === "string" ? coerceAttrValue(value) : value;
}

/** Whether no single attribute token can carry `value` (the only values an op may refuse). */
function unwritable(value: AttrValue): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "string") return false;
  if (/[\r\n]/.test(value)) return true;
  return value.includes('"') && value.includes("'") && (/[ \t]/.test(value) || value.startsWith('"') || value.startsWith("'"));
}

const stringArb = fc.oneof(
  fc.string({ unit: fc.constantFrom("a", "b", " ", "\t", '"', "'", "{", "}", "=", "\\", "-", "1", ".", "é", "😀", ":", "[", "]", "|"), maxLength: 12 }),
  fc.string({ maxLength: 10 }),
  fc.constantFrom(`it's "fine"`, `a"b'c`, `"a'b`, `'a"b`, `x"y'z}`, `{a"b'}`, "true", "42", "-1.5", "1e5", ""),
);
const valueArb: fc.Arbitrary<AttrValue> = fc.oneof(
  stringArb,
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: false }),
  fc.constantFrom(1e21, 1e-7, -0, 5e-324, Number.MAX_VALUE, 123456789012345680000, 0.1 + 0.2),
);

describe("attribute values read back", () => {
  it("update_attribute: every accepted value reads back; only unwritable values are refused", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.constantFrom("note", "fresh"), valueArb, (key, value) => {
        const out = applyPatch(DOC, [{ op: "update_attribute", id: "c1", key, value }]);
        if (out.result === "rejected") {
          expect(out.error!.code).toBe("invalid_content");
          expect(unwritable(value), `refused ${JSON.stringify(value)}`).toBe(true);
          return;
        }
        expect(unwritable(value), `wrote ${JSON.stringify(value)}`).toBe(false);
        accepted++;
        const doc = parseNoma(out.text);
        expect(doc.problems).toEqual([]);
        const node = doc.nodeById.get("c1") as DirectiveNode;
        expect(getAttr(node.attrs, key)).toEqual(expected(value));
        // The other attributes and the body are untouched.
        expect(getAttr(node.attrs, "confidence")).toBe(0.5);
        expect(node.body).toBe("Body.");
      }),
      { numRuns: 600 },
    );
    expect(accepted).toBeGreaterThan(300);
  });

  it("generated blocks (add_comment, add_change_request) carry such values too", () => {
    fc.assert(
      fc.property(stringArb, (value) => {
        const out = applyPatch(DOC, [
          { op: "add_comment", id: "cm", target: "c1", author: value, content: "Note." },
          { op: "add_change_request", id: "cr", target: "c1", action: "replace", from: value, to: "y" },
        ]);
        if (out.result === "rejected") {
          expect(out.error!.code).toBe("invalid_content");
          expect(unwritable(value)).toBe(true);
          return;
        }
        const doc = parseNoma(out.text);
        expect(getAttr((doc.nodeById.get("cm") as DirectiveNode).attrs, "author")).toEqual(expected(value));
        expect(getAttr((doc.nodeById.get("cr") as DirectiveNode).attrs, "from")).toEqual(expected(value));
      }),
      { numRuns: 300 },
    );
  });

  it("both quote kinds without whitespace are written unquoted; with whitespace they are refused", () => {
    const out = applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "note", value: `it's"x"` }]);
    expect(out.text).toBe(`::claim{id="c1" confidence=0.5 note=it's"x"}\nBody.\n::\n`);
    const refused = applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "note", value: `it's "x"` }]);
    expect(refused.error?.code).toBe("invalid_content");
    expect(refused.error?.message).toMatch(/both ' and "/);
  });

  it("numbers are written in plain decimal", () => {
    expect(applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "n", value: 1e21 }]).text).toContain(" n=1000000000000000000000}");
    expect(applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "n", value: 1e-7 }]).text).toContain(" n=0.0000001}");
  });
});
