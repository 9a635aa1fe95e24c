/**
 * A set of UTF-16 code units (what a non-unicode JavaScript regular expression matches one
 * at a time): sorted, disjoint, inclusive ranges; membership of the ASCII units from a bitmap.
 */
const MAX_UNIT = 0xffff;

const SINGLES = new Map<number, CharSet>();

export class CharSet {
  /** [lo0, hi0, lo1, hi1, …], sorted, disjoint, not adjacent. */
  readonly ranges: readonly number[];
  /** The ASCII members, four words of 32 bits. */
  private readonly a0: number;
  private readonly a1: number;
  private readonly a2: number;
  private readonly a3: number;

  private constructor(ranges: readonly number[]) {
    this.ranges = ranges;
    const words = [0, 0, 0, 0];
    for (let k = 0; k < ranges.length && ranges[k]! < 128; k += 2) {
      const hi = Math.min(ranges[k + 1]!, 127);
      for (let c = ranges[k]!; c <= hi; c++) words[c >>> 5]! |= 1 << (c & 31);
    }
    [this.a0, this.a1, this.a2, this.a3] = words as [number, number, number, number];
  }

  static empty(): CharSet {
    return new CharSet([]);
  }

  /** One character (the same object for the same character: an automaton shares its sets). */
  static of(code: number): CharSet {
    let set = SINGLES.get(code);
    if (set === undefined) {
      set = new CharSet([code, code]);
      if (SINGLES.size < 4096) SINGLES.set(code, set);
    }
    return set;
  }

  static range(lo: number, hi: number): CharSet {
    return new CharSet([lo, hi]);
  }

  /** `.`: anything but a line terminator. */
  static dot(): CharSet {
    return CharSet.fromRanges([0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029]).complement();
  }

  static digit(): CharSet {
    return new CharSet([0x30, 0x39]);
  }

  static word(): CharSet {
    return CharSet.fromRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
  }

  /** `\s`: ECMAScript's WhiteSpace and LineTerminator. */
  static space(): CharSet {
    return CharSet.fromRanges([
      0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff,
    ]);
  }

  /** Normalises any list of ranges. */
  static fromRanges(raw: readonly number[]): CharSet {
    const pairs: [number, number][] = [];
    for (let k = 0; k < raw.length; k += 2) pairs.push([raw[k]!, raw[k + 1]!]);
    pairs.sort((a, b) => a[0] - b[0]);
    const out: number[] = [];
    for (const [lo, hi] of pairs) {
      const n = out.length;
      if (n > 0 && lo <= out[n - 1]! + 1) out[n - 1] = Math.max(out[n - 1]!, hi);
      else out.push(lo, hi);
    }
    return new CharSet(out);
  }

  union(other: CharSet): CharSet {
    return CharSet.fromRanges([...this.ranges, ...other.ranges]);
  }

  complement(): CharSet {
    const out: number[] = [];
    let next = 0;
    for (let k = 0; k < this.ranges.length; k += 2) {
      if (this.ranges[k]! > next) out.push(next, this.ranges[k]! - 1);
      next = this.ranges[k + 1]! + 1;
    }
    if (next <= MAX_UNIT) out.push(next, MAX_UNIT);
    return new CharSet(out);
  }

  /** The one member of a one-character set. */
  single(): number {
    if (this.ranges.length !== 2 || this.ranges[0] !== this.ranges[1]) throw new Error("not a single character");
    return this.ranges[0]!;
  }

  /** The member, when the set holds exactly one unit; else -1. */
  only(): number {
    return this.ranges.length === 2 && this.ranges[0] === this.ranges[1] ? this.ranges[0]! : -1;
  }

  has(c: number): boolean {
    if (c < 128) {
      const w = c < 64 ? (c < 32 ? this.a0 : this.a1) : c < 96 ? this.a2 : this.a3;
      return (w & (1 << (c & 31))) !== 0;
    }
    const r = this.ranges;
    let lo = 0;
    let hi = (r.length >>> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (c < r[2 * mid]!) hi = mid - 1;
      else if (c > r[2 * mid + 1]!) lo = mid + 1;
      else return true;
    }
    return false;
  }
}
