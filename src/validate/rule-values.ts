/**
 * How the validator's rules read attribute values: as strings, as "present", as a
 * confidence, as a date.
 */
import type { AttrValue } from "../noma/ast.js";
import { attrOf, type DirectiveFact } from "./directive-fact.js";

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/** A string or number value as a string; flags and absent values are undefined. */
export function str(v: AttrValue | undefined): string | undefined {
  if (v === undefined || typeof v === "boolean") return undefined;
  return String(v);
}

/** Whether `node` carries `key` with a value that counts (not empty, not false). */
export function has(node: DirectiveFact, key: string): boolean {
  const v = attrOf(node, key);
  return v !== undefined && v !== "" && v !== false;
}

/** Whether diagnostics about `node` (and its prose) are silenced. */
export function isNoverify(node: DirectiveFact | null): boolean {
  if (node === null) return false;
  const v = attrOf(node, "noverify");
  return v !== undefined && v !== false;
}

export function confidenceOk(value: AttrValue | undefined): boolean {
  return typeof value === "number" && value >= 0 && value <= 1;
}

/** Milliseconds since the epoch of a YYYY-MM-DD or ISO 8601 date, or null when it is not one. */
export function parseDate(value: string): number | null {
  // The usual shape, exactly ten characters YYYY-MM-DD, read by hand (a citation each, per validation).
  if (value.length === 10) {
    const day = plainDay(value);
    if (day !== undefined) return day;
  }
  return parsedDate(value);
}

/** YYYY-MM-DD read by hand: its time (midnight UTC), null for a day the calendar does not have, undefined for another shape. */
function plainDay(v: string): number | null | undefined {
  if (v.charCodeAt(4) !== 45 || v.charCodeAt(7) !== 45) return undefined;
  let year = 0;
  for (let i = 0; i < 4; i++) {
    const c = v.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return undefined;
    year = year * 10 + c;
  }
  const m1 = v.charCodeAt(5) - 48;
  const m2 = v.charCodeAt(6) - 48;
  const d1 = v.charCodeAt(8) - 48;
  const d2 = v.charCodeAt(9) - 48;
  if (m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return undefined;
  const month = m1 * 10 + m2;
  const date = d1 * 10 + d2;
  if (month < 1 || month > 12 || date < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  if (date > days) return null;
  return daysFromCivil(year, month, date) * 86_400_000;
}

/**
 * Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil):
 * integer arithmetic, no Date object (one per citation, in mostly unoptimized code).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The general form (ISO 8601 with a time and an offset), through Date.parse. Exported for the property test. */
export function parsedDate(value: string): number | null {
  const m = DATE.exec(value.trim());
  if (m === null) return null;
  const t = Date.parse(value.trim().length === 10 ? `${value.trim()}T00:00:00Z` : value.trim());
  if (Number.isNaN(t)) return null;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999 (0000-02-29 would be rejected).
  const d = new Date(new Date(0).setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  return t;
}
