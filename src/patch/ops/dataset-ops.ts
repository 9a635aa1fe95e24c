/**
 * Dataset ops on id-bearing ::dataset directives, by `format` (default yaml):
 *
 * - yaml: a `schema:` map of `name: type` lines and `rows:` of one-line flow
 *   arrays (`  - [a, 3.4]`). Cells are coerced by the column's schema type.
 * - csv / tsv: the first non-blank line is the header; cells are quoted when
 *   they contain the delimiter, a quote, or edge spaces.
 * - json: an array of one-line rows, an array of one-line records, or
 *   `{"columns": [...], "rows": [...]}` with one row per line.
 *
 * Only the lines that change are rewritten. Other shapes are invalid_content
 * (use replace_body).
 */
import type { DirectiveNode, NomaDocument } from "../../noma/ast.js";
import { getAttr } from "../../noma/attributes.js";
import { lineText } from "../../noma/parse-noma.js";
import { splitDelimited } from "../../noma/split-delimited.js";
import { PatchError } from "../patch-error.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import { checkBaseHash, findDirective } from "../op-support.js";
import { applyEdits, deleteLines, insertLines, replaceLineContent, type TextEdit } from "../text-edit.js";

type Cell = string | number | boolean | null;

interface DataRow {
  line: number; // 0-based
  indent: string;
  cells: string[]; // as written
}

interface Model {
  node: DirectiveNode;
  format: "yaml" | "csv" | "tsv" | "json";
  columns: string[] | null;
  rows: DataRow[];
  width: number;
  /** Format one value for column `c` (already coerced). */
  cell(value: Cell, c: number): string;
  /** The full text of a row line. */
  rowLine(indent: string, cells: readonly string[], template: DataRow | undefined, isLast: boolean): string;
  /** Edits for inserting / deleting a column beyond the row lines (schema line, header line). */
  insertColumnMeta(c: number, header: string, type: string | undefined, cellsInColumn: readonly string[]): TextEdit[];
  deleteColumnMeta(c: number): TextEdit[];
  /** Where a new row goes when appended after all rows; and the indent for it. */
  appendAt(): { line: number; indent: string; edits: TextEdit[] };
  /** JSON needs commas fixed when the last row changes. */
  afterRowChange?(doc: NomaDocument, removedLast: boolean, insertedLast: boolean): TextEdit[];
}

function fail(message: string): never {
  throw new PatchError("invalid_content", message);
}

function interior(doc: NomaDocument, node: DirectiveNode): Array<{ i: number; text: string }> {
  const out: Array<{ i: number; text: string }> = [];
  for (let i = node.pos.line; i < node.endLine - 1; i++) out.push({ i, text: lineText(doc, i) });
  return out;
}

// ---- value coercion -------------------------------------------------------

const NUMERIC_TYPES = new Set(["number", "integer", "int", "float", "decimal"]);
const YAML_RESERVED = /^(?:true|false|yes|no|on|off|null|~|y|n)$/i;

function toNumber(value: Cell, what: string): number {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : NaN;
  if (!Number.isFinite(n)) fail(`${what} expects a number; got ${JSON.stringify(value)}.`);
  return n;
}

function yamlScalar(value: Cell, type: string | undefined, what: string): string {
  if (value === null) return "null";
  const t = (type ?? "string").toLowerCase();
  if (NUMERIC_TYPES.has(t)) {
    const n = toNumber(value, what);
    if ((t === "integer" || t === "int") && !Number.isInteger(n)) fail(`${what} expects an integer; got ${JSON.stringify(value)}.`);
    return String(n);
  }
  if (t === "boolean" || t === "bool") {
    if (value === true || value === "true") return "true";
    if (value === false || value === "false") return "false";
    fail(`${what} expects true or false; got ${JSON.stringify(value)}.`);
  }
  const s = String(value);
  if (/[\r\n]/.test(s)) fail(`${what} cannot contain a line break.`);
  if (/^[A-Za-z_][\w .\/-]*$/.test(s) && !YAML_RESERVED.test(s) && !s.endsWith(" ")) return s;
  return JSON.stringify(s);
}

/** Split a YAML flow sequence body (`a, "b, c", 3`) on top-level commas. */
function splitFlow(body: string): string[] {
  if (body.trim().length === 0) return [];
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote !== "") {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(body.slice(start).trim());
  return out;
}

// ---- yaml -----------------------------------------------------------------

function yamlModel(doc: NomaDocument, node: DirectiveNode): Model {
  const lines = interior(doc, node);
  const schema: Array<{ name: string; type: string; line: number; indent: string }> = [];
  const rows: DataRow[] = [];
  let section = "";
  let rowsLine = -1;
  let rowsInline = false;
  for (const { i, text } of lines) {
    if (text.trim().length === 0 || text.trim().startsWith("#")) continue;
    const top = /^([A-Za-z_][\w-]*):\s*(.*?)\s*$/.exec(text);
    if (top !== null) {
      section = top[1]!;
      if (section === "rows") {
        rowsLine = i;
        if (top[2] === "[]") rowsInline = true;
        else if (top[2] !== "") fail(`Dataset "${node.id}": rows must be a block list of one-line flow arrays (- [a, b]); use replace_body for other shapes.`);
      }
      continue;
    }
    if (section === "schema") {
      const m = /^(\s+)([^\s:#][^:#]*?)\s*:\s*([^#]*?)\s*$/.exec(text);
      if (m === null) fail(`Dataset "${node.id}": schema line ${i + 1} is not "name: type".`);
      schema.push({ name: m[2]!, type: m[3]!, line: i, indent: m[1]! });
    } else if (section === "rows") {
      const m = /^(\s*)- \[(.*)\]\s*$/.exec(text);
      if (m === null) fail(`Dataset "${node.id}": row line ${i + 1} is not a one-line flow array (- [a, b]); use replace_body for other shapes.`);
      rows.push({ line: i, indent: m[1]!, cells: splitFlow(m[2]!) });
    }
  }
  if (rowsLine === -1) fail(`Dataset "${node.id}" has no rows: list; use replace_body for other shapes.`);
  const columns = schema.length > 0 ? schema.map((s) => s.name) : null;
  const width = Math.max(columns?.length ?? 0, ...rows.map((r) => r.cells.length));
  const rowIndent = rows[0]?.indent ?? "  ";
  return {
    node,
    format: "yaml",
    columns,
    rows,
    width,
    cell: (value, c) => yamlScalar(value, schema[c]?.type, `column ${columns?.[c] ?? c}`),
    rowLine: (indent, cells) => `${indent}- [${cells.join(", ")}]`,
    insertColumnMeta(c, header, type, cellsInColumn) {
      if (schema.length === 0) return [];
      const inferred = type ?? (cellsInColumn.length > 0 && cellsInColumn.every((v) => v !== "" && Number.isFinite(Number(v))) ? "number" : "string");
      const indent = schema[0]!.indent;
      const line = `${indent}${header}: ${inferred}`;
      const at = c < schema.length ? schema[c]!.line : schema[schema.length - 1]!.line + 1;
      return [insertLines(doc, at, [line])];
    },
    deleteColumnMeta(c) {
      const entry = schema[c];
      return entry !== undefined ? [deleteLines(doc, entry.line, entry.line + 1)] : [];
    },
    appendAt() {
      const last = rows[rows.length - 1];
      if (last !== undefined) return { line: last.line + 1, indent: last.indent, edits: [] };
      if (rowsInline) return { line: rowsLine + 1, indent: rowIndent, edits: [replaceLineContent(doc, rowsLine, lineText(doc, rowsLine).replace(/:\s*\[\]\s*$/, ":"))] };
      return { line: rowsLine + 1, indent: rowIndent, edits: [] };
    },
  };
}

// ---- csv / tsv --------------------------------------------------------------

function delimitedModel(doc: NomaDocument, node: DirectiveNode, format: "csv" | "tsv"): Model {
  const delim = format === "csv" ? "," : "\t";
  const lines = interior(doc, node).filter((l) => l.text.trim().length > 0);
  if (lines.length === 0) fail(`Dataset "${node.id}" has no header line.`);
  const header = lines[0]!;
  const columns = splitDelimited(header.text, delim).map((c) => c.trim());
  const rows: DataRow[] = lines.slice(1).map((l) => ({ line: l.i, indent: "", cells: splitDelimited(l.text, delim) }));
  const quote = (s: string): string =>
    s.includes(delim) || s.includes('"') || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  const cellText = (value: Cell): string => {
    const s = value === null ? "" : String(value);
    if (/[\r\n]/.test(s)) fail("A dataset cell cannot contain a line break.");
    return quote(s);
  };
  const width = Math.max(columns.length, ...rows.map((r) => r.cells.length));
  // Cells read back unquoted: re-quote every cell when a row is rewritten.
  const requote = (cells: readonly string[]): string[] => cells.map((c) => quote(c));
  return {
    node,
    format,
    columns,
    rows: rows.map((r) => ({ ...r, cells: requote(r.cells) })),
    width,
    cell: (value) => cellText(value),
    rowLine: (_indent, cells) => cells.join(delim),
    insertColumnMeta(c, head) {
      const next = requote(columns);
      next.splice(c, 0, cellText(head));
      return [replaceLineContent(doc, header.i, next.join(delim))];
    },
    deleteColumnMeta(c) {
      const next = requote(columns);
      next.splice(c, 1);
      return [replaceLineContent(doc, header.i, next.join(delim))];
    },
    appendAt() {
      const last = rows[rows.length - 1] ?? { line: header.i };
      return { line: last.line + 1, indent: "", edits: [] };
    },
  };
}

// ---- json -------------------------------------------------------------------

function jsonModel(doc: NomaDocument, node: DirectiveNode): Model {
  const lines = interior(doc, node);
  let data: unknown;
  try {
    data = JSON.parse(lines.map((l) => l.text).join("\n"));
  } catch (e) {
    fail(`Dataset "${node.id}" is not valid JSON: ${(e as Error).message}`);
  }
  let rowValues: unknown[];
  let columns: string[] | null = null;
  let columnsLine: { i: number; text: string } | undefined;
  if (Array.isArray(data)) rowValues = data;
  else if (data !== null && typeof data === "object" && Array.isArray((data as Record<string, unknown>)["rows"])) {
    rowValues = (data as Record<string, unknown>)["rows"] as unknown[];
    const cols = (data as Record<string, unknown>)["columns"];
    if (Array.isArray(cols)) {
      columns = cols.map((c) => (c !== null && typeof c === "object" ? String((c as Record<string, unknown>)["name"] ?? "") : String(c)));
      columnsLine = lines.find((l) => /"columns"\s*:\s*\[.*\]\s*,?\s*$/.test(l.text));
    }
  } else return fail(`Dataset "${node.id}": JSON must be an array of rows, an array of records, or {"columns": [...], "rows": [...]}.`);
  const records = rowValues.length > 0 && rowValues.every((r) => r !== null && typeof r === "object" && !Array.isArray(r));
  const arrays = rowValues.every((r) => Array.isArray(r));
  if (!records && !arrays) fail(`Dataset "${node.id}": JSON rows must all be arrays or all be records.`);
  if (records) columns = Object.keys(rowValues[0] as object);
  const rows: DataRow[] = [];
  let k = 0;
  for (const l of lines) {
    if (k >= rowValues.length) break;
    const t = l.text.trim().replace(/,\s*$/, "");
    if (!(t.startsWith("[") || t.startsWith("{"))) continue;
    let v: unknown;
    try {
      v = JSON.parse(t);
    } catch {
      continue;
    }
    if (JSON.stringify(v) !== JSON.stringify(rowValues[k])) continue;
    const cells = records ? (columns ?? []).map((c) => JSON.stringify((v as Record<string, unknown>)[c] ?? null)) : (v as unknown[]).map((x) => JSON.stringify(x));
    rows.push({ line: l.i, indent: /^\s*/.exec(l.text)![0], cells });
    k++;
  }
  if (rows.length !== rowValues.length) fail(`Dataset "${node.id}": each JSON row must be on a line of its own; use replace_body for other layouts.`);
  const spaced = rows.length === 0 || lineText(doc, rows[0]!.line).includes(", ") || lineText(doc, rows[0]!.line).includes(": ");
  const sep = spaced ? ", " : ",";
  const colon = spaced ? ": " : ":";
  const width = Math.max(columns?.length ?? 0, ...rows.map((r) => r.cells.length));
  const columnType = (c: number): "number" | "boolean" | "other" => {
    const seen = rows.map((r) => r.cells[c]).filter((x): x is string => x !== undefined && x !== "null");
    if (seen.length > 0 && seen.every((x) => typeof JSON.parse(x) === "number")) return "number";
    if (seen.length > 0 && seen.every((x) => typeof JSON.parse(x) === "boolean")) return "boolean";
    return "other";
  };
  const serialize = (cells: readonly string[]): string =>
    records ? `{${(columns ?? []).map((c, i) => `${JSON.stringify(c)}${colon}${cells[i] ?? "null"}`).join(sep)}}` : `[${cells.join(sep)}]`;
  const model: Model = {
    node,
    format: "json",
    columns,
    rows,
    width,
    cell(value, c) {
      if (value === null) return "null";
      const type = columnType(c);
      if (type === "number" && typeof value !== "boolean") return JSON.stringify(toNumber(value, `column ${columns?.[c] ?? c}`));
      if (type === "boolean" && (value === "true" || value === "false" || typeof value === "boolean")) return String(value === true || value === "true");
      return JSON.stringify(value);
    },
    rowLine: (indent, cells, _template, isLast) => `${indent}${serialize(cells)}${isLast ? "" : ","}`,
    insertColumnMeta(c, header) {
      if (records) {
        columns!.splice(c, 0, header);
        return [];
      }
      if (columns === null) return [];
      if (columnsLine === undefined) fail(`Dataset "${node.id}": "columns" must be on one line to add a column.`);
      const next = [...columns];
      next.splice(c, 0, header);
      columns = next;
      return [replaceLineContent(doc, columnsLine.i, columnsLine.text.replace(/\[.*\]/, JSON.stringify(next).replace(/","/g, `"${sep}"`)))];
    },
    deleteColumnMeta(c) {
      if (records) {
        columns!.splice(c, 1);
        return [];
      }
      if (columns === null) return [];
      if (columnsLine === undefined) fail(`Dataset "${node.id}": "columns" must be on one line to delete a column.`);
      const next = columns.filter((_, i) => i !== c);
      columns = next;
      return [replaceLineContent(doc, columnsLine.i, columnsLine.text.replace(/\[.*\]/, JSON.stringify(next).replace(/","/g, `"${sep}"`)))];
    },
    appendAt() {
      const last = rows[rows.length - 1];
      if (last === undefined) fail(`Dataset "${node.id}" has no rows to take the layout from; use replace_body.`);
      return { line: last.line + 1, indent: last.indent, edits: [] };
    },
  };
  return model;
}

function readDataset(doc: NomaDocument, id: string, baseHash: string | undefined): Model {
  const node = findDirective(doc, id);
  checkBaseHash(doc, node, baseHash, `dataset "${id}"`);
  if (node.name !== "dataset") fail(`"${id}" is a ::${node.name} block; dataset ops need a ::dataset block.`);
  if (!node.closed) fail(`Dataset "${id}" is never closed.`);
  if (getAttr(node.attrs, "src") !== undefined && node.children.length === 0) fail(`Dataset "${id}" loads its rows from src=; edit that file instead.`);
  const format = String(getAttr(node.attrs, "format") ?? "yaml").toLowerCase();
  if (format === "yaml" || format === "yml") return yamlModel(doc, node);
  if (format === "csv" || format === "tsv") return delimitedModel(doc, node, format);
  if (format === "json") return jsonModel(doc, node);
  return fail(`Dataset "${id}" has format "${format}"; dataset ops support yaml, csv, tsv and json (use replace_body).`);
}

function columnIndex(m: Model, column: number | string, allowEnd = false): number {
  if (typeof column === "number") {
    if (column > (allowEnd ? m.width : m.width - 1)) fail(`column ${column} is out of range: dataset "${m.node.id}" has ${m.width} columns.`);
    return column;
  }
  if (m.columns === null) fail(`column "${column}" is a label, but dataset "${m.node.id}" declares no column names.`);
  const i = m.columns.indexOf(column);
  if (i === -1) fail(`Dataset "${m.node.id}" has no column "${column}" (columns: ${m.columns.join(", ")}).`);
  return i;
}

function dataRow(m: Model, row: number): DataRow {
  const r = m.rows[row];
  if (r === undefined) fail(`row ${row} is out of range: dataset "${m.node.id}" has ${m.rows.length} rows.`);
  return r;
}

function pad(cells: readonly string[], width: number, filler: string): string[] {
  const out = [...cells];
  while (out.length < width) out.push(filler);
  return out;
}

function filler(m: Model): string {
  return m.format === "json" || m.format === "yaml" ? "null" : "";
}

export function updateDatasetCell(doc: NomaDocument, op: PatchOpOf<"update_dataset_cell">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  const c = columnIndex(m, op.column);
  const r = dataRow(m, op.row);
  const cells = pad(r.cells, m.width, filler(m));
  const value = m.cell(op.value, c);
  if (cells[c] === value) return doc.source;
  cells[c] = value;
  const isLast = r === m.rows[m.rows.length - 1];
  return applyEdits(doc.source, [replaceLineContent(doc, r.line, m.rowLine(r.indent, cells, r, isLast))]);
}

export function insertDatasetRow(doc: NomaDocument, op: PatchOpOf<"insert_dataset_row">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  if (op.row > m.rows.length) fail(`row ${op.row} is out of range for insertion: dataset "${op.id}" has ${m.rows.length} rows (valid: 0–${m.rows.length}).`);
  if (m.width > 0 && op.cells.length > m.width) fail(`${op.cells.length} cells given, but dataset "${op.id}" has ${m.width} columns.`);
  const cells = pad(op.cells.map((v, c) => m.cell(v, c)), m.width, filler(m));
  const edits: TextEdit[] = [];
  const anchor = m.rows[op.row];
  if (anchor !== undefined) {
    edits.push(insertLines(doc, anchor.line, [m.rowLine(anchor.indent, cells, anchor, false)]));
  } else {
    const at = m.appendAt();
    edits.push(...at.edits);
    const prev = m.rows[m.rows.length - 1];
    if (m.format === "json" && prev !== undefined) {
      edits.push(replaceLineContent(doc, prev.line, m.rowLine(prev.indent, pad(prev.cells, m.width, filler(m)), prev, false)));
    }
    edits.push(insertLines(doc, at.line, [m.rowLine(at.indent, cells, prev, true)]));
  }
  return applyEdits(doc.source, edits);
}

export function deleteDatasetRow(doc: NomaDocument, op: PatchOpOf<"delete_dataset_row">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  const r = dataRow(m, op.row);
  const edits: TextEdit[] = [deleteLines(doc, r.line, r.line + 1)];
  if (m.format === "json" && op.row === m.rows.length - 1 && op.row > 0) {
    const prev = m.rows[op.row - 1]!;
    edits.push(replaceLineContent(doc, prev.line, m.rowLine(prev.indent, prev.cells, prev, true)));
  }
  return applyEdits(doc.source, edits);
}

export function insertDatasetColumn(doc: NomaDocument, op: PatchOpOf<"insert_dataset_column">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  const c = columnIndex(m, op.column, true);
  if (m.columns !== null && m.columns.includes(op.header)) fail(`Dataset "${op.id}" already has a column "${op.header}".`);
  const given = op.cells ?? [];
  if (given.length > m.rows.length) fail(`${given.length} cells given, but dataset "${op.id}" has ${m.rows.length} rows.`);
  const raw = given.map((v) => (v === null ? "" : String(v)));
  const meta = m.insertColumnMeta(c, op.header, op.type, raw);
  const type = op.type ?? (raw.length > 0 && raw.every((v) => v !== "" && Number.isFinite(Number(v))) ? "number" : "string");
  const format = (v: Cell | undefined): string => {
    if (v === undefined) return filler(m);
    if (m.format === "yaml") return yamlScalar(v, type, `column ${op.header}`);
    if (m.format === "json") return NUMERIC_TYPES.has(type) && v !== "" ? JSON.stringify(toNumber(v, `column ${op.header}`)) : JSON.stringify(v);
    return m.cell(v, c);
  };
  const edits: TextEdit[] = [...meta];
  m.rows.forEach((r, i) => {
    const cells = pad(r.cells, m.width, filler(m));
    cells.splice(c, 0, format(given[i]));
    edits.push(replaceLineContent(doc, r.line, m.rowLine(r.indent, cells, r, i === m.rows.length - 1)));
  });
  return applyEdits(doc.source, edits);
}

export function deleteDatasetColumn(doc: NomaDocument, op: PatchOpOf<"delete_dataset_column">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  const c = columnIndex(m, op.column);
  if (m.width <= 1) fail(`Dataset "${op.id}" has only one column; delete the dataset instead.`);
  const edits: TextEdit[] = [...m.deleteColumnMeta(c)];
  m.rows.forEach((r, i) => {
    const cells = pad(r.cells, m.width, filler(m));
    cells.splice(c, 1);
    edits.push(replaceLineContent(doc, r.line, m.rowLine(r.indent, cells, r, i === m.rows.length - 1)));
  });
  return applyEdits(doc.source, edits);
}
