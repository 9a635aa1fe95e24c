/**
 * The line index of a text: where each line starts and where its content ends (before
 * the line break: `\r\n`, `\n` or `\r`), in typed arrays.
 */
import { grownInt32 } from "./grown-int32.js";

/** Offsets of every line: `starts` (plus one final entry, the source length) and content `ends` (before the line break). */
export interface LineIndex {
  starts: Int32Array;
  ends: Int32Array;
}

/** Index the lines of `text` without creating a string per line (typed arrays: nothing for the GC to trace). */
export function indexLines(text: string): LineIndex {
  return text.indexOf("\r") === -1 ? indexLfLines(text) : indexAnyLines(text);
}

/** Only "\n" breaks: one pass collects line starts; each line ends one before the next starts. */
function indexLfLines(text: string): LineIndex {
  const n = text.length;
  // Room for lines of 16 characters on average; denser text grows the array.
  let starts: Int32Array<ArrayBuffer> = new Int32Array((n >> 4) + 16);
  let k = n > 0 ? 1 : 0;
  for (;;) {
    k = collectStarts(text, starts, k);
    if (k >= 0) break;
    k = -k;
    starts = grownInt32(starts);
  }
  // A final "\n" ends the last line; it does not start an empty one.
  const trailing = k > 0 && starts[k - 1] === n;
  const total = trailing ? k - 1 : k;
  if (total + 1 > starts.length) starts = grownInt32(starts);
  starts[total] = n;
  const ends = lfEnds(starts, total, trailing ? n - 1 : n);
  return { starts: starts.subarray(0, total + 1), ends };
}

/** Each line ends one before the next starts; the last one at `lastEnd`. */
function lfEnds(starts: Int32Array, total: number, lastEnd: number): Int32Array {
  const ends = new Int32Array(total);
  for (let i = 0; i + 1 < total; i++) ends[i] = starts[i + 1]! - 1;
  if (total > 0) ends[total - 1] = lastEnd;
  return ends;
}

/**
 * Line starts after `starts[k - 1]` into `starts` from index k; the new count, or
 * -(count) when `starts` filled up first (grow it and call again). Its own function, so
 * the hot loop is optimized on its own.
 */
function collectStarts(text: string, starts: Int32Array, k: number): number {
  const cap = starts.length;
  for (let p = text.indexOf("\n", k > 0 ? starts[k - 1]! : 0); p !== -1; p = text.indexOf("\n", p + 1)) {
    if (k === cap) return -k;
    starts[k++] = p + 1;
  }
  return k;
}

function indexAnyLines(text: string): LineIndex {
  const n = text.length;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) count++;
  }
  const starts = new Int32Array(count + 2);
  const ends = new Int32Array(count + 1);
  let k = 0;
  let s = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      starts[k] = s;
      ends[k++] = i;
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      s = i + 1;
    }
  }
  if (s < n) {
    starts[k] = s;
    ends[k++] = n;
  }
  starts[k] = n;
  return { starts: starts.subarray(0, k + 1), ends: ends.subarray(0, k) };
}

/** 0-based index of the line holding character `offset` (the last line for offsets at the end). */
export function lineAt(starts: Int32Array, offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return Math.min(lo, Math.max(starts.length - 2, 0));
}
