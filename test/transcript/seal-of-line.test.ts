/**
 * The seal taken from a line's text (seal-of-line.ts) equals the seal taken from its record
 * (`expectedSeal`: copy, delete `entry_sha256`, serialise) for every line: the lines the writer
 * writes (chainLines), the same records written by hand with spaces, other escapes, keys
 * repeated, `entry_sha256` moved, nested or not a sha256, and arbitrary JSON objects.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sealOfLine } from "../../src/transcript/seal-of-line.js";
import { chainLines, expectedSeal } from "../../src/transcript/transcript-record.js";

const hex64 = fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF".split("")), minLength: 64, maxLength: 64 });
const json = fc.jsonValue({ maxDepth: 3 });
const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom("entry_sha256", "__proto__", "toJSON", "1", "0", "op"));
const object = fc.dictionary(key, json, { maxKeys: 8 });

function both(line: string): void {
  const record = JSON.parse(line) as Record<string, unknown>;
  expect(sealOfLine(line, record)).toBe(expectedSeal(record));
  expect(sealOfLine(`${line}\n`, record)).toBe(expectedSeal(record));
}

describe("sealOfLine", () => {
  it("equals expectedSeal on the lines the writer writes", () => {
    fc.assert(
      fc.property(fc.array(object, { minLength: 1, maxLength: 4 }), (records) => {
        for (const line of chainLines(records, null)) {
          const record = JSON.parse(line) as Record<string, unknown>;
          expect(sealOfLine(line, record)).toBe(expectedSeal(record));
          expect(record["entry_sha256"]).toBe(expectedSeal(record));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("equals expectedSeal on any object with entry_sha256 written last, first or twice", () => {
    fc.assert(
      fc.property(object, hex64, fc.constantFrom("last", "first", "twice", "nested", "spaced"), (o, seal, how) => {
        const rest = JSON.stringify(o).slice(1, -1);
        const sealText = `"entry_sha256":${JSON.stringify(seal)}`;
        const sep = rest.length > 0 ? "," : "";
        const line =
          how === "last"
            ? `{${rest}${sep}${sealText}}`
            : how === "first"
              ? `{${sealText}${sep}${rest}}`
              : how === "twice"
                ? `{${sealText}${sep}${rest},${sealText}}`
                : how === "nested"
                  ? `{${rest}${sep}"op":{${sealText}}}`
                  : `{ ${rest}${sep} ${sealText} }`;
        both(line);
      }),
      { numRuns: 500 },
    );
  });

  it("equals expectedSeal on any JSON object, and on escapes JSON.stringify does not write", () => {
    fc.assert(
      fc.property(object, (o) => both(JSON.stringify(o))),
      { numRuns: 300 },
    );
    const seal = "a".repeat(64);
    for (const line of [
      `{"a":"\\u0041","entry_sha256":"${seal}"}`,
      `{"a":"\\/","entry_sha256":"${seal}"}`,
      `{"a":1.0,"entry_sha256":"${seal}"}`,
      `{"a":1e2,"entry_sha256":"${seal}"}`,
      `{"entry_sha256":"${seal}"}`,
      `{"2":1,"1":2,"entry_sha256":"${seal}"}`,
      `{"a":"x\\",\\"entry_sha256\\":\\"${seal}"}`,
    ])
      both(line);
  });
});
