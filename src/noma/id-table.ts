/**
 * A string-keyed hash table for document ids: open addressing over a typed
 * array, keys hashed in JavaScript.
 *
 * Why not a Map: every id of a freshly parsed document is a new string, and V8
 * computes a new string's hash in a runtime call the first time a Map sees it —
 * on a document with tens of thousands of ids that call is the largest single
 * cost of indexing them. Hashing the characters here costs a few nanoseconds.
 *
 * Insertion order is kept (`keys`, `values`: entries [0, size)); nothing is ever removed.
 * The entry arrays are made at their expected size (see `presized`) rather than grown
 * one push at a time: growing copies them again and again.
 */
import { rangeEquals } from "./range-equals.js";

/** Arrays longer than this are made as dictionaries by `new Array(n)` in V8: past it, storage grows. */
const MAX_PRESIZED = 65_536;

/** An array with room for `n` entries (holes until written; V8 keeps it a fast array). */
export function presized<T>(n: number): T[] {
  return new Array<T>(Math.min(Math.max(n, 0), MAX_PRESIZED));
}

export class IdTable<V> {
  readonly keys: string[];
  readonly values: V[];
  private count = 0;
  private slots: Int32Array;
  private mask: number;

  constructor(expected = 8) {
    let n = 16;
    while (n < expected * 2) n <<= 1;
    this.slots = new Int32Array(n).fill(-1);
    this.mask = n - 1;
    this.keys = presized(expected);
    this.values = presized(expected);
  }

  get size(): number {
    return this.count;
  }

  /** FNV-1a over UTF-16 code units, as an int32 (a small integer to V8: no heap number is made for it). */
  private static hash(s: string): number {
    return IdTable.hashRange(s, 0, s.length);
  }

  /** FNV-1a over `text[from, to)` (the hash of that slice), as an int32. */
  private static hashRange(text: string, from: number, to: number): number {
    let h = 0x811c9dc5;
    for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h;
  }

  /** The entry index of the key `text[from, to)` (no string is made for it), or -1. */
  indexOfRange(text: string, from: number, to: number): number {
    const slots = this.slots;
    const mask = this.mask;
    const len = to - from;
    let i = IdTable.hashRange(text, from, to) & mask;
    for (;;) {
      const k = slots[i]!;
      if (k === -1) return -1;
      const key = this.keys[k]!;
      if (key.length === len && rangeEquals(text, from, key)) return k;
      i = (i + 1) & mask;
    }
  }

  /** The entry index of `key`, or -1 - (the free slot where it would go). */
  private find(key: string): number {
    const slots = this.slots;
    const mask = this.mask;
    let i = IdTable.hash(key) & mask;
    for (;;) {
      const k = slots[i]!;
      if (k === -1) return -1 - i;
      if (this.keys[k] === key) return k;
      i = (i + 1) & mask;
    }
  }

  /** The entry index of `key` (its position in `keys` and `values`), or -1. */
  indexOf(key: string): number {
    const k = this.find(key);
    return k >= 0 ? k : -1;
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  get(key: string): V | undefined {
    const k = this.find(key);
    return k >= 0 ? this.values[k] : undefined;
  }

  /** Add `key` → `value` unless `key` is present; return the value it already had (undefined when added). */
  add(key: string, value: V): V | undefined {
    const k = this.find(key);
    if (k >= 0) return this.values[k];
    const at = this.count++;
    this.slots[-1 - k] = at;
    this.keys[at] = key;
    this.values[at] = value;
    if (this.count * 2 > this.mask) this.grow();
    return undefined;
  }

  private grow(): void {
    const n = (this.mask + 1) * 2;
    this.slots = new Int32Array(n).fill(-1);
    this.mask = n - 1;
    for (let k = 0; k < this.count; k++) {
      let i = IdTable.hash(this.keys[k]!) & this.mask;
      while (this.slots[i] !== -1) i = (i + 1) & this.mask;
      this.slots[i] = k;
    }
  }

  *entries(): IterableIterator<[string, V]> {
    for (let k = 0; k < this.count; k++) yield [this.keys[k]!, this.values[k]!];
  }
}
