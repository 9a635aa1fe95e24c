/**
 * Newline-delimited framing of a byte stream (the MCP stdio transport): bytes
 * in, whole lines out, however the stream is chunked. Lines are split on LF
 * as bytes (so a UTF-8 character cut in two by a chunk boundary is decoded
 * whole), a trailing CR is dropped (CRLF senders), blank lines are skipped,
 * and `end()` yields a last line that had no newline before end of input.
 *
 * A line longer than `maxLineBytes` is never held whole: past the limit its
 * bytes are dropped up to the next newline (or the end of input), keeping only
 * its first bytes (`head`, enough to find a request's id), and it comes out as
 * one `tooLarge` frame. So memory stays bounded whatever a client sends.
 */

export type Frame = { line: string } | { tooLarge: { bytes: number; head: string } };

/** Bytes of an oversized line kept to find its id (`{"jsonrpc":"2.0","id":…` comes first). */
const HEAD_BYTES = 4096;

export class LineFramer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Within an oversized line: its length so far, and its first bytes. */
  private dropping: { bytes: number; head: Buffer } | null = null;
  private first = true;
  private readonly decoder = new TextDecoder("utf-8");

  /** `maxLineBytes`: the longest line passed on (without its line break). */
  constructor(private readonly maxLineBytes = Number.POSITIVE_INFINITY) {}

  /** Feed a chunk; returns the frames it finished (complete non-blank lines, oversized lines). */
  push(chunk: Uint8Array | string): Frame[] {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: Frame[] = [];
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(0x0a, start);
      const end = nl === -1 ? bytes.length : nl;
      this.take(bytes.subarray(start, end));
      if (nl === -1) break;
      this.finishLine(out);
      start = nl + 1;
    }
    return out;
  }

  /** End of input: the last line, if it had no newline. */
  end(): Frame[] {
    const out: Frame[] = [];
    if (this.pendingBytes > 0 || this.dropping !== null) this.finishLine(out);
    return out;
  }

  /** Bytes received but not yet part of a complete line (an oversized line's dropped bytes aside). */
  get bufferedBytes(): number {
    return this.pendingBytes + (this.dropping?.head.length ?? 0);
  }

  /** Bytes of the current line. */
  private take(piece: Uint8Array): void {
    if (piece.length === 0) return;
    if (this.dropping !== null) {
      this.dropping.bytes += piece.length;
      const room = HEAD_BYTES - this.dropping.head.length;
      if (room > 0) this.dropping.head = Buffer.concat([this.dropping.head, piece.subarray(0, room)]);
      return;
    }
    if (this.pendingBytes + piece.length > this.maxLineBytes) {
      // Keep the first HEAD_BYTES only (the pieces before, then this one).
      const firsts: Uint8Array[] = [];
      let kept = 0;
      for (const p of [...this.pending, piece]) {
        if (kept >= HEAD_BYTES) break;
        const part = p.subarray(0, HEAD_BYTES - kept);
        firsts.push(part);
        kept += part.length;
      }
      this.dropping = { bytes: this.pendingBytes + piece.length, head: Buffer.concat(firsts) };
      this.pending = [];
      this.pendingBytes = 0;
      return;
    }
    // Copy: the caller may reuse its buffer.
    this.pending.push(Buffer.from(piece));
    this.pendingBytes += piece.length;
  }

  private finishLine(out: Frame[]): void {
    if (this.dropping !== null) {
      const { bytes, head } = this.dropping;
      this.dropping = null;
      this.first = false;
      out.push({ tooLarge: { bytes, head: this.decoder.decode(head) } });
      return;
    }
    const line = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    let text = this.decoder.decode(line);
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte-order mark before the first message
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim().length === 0) return;
    out.push({ line: text });
  }
}
