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
import { coerceAttrValue, newTokenScan, nextAttrToken, readTokenKey, startKeyLookup } from "./attributes.js";

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
    const lengths = startKeyLookup(keys, out);
    const first = this.used;
    let d = this.data;
    let o = first;
    let i = from;
    while (nextAttrToken(text, i, to, TOKEN)) {
      if (o + 8 > d.length) d = this.grow(o);
      d[o] = TOKEN.keyStart;
      d[o + 1] = TOKEN.keyEnd;
      d[o + 2] = TOKEN.valueStart;
      d[o + 3] = TOKEN.valueEnd;
      o += 4;
      readTokenKey(text, TOKEN, keys, lengths, out);
      i = TOKEN.end;
    }
    if (o + 4 > d.length) d = this.grow(o);
    d[o] = -1;
    this.used = o + 4;
    return first;
  }

  private grow(used: number): Int32Array<ArrayBuffer> {
    const grown = new Int32Array(this.data.length * 2);
    grown.set(this.data.subarray(0, used));
    this.data = grown;
    return grown;
  }

  /** The value of `key` in the run starting at `first` (a later duplicate wins), coerced; undefined when absent. */
  value(text: string, first: number, key: string): AttrValue | undefined {
    const d = this.data;
    const len = key.length;
    let found = -1;
    for (let o = first; d[o]! !== -1; o += 4) {
      const start = d[o]!;
      if (d[o + 1]! - start !== len) continue;
      let c = 0;
      while (c < len && key.charCodeAt(c) === text.charCodeAt(start + c)) c++;
      if (c === len) found = o;
    }
    if (found === -1) return undefined;
    return d[found + 2] === -1 ? true : coerceAttrValue(text.slice(d[found + 2], d[found + 3]));
  }
}
