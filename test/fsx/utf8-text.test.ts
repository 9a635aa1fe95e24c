/**
 * The text test every reader applies (src/fsx/utf8-text.ts): bytes are text when they are
 * UTF-8 and hold no NUL; otherwise the first byte that is not is named. Property tests against
 * Node's own UTF-8 validation and decoder, and the strings JSON can spell that UTF-8 cannot hold.
 */
import { isUtf8 } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeText,
  describeNonText,
  firstInvalidUtf8,
  firstNonTextByte,
  illFormedString,
  loneSurrogateAt,
  NotUtf8TextError,
  textPosition,
  utf8SequenceLength,
} from "../../src/fsx/utf8-text.js";

const lossy = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** Bytes that are mostly UTF-8 with some damage: the interesting inputs. */
const damaged = fc
  .array(
    fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 8 }).map((s) => Buffer.from(s, "utf8")),
      fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => Buffer.from(a)),
      fc.constantFrom(Buffer.of(0xff, 0xfe), Buffer.of(0xed, 0xa0, 0x80), Buffer.of(0xc0, 0xaf), Buffer.of(0xf4, 0x90, 0x80, 0x80), Buffer.of(0xe2, 0x82)),
    ),
    { maxLength: 12 },
  )
  .map((parts) => Buffer.concat(parts));

describe("firstNonTextByte", () => {
  it("is -1 exactly when the bytes are UTF-8 without a NUL (as Node's isUtf8 decides)", () => {
    fc.assert(
      fc.property(damaged, (b) => {
        expect(firstNonTextByte(b) === -1).toBe(isUtf8(b) && !b.includes(0));
        expect(firstInvalidUtf8(b) === -1).toBe(isUtf8(b));
      }),
      { numRuns: 2000 },
    );
  });

  it("names the byte where a decoder puts its first U+FFFD (or the first NUL, if earlier)", () => {
    fc.assert(
      fc.property(damaged, (b) => {
        const at = firstInvalidUtf8(b);
        if (at === -1) return;
        expect(isUtf8(b.subarray(0, at))).toBe(true); // everything before it is text
        expect(lossy.decode(b.subarray(at)).startsWith("\ufffd")).toBe(true); // a decoder replaces what starts there
        const nul = b.indexOf(0);
        expect(firstNonTextByte(b)).toBe(nul !== -1 && nul < at ? nul : at);
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with a byte-at-a-time reading of RFC 3629 on any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (a) => {
        const b = Buffer.from(a);
        let i = 0;
        while (i < b.length && utf8SequenceLength(b, i) > 0) i += utf8SequenceLength(b, i);
        expect(firstInvalidUtf8(b)).toBe(i === b.length ? -1 : i);
      }),
      { numRuns: 2000 },
    );
  });

  it("the issue's inputs: a UTF-16 byte-order mark, overlong forms, surrogates, a cut sequence, a NUL", () => {
    expect(firstNonTextByte(Buffer.from("\xff\xfe# T\n", "latin1"))).toBe(0);
    expect(firstNonTextByte(Buffer.from("# A\n\xc0\xaf", "latin1"))).toBe(4);
    expect(firstNonTextByte(Buffer.from("ok \xed\xa0\x80", "latin1"))).toBe(3);
    expect(firstNonTextByte(Buffer.from("ok \xe2\x82", "latin1"))).toBe(3);
    expect(firstNonTextByte(Buffer.from("a\0b"))).toBe(1);
    expect(firstNonTextByte(Buffer.from("\ufeff# Café ✓ 😀\n"))).toBe(-1); // a UTF-8 BOM is text
  });
});

describe("describeNonText and decodeText", () => {
  it("names the byte and its offset, and how to convert UTF-16 and UTF-32", () => {
    const le = Buffer.from("\xff\xfe#\0 \0", "latin1");
    expect(describeNonText(le, 0)).toBe(
      "not UTF-8 text: byte 0xFF at offset 0 is not valid UTF-8 (the file starts with a UTF-16LE byte-order mark; Noma files are UTF-8: convert it, e.g. iconv -f UTF-16LE -t UTF-8)",
    );
    expect(describeNonText(Buffer.from("\xfe\xff\0#", "latin1"), 0)).toContain("UTF-16BE byte-order mark");
    expect(describeNonText(Buffer.from("\xff\xfe\0\0#\0\0\0", "latin1"), 0)).toContain("iconv -f UTF-32LE -t UTF-8");
    expect(describeNonText(Buffer.from("ab\0", "latin1"), 2)).toBe("not UTF-8 text: byte 0x00 (NUL) at offset 2");
  });

  it("decodeText returns the text, or throws naming the file, the byte, its line and column", () => {
    expect(decodeText(Buffer.from("# Café\n"), "a.noma")).toBe("# Café\n");
    let thrown: unknown;
    try {
      decodeText(Buffer.concat([Buffer.from("# Café\nline two "), Buffer.of(0xff)]), "docs/a.noma");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(NotUtf8TextError);
    const e = thrown as NotUtf8TextError;
    expect(e.code).toBe("not-utf8-text");
    expect(e.offset).toBe(17);
    expect(e.position).toEqual({ line: 2, column: 10 });
    expect(e.message).toBe("docs/a.noma: not UTF-8 text: byte 0xFF at offset 17 is not valid UTF-8");
  });

  it("textPosition counts lines as the parser does (LF, CRLF and CR) and columns in characters", () => {
    expect(textPosition(Buffer.from("a\r\nb\rc\nd€x"), 11)).toEqual({ line: 4, column: 3 });
  });
});

describe("illFormedString", () => {
  it("finds a lone surrogate in any value or key, with its path; well-formed strings pass", () => {
    expect(illFormedString({ op: "add_block", content: "::note\nA\ud800\n::" }, "op")).toEqual({
      at: "op.content",
      message: "op.content: a lone surrogate (\\ud800 at character 8) is not text UTF-8 can encode; it would be written as U+FFFD",
    });
    expect(illFormedString({ a: [1, { b: ["x", "\udc00"] }] })?.at).toBe("arguments.a[1].b[1]");
    expect(illFormedString({ ["k\ud83d"]: 1 })?.message).toContain("a key of arguments");
    expect(illFormedString({ emoji: "😀", text: "ok" })).toBeNull();
  });

  it("agrees with String.prototype.isWellFormed on any string", () => {
    const wellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();
    fc.assert(
      fc.property(
        fc
          .array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd7f0, max: 0xe010 })), { maxLength: 12 })
          .map((u) => String.fromCharCode(...u)),
        (s) => {
          expect(loneSurrogateAt(s) === -1).toBe(wellFormed(s));
          expect(illFormedString([s]) === null).toBe(wellFormed(s));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
