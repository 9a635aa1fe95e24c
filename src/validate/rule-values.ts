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
  const m = DATE.exec(value.trim());
  if (m === null) return null;
  const t = Date.parse(value.trim().length === 10 ? `${value.trim()}T00:00:00Z` : value.trim());
  if (Number.isNaN(t)) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  if (d.getUTCMonth() !== Number(m[2]) - 1 || d.getUTCDate() !== Number(m[3])) return null;
  return t;
}
