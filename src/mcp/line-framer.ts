/**
 * Newline-delimited framing of a byte stream (the MCP stdio transport): bytes
 * in, whole lines out, however the stream is chunked. Lines are split on LF
 * as bytes (so a UTF-8 character cut in two by a chunk boundary is decoded
 * whole), a trailing CR is dropped (CRLF senders), blank lines are skipped,
 * and `end()` yields a last line that had no newline before end of input.
 */
export class LineFramer {
  private pending: Buffer[] = [];
  private first = true;
  private readonly decoder = new TextDecoder("utf-8");

  /** Feed a chunk; returns the complete, non-blank lines it finished (without their line break). */
  push(chunk: Uint8Array | string): string[] {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const out: string[] = [];
    let start = 0;
    for (;;) {
      const nl = bytes.indexOf(0x0a, start);
      if (nl === -1) break;
      const piece = bytes.subarray(start, nl);
      const line = this.pending.length > 0 ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.emit(line, out);
      start = nl + 1;
    }
    // Copy: the caller may reuse its buffer.
    if (start < bytes.length) this.pending.push(Buffer.from(bytes.subarray(start)));
    return out;
  }

  /** End of input: the last line, if it had no newline. */
  end(): string[] {
    const out: string[] = [];
    if (this.pending.length > 0) this.emit(Buffer.concat(this.pending), out);
    this.pending = [];
    return out;
  }

  /** Bytes received but not yet part of a complete line. */
  get bufferedBytes(): number {
    let n = 0;
    for (const p of this.pending) n += p.length;
    return n;
  }

  private emit(line: Uint8Array, out: string[]): void {
    let text = this.decoder.decode(line);
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1); // a byte-order mark before the first message
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim().length === 0) return;
    out.push(text);
  }
}
