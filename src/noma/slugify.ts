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
  // One pass decides the path: any non-ASCII character → the full pipeline; a title that is
  // already a slug but for upper case and spaces ("Risks and decisions 12": words of
  // `A-Za-z0-9` between single spaces or hyphens) → lower-cased, spaces made hyphens, without
  // building the string a character at a time; any other ASCII title → slugifyAscii.
  let simple = true;
  let upper = false;
  let space = false;
  // Was the last character a separator (true at the start: a leading one is not simple)?
  let sep = true;
  for (let i = 0; i < title.length; i++) {
    const c = title.charCodeAt(i);
    if (c > 127) return slugifyUnicode(title);
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) sep = false;
    else if (c >= 65 && c <= 90) {
      sep = false;
      upper = true;
    } else if (c === 32 || c === 45) {
      if (sep) simple = false;
      sep = true;
      if (c === 32) space = true;
    } else simple = false;
  }
  // Empty, or a separator at the end.
  if (sep) simple = false;
  if (!simple) return slugifyAscii(title);
  const lower = upper ? title.toLowerCase() : title;
  return space ? lower.replaceAll(" ", "-") : lower;
}

/** Character codes of the slug being built (reused: titles are short, and one is built at a time). */
const codes: number[] = [];

/**
 * The same result for ASCII titles in one pass: runs of `a-z0-9` joined by a
 * single `-` wherever whitespace or `-` separated them; other characters vanish.
 */
function slugifyAscii(title: string): string {
  let n = 0;
  let sep = false;
  for (let i = 0; i < title.length; i++) {
    let c = title.charCodeAt(i);
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
  if (codes.length > n) codes.length = n;
  return String.fromCharCode.apply(null, codes);
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
