/**
 * The stdio line framer: however a byte stream is chunked (even inside UTF-8
 * characters), it yields the same lines; CRLF, blank lines, a byte-order mark
 * and a last line without newline are handled.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestIdFromHead } from "../../src/mcp/json-rpc.js";
import { type Frame, LineFramer } from "../../src/mcp/line-framer.js";

const lineOf = (f: Frame): string => {
  if (!("line" in f)) throw new Error("an oversized frame where none was expected");
  return f.line;
};

function frame(chunks: Uint8Array[]): string[] {
  const f = new LineFramer();
  const out: string[] = [];
  for (const c of chunks) out.push(...f.push(c).map(lineOf));
  out.push(...f.end().map(lineOf));
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
    expect(f.push(Buffer.from("1}\n"))).toEqual([{ line: '{"a":1}' }]);
    expect(f.bufferedBytes).toBe(0);
  });

  it("a line over the limit comes out as one oversized frame (its byte count, its first bytes), whatever the chunking; the others as lines (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom("a", "é", "{", "\r", "x"), minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 20 }),
        (lines, max, finalNewline, cuts) => {
          const bytes = Buffer.from(lines.join("\n") + (finalNewline ? "\n" : ""), "utf8");
          const f = new LineFramer(max);
          const out: Frame[] = [];
          let peak = 0;
          for (const c of chunk(bytes, cuts)) {
            out.push(...f.push(c));
            peak = Math.max(peak, f.bufferedBytes);
          }
          out.push(...f.end());
          const want = lines.flatMap((l): Frame[] => {
            const b = Buffer.from(l, "utf8");
            if (b.length > max) return [{ tooLarge: { bytes: b.length, head: new TextDecoder().decode(b.subarray(0, 4096)) } }];
            const text = l.endsWith("\r") ? l.slice(0, -1) : l;
            return text.trim().length === 0 ? [] : [{ line: text }];
          });
          expect(out).toEqual(want);
          expect(peak).toBeLessThanOrEqual(max + 4096);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("an oversized line is dropped as it arrives: 64 MiB in 64 KiB chunks holds at most the limit plus 4 KiB", () => {
    const f = new LineFramer(1024 * 1024);
    const piece = Buffer.alloc(64 * 1024, 0x61);
    const head = Buffer.from('{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"patch_block","arguments":{"content":"');
    let peak = 0;
    expect(f.push(head)).toEqual([]);
    for (let k = 0; k < 1024; k++) {
      expect(f.push(piece)).toEqual([]);
      peak = Math.max(peak, f.bufferedBytes);
    }
    const out = f.push('"}}}\n{"jsonrpc":"2.0","id":43,"method":"ping"}\n');
    expect(peak).toBeLessThanOrEqual(1024 * 1024 + 4096);
    expect(out).toHaveLength(2);
    const big = out[0] as { tooLarge: { bytes: number; head: string } };
    expect(big.tooLarge.bytes).toBe(head.length + 64 * 1024 * 1024 + 4);
    expect(requestIdFromHead(big.tooLarge.head)).toBe(42);
    expect(out[1]).toEqual({ line: '{"jsonrpc":"2.0","id":43,"method":"ping"}' });
  });

  it("requestIdFromHead finds the id before the params, whatever follows (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.string({ maxLength: 20 })), fc.jsonValue(), fc.nat(), (id, params, cut) => {
        const text = JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { v: params } });
        const idEnd = text.indexOf(',"method"');
        const head = text.slice(0, idEnd + 1 + (cut % (text.length - idEnd)));
        expect(requestIdFromHead(head)).toEqual(id);
      }),
      { numRuns: 300 },
    );
    expect(requestIdFromHead('{"jsonrpc":"2.0","method":"x","params":{"a":1},"id":3}')).toBeNull();
    expect(requestIdFromHead('{"jsonrpc":"2.0","id":{"x":1}}')).toBeNull();
    expect(requestIdFromHead("[1,2")).toBeNull();
    expect(requestIdFromHead('{"id":"abc')).toBeNull();
  });
});
