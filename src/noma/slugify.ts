/**
 * Heading slugs (implicit section ids) and their collision suffixes (§2.1, §6.5).
 */

import { IdTable } from "./id-table.js";

const COMBINING = /[\u0300-\u036f]/g;
const NOT_SLUG = /[^a-z0-9\s-]/g;

/**
 * Lower-case; NFKD; drop combining marks; drop everything but `a-z`, `0-9`,
 * whitespace and `-`; trim; whitespace runs → `-`; collapse `-` runs; strip a
 * leading and a trailing `-`. "Café Überblick" → `cafe-uberblick`; "日本語" → "".
 */
export function slugify(title: string): string {
  // One pass, for ASCII titles: runs of `a-z0-9` (upper case lowered) joined by a single `-`
  // wherever whitespace or `-` separated them; other characters vanish. The slug is built as
  // character codes and made a string once (not a character at a time: that made garbage
  // per heading), and a title that is its own slug is returned as it is. Any
  // non-ASCII character: the full pipeline.
  let n = 0;
  let sep = false;
  for (let i = 0; i < title.length; i++) {
    let c = title.charCodeAt(i);
    if (c > 127) return slugifyUnicode(title);
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (sep && n > 0) codes[n++] = 45;
      sep = false;
      codes[n++] = c;
    } else if (c === 45 || c === 32 || (c >= 9 && c <= 13)) {
      sep = true;
    }
  }
  if (n === 0) return "";
  if (n === title.length && sameCodes(title, n)) return title;
  if (n > CODES_PER_CALL) return longSlug(n);
  if (codes.length > n) codes.length = n;
  return String.fromCharCode.apply(null, codes);
}

/** Codes passed to one String.fromCharCode call (arguments go on the stack: a 1 MB heading would overflow it). */
const CODES_PER_CALL = 4096;

function longSlug(n: number): string {
  let out = "";
  for (let i = 0; i < n; i += CODES_PER_CALL) out += String.fromCharCode.apply(null, codes.slice(i, Math.min(n, i + CODES_PER_CALL)));
  // Let go of the long buffer.
  codes.length = 0;
  return out;
}

/** Character codes of the slug being built (reused: titles are short, and one is built at a time). */
const codes: number[] = [];

function sameCodes(title: string, n: number): boolean {
  for (let i = 0; i < n; i++) if (codes[i] !== title.charCodeAt(i)) return false;
  return true;
}

/** The reference pipeline, step by step (any title). */
export function slugifyUnicode(title: string): string {
  let s = title.toLowerCase().normalize("NFKD").replace(COMBINING, "").replace(NOT_SLUG, "").trim();
  s = s.replace(/\s+/g, "-").replace(/-+/g, "-");
  if (s.startsWith("-")) s = s.slice(1);
  if (s.endsWith("-")) s = s.slice(0, -1);
  return s;
}

/**
 * Hands out implicit ids in document order: the first `a`, then `a-2`, `a-3`, …
 * skipping any value already taken. Amortised constant time per call. (Ids are fresh
 * strings: an IdTable hashes them without V8's runtime call, see id-table.ts.)
 */
export class SlugSuffixer {
  /** Every id handed out → the next suffix to try when it comes again as a slug. */
  private readonly taken = new IdTable<number>();

  assign(slug: string): string {
    if (this.taken.add(slug, 2) === undefined) return slug;
    const k = this.taken.indexOf(slug);
    const id = this.next(slug, this.taken.values[k]!);
    this.taken.values[k] = Number(id.slice(slug.length + 1)) + 1;
    this.taken.add(id, 2);
    return id;
  }

  /** What `assign` would return, without taking it. */
  peek(slug: string): string {
    const k = this.taken.indexOf(slug);
    return k === -1 ? slug : this.next(slug, this.taken.values[k]!);
  }

  private next(slug: string, from: number): string {
    let n = from;
    while (this.taken.has(`${slug}-${n}`)) n++;
    return `${slug}-${n}`;
  }
}
