/**
 * Line splitting shared by the parser and the patch engine.
 *
 * `\r\n`, `\n` and a lone `\r` all end a line (for parsing only: the bytes are
 * kept, and `lineStarts` lets callers slice each raw line out of the source).
 * A line break at the very end of the text does not start another line.
 */
export interface SplitLines {
  /** Line texts without their line breaks. */
  lines: string[];
  /** Offset of each line's first character; one extra entry equal to `text.length`. */
  lineStarts: number[];
}

export function splitLines(text: string): SplitLines {
  if (text.length === 0) return { lines: [], lineStarts: [0] };
  if (text.indexOf("\r") === -1) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const lineStarts = new Array<number>(lines.length + 1);
    let offset = 0;
    for (let i = 0; i < lines.length; i++) {
      lineStarts[i] = offset;
      offset += lines[i]!.length + 1;
    }
    lineStarts[lines.length] = text.length;
    return { lines, lineStarts };
  }
  const lines: string[] = [];
  const lineStarts: number[] = [];
  const breaks = /\r\n|\r|\n/g;
  let start = 0;
  let m: RegExpExecArray | null;
  while ((m = breaks.exec(text)) !== null) {
    lineStarts.push(start);
    lines.push(text.slice(start, m.index));
    start = m.index + m[0].length;
  }
  if (start < text.length) {
    lineStarts.push(start);
    lines.push(text.slice(start));
  }
  lineStarts.push(text.length);
  return { lines, lineStarts };
}

/**
 * The raw text of lines `start..end` (1-based, inclusive) with each line's own
 * `\r` kept and lines joined by `\n`: the input of a block hash.
 */
export function rawLinesForHash(source: string, lineStarts: ArrayLike<number>, start: number, end: number): string {
  const parts: string[] = [];
  for (let i = start - 1; i <= end - 1 && i < lineStarts.length - 1; i++) {
    let raw = source.slice(lineStarts[i], lineStarts[i + 1]);
    if (raw.endsWith("\n")) raw = raw.slice(0, -1);
    parts.push(raw);
  }
  return parts.join("\n");
}
