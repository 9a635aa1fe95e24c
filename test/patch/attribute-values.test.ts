/**
 * What an op writes as an attribute value (§B's value rule; issue 15 item 5, revised by
 * issue 27 to write what the reference writes). Attribute grammar (§B): `key`,
 * `key=value` (up to whitespace), `key="…"`, `key='…'`, no escapes; every value is coerced.
 * - Strings are `key="…"`, or `key='…'` when they contain `"`. A line break is
 *   invalid_content everywhere. Both quote kinds: invalid_content when an existing opening
 *   line is edited (update_attribute, §B's attribute writes); a generated block
 *   (add_comment, add_change_request, …) writes `key='…'`, as the reference does — such a
 *   value does not read back whole, but it may not change the block's id or target.
 * - Numbers are written in JS form (`1e+21`, `1e-7`), as the reference writes them: a
 *   value whose JS form is not `-?\d+(\.\d+)?` reads back as that text.
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
  if (typeof value === "number") return coerceAttrValue(String(value));
  return typeof value === "string" ? coerceAttrValue(value) : value;
}

const bothQuotes = (value: AttrValue): boolean => typeof value === "string" && value.includes('"') && value.includes("'");

/** Whether update_attribute refuses `value` (the only values it may refuse). */
function unwritable(value: AttrValue): boolean {
  if (typeof value === "number") return !Number.isFinite(value);
  if (typeof value !== "string") return false;
  return /[\r\n]/.test(value) || bothQuotes(value);
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

  it("generated blocks (add_comment, add_change_request) carry such values too; both quote kinds are written '…'", () => {
    fc.assert(
      fc.property(stringArb, (value) => {
        const out = applyPatch(DOC, [
          { op: "add_comment", id: "cm", target: "c1", author: value, content: "Note." },
          { op: "add_change_request", id: "cr", target: "c1", action: "replace", from: value, to: "y" },
        ]);
        if (out.result === "rejected") {
          expect(out.error!.code).toBe("invalid_content");
          expect(/[\r\n]/.test(value) || bothQuotes(value), `refused ${JSON.stringify(value)}`).toBe(true);
          return;
        }
        expect(/[\r\n]/.test(value)).toBe(false);
        const doc = parseNoma(out.text);
        const cm = doc.nodeById.get("cm") as DirectiveNode;
        const cr = doc.nodeById.get("cr") as DirectiveNode;
        // Identity and target hold whatever the value.
        expect(getAttr(cm.attrs, "parent")).toBe("c1");
        expect(getAttr(cr.attrs, "target")).toBe("c1");
        if (bothQuotes(value)) {
          expect(out.text).toContain(` author='${value}'`);
          expect(out.text).toContain(` from='${value}' to="y"}`);
          return;
        }
        expect(getAttr(cm.attrs, "author")).toEqual(expected(value));
        expect(getAttr(cr.attrs, "from")).toEqual(expected(value));
      }),
      { numRuns: 300 },
    );
  });

  it("both quote kinds: update_attribute refuses them, a generated block writes them '…' unless they would change its id or target", () => {
    const refused = applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "note", value: `it's"x"` }]);
    expect(refused.error?.code).toBe("invalid_content");
    expect(refused.error?.message).toMatch(/both ' and "/);
    expect(applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "note", value: `it's "x"` }]).error?.code).toBe("invalid_content");
    expect(applyPatch(DOC, [{ op: "add_change_request", id: "cr", target: "c1", action: "replace", from: `it's "x"`, to: "y" }]).text).toBe(
      `${DOC}\n::change_request{id="cr" target="c1" action="replace" from='it's "x"' to="y"}\n::\n`,
    );
    // The value's quote would end early and its rest read as target=: refused.
    const hijack = applyPatch(DOC, [{ op: "add_change_request", id: "cr", target: "c1", action: "replace", from: `a' target='zz" `, to: "y" }]);
    expect(hijack.error?.code).toBe("invalid_content");
  });

  it("numbers are written in JS form", () => {
    expect(applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "n", value: 1e21 }]).text).toContain(" n=1e+21}");
    expect(applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "n", value: 1e-7 }]).text).toContain(" n=1e-7}");
    expect(applyPatch(DOC, [{ op: "update_attribute", id: "c1", key: "n", value: 0.30000000000000004 }]).text).toContain(" n=0.30000000000000004}");
    // Written again, the same token: a noop.
    expect(applyPatch('::claim{id="c1" n=1e+21}\n::\n', [{ op: "update_attribute", id: "c1", key: "n", value: 1e21 }]).result).toBe("noop");
  });
});
