/**
 * The attribute tokens of many blocks, as offsets in one typed array. The id index
 * tokenizes each directive's `{…}` once (reading the keys it needs on the way), and a
 * later lookup of any key — the validator's rules read one or two per directive —
 * compares the key with the recorded token keys instead of scanning the text again.
 *
 * Four int32s per token (key start, key end, value start or -1 for a bare key, value
 * end); a block's run of tokens ends with a token whose key start is -1.
 */
import type { AttrValue } from "./ast.js";
import { coerceAttrValue, newTokenScan, nextAttrToken, tokenValue } from "./attributes.js";
import { rangeEquals } from "./range-equals.js";
import { grownInt32 } from "./grown-int32.js";

const TOKEN = newTokenScan();

export class AttrTokenIndex {
  private data: Int32Array<ArrayBuffer>;
  private used = 0;

  /** Sized for `blocks` attribute blocks of three tokens (it grows past that). */
  constructor(blocks = 256) {
    this.data = new Int32Array(Math.max(64, blocks * 16));
  }

  /**
   * Tokenize the attribute block `text[from, to)`, record its run, and read the values
   * of `keys` into `out` on the way (a later duplicate wins; undefined when absent).
   * Returns where the run starts.
   */
  scan(text: string, from: number, to: number, keys: readonly string[], out: Array<AttrValue | undefined>): number {
    // Bit n set: some key is n characters long (n ≥ 31 shares bit 31), so most tokens are dismissed at once.
    let lengths = 0;
    for (let k = 0; k < keys.length; k++) {
      out[k] = undefined;
      lengths |= 1 << Math.min(keys[k]!.length, 31);
    }
    const first = this.used;
    let d = this.data;
    let o = first;
    let i = from;
    while (nextAttrToken(text, i, to, TOKEN)) {
      if (o + 8 > d.length) d = this.grow(o);
      const start = TOKEN.keyStart;
      const len = TOKEN.keyEnd - start;
      d[o] = start;
      d[o + 1] = TOKEN.keyEnd;
      d[o + 2] = TOKEN.valueStart;
      d[o + 3] = TOKEN.valueEnd;
      o += 4;
      i = TOKEN.end;
      if ((lengths & (1 << Math.min(len, 31))) === 0) continue;
      for (let k = 0; k < keys.length; k++) {
        if (keys[k]!.length === len && rangeEquals(text, start, keys[k]!)) out[k] = tokenValue(text, TOKEN);
      }
    }
    if (o + 4 > d.length) d = this.grow(o);
    d[o] = -1;
    this.used = o + 4;
    return first;
  }

  /**
   * Move every recorded token at or after text offset `at` by `delta` characters (an edit
   * before them changed the text's length; runs are recorded in text order, so these are
   * the runs of later blocks).
   */
  shiftFrom(at: number, delta: number): void {
    const d = this.data;
    for (let o = 0; o < this.used; o += 4) {
      const start = d[o]!;
      if (start === -1 || start < at) continue;
      d[o] = start + delta;
      d[o + 1]! += delta;
      if (d[o + 2]! !== -1) {
        d[o + 2]! += delta;
        d[o + 3]! += delta;
      }
    }
  }

  private grow(used: number): Int32Array<ArrayBuffer> {
    this.data = grownInt32(this.data.subarray(0, used), this.data.length * 2);
    return this.data;
  }

  /** The value of `key` in the run starting at `first` (a later duplicate wins), coerced; undefined when absent. */
  value(text: string, first: number, key: string): AttrValue | undefined {
    const d = this.data;
    const len = key.length;
    let found = -1;
    for (let o = first; d[o]! !== -1; o += 4) {
      const start = d[o]!;
      if (d[o + 1]! - start === len && rangeEquals(text, start, key)) found = o;
    }
    if (found === -1) return undefined;
    return d[found + 2] === -1 ? true : coerceAttrValue(text.slice(d[found + 2], d[found + 3]));
  }
}
