/**
 * The stdio line framer: however a byte stream is chunked (even inside UTF-8
 * characters), it yields the same lines; CRLF, blank lines, a byte-order mark
 * and a last line without newline are handled.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineFramer } from "../../src/mcp/line-framer.js";

function frame(chunks: Uint8Array[]): string[] {
  const f = new LineFramer();
  const out: string[] = [];
  for (const c of chunks) out.push(...f.push(c));
  out.push(...f.end());
  return out;
}

/** Split `bytes` at the given cut points. */
function chunk(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of points) {
    out.push(bytes.subarray(prev, p));
    prev = p;
  }
  out.push(bytes.subarray(prev));
  return out;
}

const message = fc.jsonValue().map((v) => JSON.stringify({ jsonrpc: "2.0", id: 1, params: v }));

describe("LineFramer", () => {
  it("yields the messages, whatever the chunking, line ending and final newline (property)", () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 20 }),
        (messages, crlf, finalNewline, cuts) => {
          const eol = crlf ? "\r\n" : "\n";
          const text = messages.join(eol) + (finalNewline && messages.length > 0 ? eol : "");
          const bytes = Buffer.from(text, "utf8");
          expect(frame(chunk(bytes, cuts))).toEqual(messages);
          expect(frame([bytes])).toEqual(messages);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives identical lines for one chunk and for byte-by-byte delivery of arbitrary text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 200 }), (s) => {
        const bytes = Buffer.from(s, "utf8");
        const single = frame([bytes]);
        const bytewise = frame([...bytes].map((b) => Uint8Array.of(b)));
        expect(bytewise).toEqual(single);
        for (const line of single) {
          expect(line.includes("\n")).toBe(false);
          expect(line.endsWith("\r")).toBe(false);
          expect(line.trim().length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("skips blank lines, strips a leading byte-order mark, keeps the last line without newline", () => {
    expect(frame([Buffer.from('\uFEFF{"a":1}\n\n  \r\n{"b":2}\r\n{"c":3}')])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
    expect(frame([])).toEqual([]);
    expect(frame([Buffer.from("\n\n\r\n")])).toEqual([]);
  });

  it("does not keep a reference to the caller's buffer", () => {
    const f = new LineFramer();
    const buf = Buffer.from('{"a":');
    expect(f.push(buf)).toEqual([]);
    buf.fill(0x20);
    expect(f.push(Buffer.from("1}\n"))).toEqual(['{"a":1}']);
    expect(f.bufferedBytes).toBe(0);
  });
});
