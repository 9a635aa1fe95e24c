/**
 * sha256 of a text's UTF-8 bytes that a later, edited text can resume: the hash
 * state is kept at chunk boundaries, so the digest of a text that shares its
 * first characters with this one hashes only from the last boundary before the
 * first difference. An op near the end of a large document then costs a hash
 * of the tail, not of the whole document; the digest is the same either way.
 *
 * A boundary never follows a high surrogate, so no chunk ends in half a pair (in
 * this text or in any later text that shares the prefix): each chunk encodes to
 * exactly the bytes it contributes to the whole text's encoding.
 */
import { createHash, type Hash } from "node:crypto";
import { byteRange, bytesLength, type Bytes } from "./byte-pieces.js";

/** Characters per chunk (large enough that copying hash states costs nothing). */
const CHUNK = 256 * 1024;

interface Mark {
  /** Character offset the state covers up to. */
  at: number;
  state: Hash;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

export class ResumableSha256 {
  private constructor(
    readonly text: string,
    /** States at chunk boundaries, ascending; the first covers nothing (offset 0). */
    private readonly marks: Mark[],
    readonly hex: string,
    private readonly chunk: number,
  ) {}

  /**
   * `chunk`: characters between kept states (small values are for tests); `utf8`: the text's
   * UTF-8 bytes when the caller has them (used when they are as many as its characters: ASCII).
   */
  static of(text: string, chunk = CHUNK, utf8?: Bytes): ResumableSha256 {
    return ResumableSha256.from(
      text,
      [{ at: 0, state: createHash("sha256") }],
      Math.max(1, chunk),
      utf8 !== undefined && bytesLength(utf8) === text.length ? utf8 : undefined,
    );
  }

  /**
   * The digest of `next`, resuming from this text's state where both still agree.
   * `samePrefix`: a length the caller knows both texts to share at the start (no comparing);
   * `utf8`: `next`'s UTF-8 bytes when the caller has them (an ASCII text: byte = character).
   */
  resume(next: string, samePrefix?: number, utf8?: Bytes): ResumableSha256 {
    if (samePrefix === undefined && next === this.text) return this;
    const same = samePrefix ?? commonPrefixLength(this.text, next);
    let keep = 1;
    while (keep < this.marks.length && this.marks[keep]!.at <= same) keep++;
    return ResumableSha256.from(next, this.marks.slice(0, keep), this.chunk, utf8 !== undefined && bytesLength(utf8) === next.length ? utf8 : undefined);
  }

  /** Hash `text` on from the last of `marks` (whose states are never consumed: updates go to copies). */
  private static from(text: string, marks: Mark[], chunk: number, ascii?: Bytes): ResumableSha256 {
    const head = marks[marks.length - 1]!;
    const h = head.state.copy();
    const out = marks;
    let i = head.at;
    while (i < text.length) {
      let j = Math.min(i + chunk, text.length);
      // A boundary never follows a high surrogate (in this text or any text sharing the prefix).
      while (j < text.length && isHighSurrogate(text.charCodeAt(j - 1))) j++;
      if (ascii !== undefined) for (const piece of byteRange(ascii, i, j)) h.update(piece);
      else h.update(text.slice(i, j), "utf8");
      i = j;
      if (i < text.length) out.push({ at: i, state: h.copy() });
    }
    return new ResumableSha256(text, out, h.digest("hex"), chunk);
  }
}

/** Length of the longest common prefix of two strings. */
export function commonPrefixLength(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let p = 0;
  const STEP = 4096;
  while (p + STEP <= max && a.slice(p, p + STEP) === b.slice(p, p + STEP)) p += STEP;
  while (p < max && a.charCodeAt(p) === b.charCodeAt(p)) p++;
  return p;
}
