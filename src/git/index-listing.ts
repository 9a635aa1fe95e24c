/**
 * What `git ls-files -z -t -s -c` prints, made from the index file's bytes in process: the
 * warm `changed` of a 100,000-file repository spent as many instructions in that one git
 * process (mostly printing 100,000 lines) as `git status` spends in all (docs/perf/reconcile.md).
 *
 * Pure: the bytes of `.git/index` in, the listing's bytes out — or `null` for anything this
 * reader does not take on, and the caller asks git, which reads (or refuses) it as it always
 * did. The format is git's documented one (gitformat-index): a `DIRC` header with version 2, 3
 * or 4 and the entry count; fixed-width entries (stat data, mode, object id, flags, extended
 * flags from version 3) with NUL-padded names in versions 2–3 and prefix-compressed names in 4;
 * extensions; a trailing checksum of everything before it. `null` when:
 * - the signature, version, sizes or a name do not parse, or an entry runs past the end;
 * - the checksum does not match (unless it is all zeros: `index.skipHash`);
 * - an extension git requires readers to understand (a signature not starting with A–Z) is
 *   present: a split index (`link`) lists its entries in another file, a sparse index (`sdir`)
 *   holds directories that `ls-files` expands;
 * - an entry uses a flag bit git reserves.
 * Each line is `<tag> <mode> <object> <stage>\t<path>\0`: the tag `M` for a conflict stage,
 * `S` for skip-worktree, `H` otherwise; the mode as six octal digits; the object id in hex.
 * test/git/index-listing.test.ts compares it with git's output byte for byte on generated
 * repositories (every index version, conflicts, skip-worktree, intent-to-add, symbolic links,
 * gitlinks, long and non-UTF-8 names) and fuzzes it with damaged index files.
 */
import { createHash } from "node:crypto";

const HEADER = 12;
const SHA1 = 20;
const FIXED = 62; // stat data (40), object id (20), flags (2)
const EXTENDED_FLAG = 0x4000;
const STAGE_MASK = 0x3000;
const NAME_MASK = 0x0fff;
const SKIP_WORKTREE = 0x4000;
const EXTENDED_RESERVED = ~(0x4000 | 0x2000) & 0xffff; // only skip-worktree and intent-to-add are defined

/** The listing `git ls-files -z -t -s -c` prints for this index (SHA-1 repositories), or null (ask git). */
export function indexListing(index: Uint8Array): Buffer | null {
  const buf = Buffer.isBuffer(index) ? index : Buffer.from(index.buffer, index.byteOffset, index.byteLength);
  if (buf.length < HEADER + SHA1 || buf.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const end = buf.length - SHA1;
  if (count > (end - HEADER) / FIXED || !checksumHolds(buf, end)) return null;
  const out = new Listing(count * LINE + buf.length);
  let pos = HEADER;
  for (let n = 0; n < count; n++) {
    const start = pos;
    if (start + FIXED > end) return null;
    const flags = (buf[start + 60]! << 8) | buf[start + 61]!;
    let extended = 0;
    let at = start + FIXED;
    if ((flags & EXTENDED_FLAG) !== 0) {
      if (version < 3 || at + 2 > end) return null;
      extended = (buf[at]! << 8) | buf[at + 1]!;
      if ((extended & EXTENDED_RESERVED) !== 0) return null;
      at += 2;
    }
    const stage = (flags & STAGE_MASK) >> 12;
    out.head(stage !== 0 ? TAG_M : (extended & SKIP_WORKTREE) !== 0 ? TAG_S : TAG_H, buf.readUInt32BE(start + 24), buf, start + 40, stage);
    let length: number;
    if (version === 4) {
      // The name: a varint of bytes to drop from the end of the previous name, then the rest, NUL-terminated.
      if (at >= end) return null;
      let c = buf[at++]!;
      let strip = c & 127;
      while ((c & 128) !== 0) {
        if (at >= end || strip > 0xffffff) return null;
        c = buf[at++]!;
        strip = ((strip + 1) << 7) | (c & 127);
      }
      const nul = buf.indexOf(0, at);
      if (nul < 0 || nul >= end) return null;
      length = out.nameFromPrevious(strip, buf, at, nul);
      if (length < 0) return null;
      pos = nul + 1;
    } else {
      const stated = flags & NAME_MASK;
      const nul = stated < NAME_MASK ? at + stated : buf.indexOf(0, at + NAME_MASK);
      if (nul < 0 || nul >= end || buf[nul] !== 0 || !out.name(buf, at, nul)) return null;
      length = nul - at;
      pos = start + ((at - start + length + 8) & ~7); // NUL-padded to a multiple of eight
      if (pos > end) return null;
    }
    if (length === 0 || (flags & NAME_MASK) !== Math.min(length, NAME_MASK)) return null;
  }
  if (!extensionsUnderstood(buf, pos, end)) return null;
  return out.done();
}

/** Bytes of a line besides its name: `H 100644 <40 hex> 0\t` and the NUL. */
const LINE = 53;
const TAG_H = 72;
const TAG_M = 77;
const TAG_S = 83;
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");

/** The output, written in place (no string or buffer object per line). */
class Listing {
  private bytes: Buffer;
  private length = 0;
  /** Where the previous line's name starts (version 4 names are built from it). */
  private previousAt = 0;
  private previousLength = 0;
  private readonly modes = new Map<number, Buffer>();

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafe(size);
  }

  private room(n: number): Buffer {
    if (this.length + n > this.bytes.length) {
      const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + n));
      this.bytes.copy(bigger, 0, 0, this.length);
      this.bytes = bigger;
    }
    return this.bytes;
  }

  /** `<tag> <mode> <object> <stage>\t`. */
  head(tag: number, mode: number, src: Buffer, oidAt: number, stage: number): void {
    let octal = this.modes.get(mode);
    if (octal === undefined) this.modes.set(mode, (octal = Buffer.from(mode.toString(8).padStart(6, "0"), "latin1")));
    const b = this.room(LINE + octal.length);
    let i = this.length;
    b[i++] = tag;
    b[i++] = 32;
    for (let k = 0; k < octal.length; k++) b[i++] = octal[k]!;
    b[i++] = 32;
    for (let k = oidAt; k < oidAt + SHA1; k++) {
      const v = src[k]!;
      b[i++] = HEX_DIGITS[v >> 4]!;
      b[i++] = HEX_DIGITS[v & 15]!;
    }
    b[i++] = 32;
    b[i++] = 48 + stage;
    b[i++] = 9;
    this.length = i;
  }

  /** The name `src[from, to)` and its NUL; false when it holds a NUL itself. */
  name(src: Buffer, from: number, to: number): boolean {
    const b = this.room(to - from + 1);
    let i = this.length;
    this.previousAt = i;
    for (let k = from; k < to; k++) {
      const v = src[k]!;
      if (v === 0) return false;
      b[i++] = v;
    }
    this.previousLength = to - from;
    b[i++] = 0;
    this.length = i;
    return true;
  }

  /** The previous name less its last `strip` bytes, then `src[from, to)`, and a NUL; its length, or -1 when `strip` is too long. */
  nameFromPrevious(strip: number, src: Buffer, from: number, to: number): number {
    if (strip > this.previousLength) return -1;
    const kept = this.previousLength - strip;
    const b = this.room(kept + to - from + 1);
    const previousAt = this.previousAt;
    let i = this.length;
    this.previousAt = i;
    for (let k = previousAt; k < previousAt + kept; k++) b[i++] = b[k]!;
    for (let k = from; k < to; k++) b[i++] = src[k]!;
    b[i++] = 0;
    this.previousLength = kept + to - from;
    this.length = i;
    return this.previousLength;
  }

  done(): Buffer {
    return this.bytes.subarray(0, this.length);
  }
}

/** The trailing SHA-1 of everything before it; all zeros when git wrote it with index.skipHash. */
function checksumHolds(buf: Buffer, end: number): boolean {
  const stored = buf.subarray(end);
  if (stored.every((b) => b === 0)) return true;
  return createHash("sha1").update(buf.subarray(0, end)).digest().equals(stored);
}

/** Whether every extension after the entries is one a reader may skip (signature A–Z) and they fill the space exactly. */
function extensionsUnderstood(buf: Buffer, pos: number, end: number): boolean {
  while (pos < end) {
    if (pos + 8 > end) return false;
    const first = buf[pos]!;
    if (first < 65 || first > 90) return false;
    const size = buf.readUInt32BE(pos + 4);
    if (size > end - pos - 8) return false;
    pos += 8 + size;
  }
  return pos === end;
}
