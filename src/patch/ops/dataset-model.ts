/**
 * What the dataset ops need of a ::dataset body, whatever its format: its columns, its
 * rows, and the edits that change one cell, row or column in the shape the body is
 * written in. One implementation per format (dataset-yaml.ts, dataset-json.ts,
 * dataset-delimited.ts); the ops (dataset-ops.ts) check indexes and labels first.
 */
import { PatchError } from "../patch-error.js";
import type { TextEdit } from "../text-edit.js";

export type Cell = string | number | boolean | null;

export interface DatasetModel {
  readonly id: string;
  /** Column names, or null when the body declares none (columns by index only). */
  readonly columns: readonly string[] | null;
  readonly rowCount: number;
  /** The number of columns: the declared ones, or the widest row. */
  readonly width: number;
  /** Why the body has no place for a new column's `type` (it declares no column types), or null when it has one. */
  readonly noTypes: string | null;
  /** Set one cell (padding a short row); no edits when it already holds that text. */
  updateCell(row: number, column: number, value: Cell): TextEdit[];
  /** Insert a row at `row` (0…rowCount), cells padded to the width. */
  insertRow(row: number, cells: readonly Cell[]): TextEdit[];
  deleteRow(row: number): TextEdit[];
  /** Insert a column at `column` (0…width); `type` is the column's declared or inferred type. */
  insertColumn(column: number, header: string, type: string, cells: readonly Cell[]): TextEdit[];
  deleteColumn(column: number): TextEdit[];
}

export function fail(message: string): never {
  throw new PatchError("invalid_content", message);
}

export const NUMERIC_TYPES = new Set(["number", "integer", "int", "float", "decimal"]);

/**
 * The number a cell value stands for, or undefined when it is not one (a value a column's
 * type cannot take is written as it is, not refused: the reference applies it).
 */
export function asNumber(value: Cell): number | undefined {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** The boolean a cell value stands for (`true`/`false`, as such or as text), or undefined. */
export function asBoolean(value: Cell): boolean | undefined {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  return undefined;
}

/** The type of a new column: the one given, else boolean or number when every given cell is one, else string. */
export function newColumnType(type: string | undefined, cells: readonly Cell[]): string {
  if (type !== undefined) return type;
  if (cells.length > 0 && cells.every((v) => typeof v === "boolean")) return "boolean";
  const raw = cells.map((v) => (v === null ? "" : String(v)));
  return raw.length > 0 && raw.every((v) => v !== "" && Number.isFinite(Number(v))) ? "number" : "string";
}

/** How many spaces the line starts with. */
export function indentWidth(text: string): number {
  let n = 0;
  while (text.charCodeAt(n) === 32) n++;
  return n;
}

/** The line's leading spaces. */
export function indentOf(text: string): string {
  return text.slice(0, indentWidth(text));
}
