/**
 * The line index of an edited text from the index of the text before the edit:
 * lines before the change are kept, the changed lines are scanned again, lines
 * after it are shifted. The result equals `indexLines(text)`; it costs a scan of
 * the changed lines and a copy of two typed arrays, not a scan of the document.
 */
import { type LineIndex, lineAt } from "../index-lines.js";

/** Lines of room kept beyond the end of a spliced index, so later splices that add lines can stay in place. */
const ROOM = 1024;

/** How many int32s fit in `a`'s buffer from where `a` starts. */
function capacity(a: Int32Array): number {
  return (a.buffer.byteLength - a.byteOffset) >> 2;
}

/**
 * `old` indexes `oldText`; `text` equals `oldText` in its first `prefix` and its last
 * `suffix` characters (non-overlapping in both texts). With `reuse`, the result is written
 * into `old`'s buffers where they have room (`old` no longer holds afterwards): the lines
 * before the change stay where they are, those after it are moved and shifted in place.
 */
export function spliceLineIndex(old: LineIndex, oldText: string, text: string, prefix: number, suffix: number, reuse = false): LineIndex {
  const lines = old.ends.length;
  const delta = text.length - oldText.length;
  // From the line before the one the change starts in: its start lies strictly inside the
  // unchanged prefix, so a "\r" before it is followed by the same character in both texts.
  const first = lines === 0 ? 0 : Math.max(0, lineAt(old.starts, prefix) - 1);
  const from = lines === 0 ? 0 : old.starts[first]!;
  // Up to the first line whose start and the line break before it lie inside the unchanged suffix.
  const tailFrom = oldText.length - suffix + 1;
  let keep = lines;
  if (suffix > 0) {
    let lo = first;
    let hi = lines;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (old.starts[mid]! >= tailFrom) hi = mid;
      else lo = mid + 1;
    }
    keep = lo;
  }
  const to = keep < lines ? old.starts[keep]! + delta : text.length;
  // Scan [from, to) of the new text.
  const midStarts: number[] = [];
  const midEnds: number[] = [];
  let s = from;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      midStarts.push(s);
      midEnds.push(i);
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      s = i + 1;
    }
  }
  if (keep === lines && s < text.length) {
    midStarts.push(s);
    midEnds.push(text.length);
  }
  const total = first + midStarts.length + (lines - keep);
  const at = first + midStarts.length;
  let starts: Int32Array;
  let ends: Int32Array;
  if (reuse && capacity(old.starts) >= total + 1 && capacity(old.ends) >= total) {
    // In place: move the tail (with its shift) first, then write the changed lines.
    starts = new Int32Array(old.starts.buffer, old.starts.byteOffset, total + 1);
    ends = new Int32Array(old.ends.buffer, old.ends.byteOffset, total);
    const os = new Int32Array(old.starts.buffer, old.starts.byteOffset, Math.max(total + 1, lines + 1));
    const oe = new Int32Array(old.ends.buffer, old.ends.byteOffset, Math.max(total, lines));
    if (at > keep) {
      for (let k = lines - 1; k >= keep; k--) {
        os[at + k - keep] = os[k]! + delta;
        oe[at + k - keep] = oe[k]! + delta;
      }
    } else if (at < keep || delta !== 0) {
      for (let k = keep; k < lines; k++) {
        os[at + k - keep] = os[k]! + delta;
        oe[at + k - keep] = oe[k]! + delta;
      }
    }
  } else {
    starts = new Int32Array(new ArrayBuffer((total + 1 + ROOM) * 4), 0, total + 1);
    ends = new Int32Array(new ArrayBuffer((total + ROOM) * 4), 0, total);
    starts.set(old.starts.subarray(0, first));
    ends.set(old.ends.subarray(0, first));
    for (let k = keep; k < lines; k++) {
      starts[at + k - keep] = old.starts[k]! + delta;
      ends[at + k - keep] = old.ends[k]! + delta;
    }
  }
  for (let k = 0; k < midStarts.length; k++) {
    starts[first + k] = midStarts[k]!;
    ends[first + k] = midEnds[k]!;
  }
  starts[total] = text.length;
  return { starts, ends };
}
