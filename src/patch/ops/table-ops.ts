/**
 * Table ops on id-bearing ::table directives. Rows are the non-blank lines of
 * the body, with or without outer pipes; separator rows (|---|) are skipped
 * for indexing. With the `header` flag, row 0 is the header and `row` counts
 * body rows from 0; `column` is a 0-based index or a header label. A cell edit
 * rewrites only its row as `| a | b |` (indentation kept); column ops rewrite
 * every row. `|` outside backticks is escaped. A body of one column is not a table (the
 * grammar's separator row has at least two cells): every op on it is invalid_content.
 */
import type { DirectiveNode, NomaDocument } from "../../noma/ast.js";
import { getAttr } from "../../noma/attributes.js";
import { lineText } from "../../noma/parse-noma.js";
import { isTableRow, splitOnPipes } from "../../noma/table-row.js";
import { PatchError } from "../patch-error.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import { checkBaseHash, findDirective } from "../op-support.js";
import { applyEdits, deleteLines, insertLines, replaceLineContent, type TextEdit } from "../text-edit.js";

interface Row {
  line: number; // 0-based
  indent: string;
  cells: string[];
  separator: boolean;
}

interface Table {
  node: DirectiveNode;
  header: Row | null;
  body: Row[];
  all: Row[];
  width: number;
}

const SEP = /^:?-+:?$/;
const SEP_ONE = /^:?-{3,}:?$/;

/**
 * A separator row: every cell `:?-+:?` and at least two of them (the parser's rule); or, for
 * a one-column table, `| --- |` (outer pipes, three dashes or more) right after the first
 * row. So a `-` cell of a one-column table is a cell.
 */
function isSeparator(text: string, cells: readonly string[], index: number): boolean {
  if (cells.length >= 2) return cells.every((c) => SEP.test(c));
  return index === 1 && cells.length === 1 && isTableRow(text.trim()) && SEP_ONE.test(cells[0]!);
}

function splitRow(text: string): string[] {
  let t = text.trim();
  if (t.startsWith("|")) t = t.slice(1);
  if (t.endsWith("|") && !t.endsWith("\\|")) t = t.slice(0, -1);
  return splitOnPipes(t).map((c) => c.trim());
}

function readTable(doc: NomaDocument, id: string, baseHash: string | undefined): Table {
  const node = findDirective(doc, id);
  checkBaseHash(doc, node, baseHash, `table "${id}"`);
  if (node.name !== "table") throw new PatchError("invalid_content", `"${id}" is a ::${node.name} block; table ops need a ::table block.`);
  if (!node.closed) throw new PatchError("invalid_content", `Table "${id}" is never closed.`);
  const all: Row[] = [];
  for (let i = node.pos.line; i < node.endLine - 1; i++) {
    const text = lineText(doc, i);
    if (text.trim().length === 0) continue;
    const cells = splitRow(text);
    all.push({ line: i, indent: /^\s*/.exec(text)![0], cells, separator: isSeparator(text, cells, all.length) });
  }
  const rows = all.filter((r) => !r.separator);
  const hasHeader = getAttr(node.attrs, "header") !== undefined && getAttr(node.attrs, "header") !== false;
  const header = hasHeader ? (rows[0] ?? null) : null;
  const body = hasHeader ? rows.slice(1) : rows;
  const width = Math.max(0, ...rows.map((r) => r.cells.length));
  // By the table grammar (a separator row has at least two cells), one column is not a table
  // the ops can address: the reference answers invalid_content (issue 27).
  if (width === 1)
    throw new PatchError(
      "invalid_content",
      `Table "${id}" has one column; a table has at least two (a separator row needs two cells). Rewrite it with replace_body.`,
    );
  return { node, header, body, all, width };
}

/** Escape `|` outside backtick code spans (already-escaped pipes stay as they are). */
function escapeCell(value: string | number | boolean): string {
  const s = String(value);
  if (/[\r\n]/.test(s)) throw new PatchError("invalid_content", "A table cell cannot contain a line break.");
  let out = "";
  let code = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "`") code = !code;
    if (c === "\\" && s[i + 1] === "|") {
      out += "\\|";
      i++;
      continue;
    }
    out += c === "|" && !code ? "\\|" : c;
  }
  return out.trim();
}

function formatRow(indent: string, cells: readonly string[]): string {
  return `${indent}| ${cells.join(" | ")} |`;
}

function pad(cells: readonly string[], width: number): string[] {
  const out = [...cells];
  while (out.length < width) out.push("");
  return out;
}

function columnIndex(t: Table, column: number | string, allowEnd = false): number {
  if (typeof column === "number") {
    const max = allowEnd ? t.width : t.width - 1;
    if (column > max)
      throw new PatchError("invalid_content", `column ${column} is out of range: table "${t.node.id}" has ${t.width} column${t.width === 1 ? "" : "s"}.`);
    return column;
  }
  if (t.header === null)
    throw new PatchError("invalid_content", `column "${column}" is a label, but table "${t.node.id}" has no header (add the \`header\` flag or use an index).`);
  const i = t.header.cells.indexOf(column);
  if (i === -1) throw new PatchError("invalid_content", `Table "${t.node.id}" has no column "${column}" (columns: ${t.header.cells.join(", ")}).`);
  return i;
}

function bodyRow(t: Table, row: number): Row {
  const r = t.body[row];
  if (r === undefined) throw new PatchError("invalid_content", `row ${row} is out of range: table "${t.node.id}" has ${t.body.length} body rows.`);
  return r;
}

export function updateTableCell(doc: NomaDocument, op: PatchOpOf<"update_table_cell">): string {
  const t = readTable(doc, op.id, op.baseHash);
  const c = columnIndex(t, op.column);
  const r = bodyRow(t, op.row);
  const value = escapeCell(op.value);
  // A noop only when the row has that cell with that text: a row shorter than the table is
  // rewritten padded, even for an empty value (the reference applies it, issue 27).
  if (r.cells[c] === value) return doc.source;
  const cells = pad(r.cells, t.width);
  cells[c] = value;
  return applyEdits(doc.source, [replaceLineContent(doc, r.line, formatRow(r.indent, cells))]);
}

export function updateTableHeaderCell(doc: NomaDocument, op: PatchOpOf<"update_table_header_cell">): string {
  const t = readTable(doc, op.id, op.baseHash);
  if (t.header === null) throw new PatchError("invalid_content", `Table "${op.id}" has no header row (it lacks the \`header\` flag).`);
  const c = columnIndex(t, op.column);
  const value = escapeCell(op.value);
  if (t.header.cells[c] === value) return doc.source;
  const cells = pad(t.header.cells, t.width);
  cells[c] = value;
  return applyEdits(doc.source, [replaceLineContent(doc, t.header.line, formatRow(t.header.indent, cells))]);
}

export function insertTableRow(doc: NomaDocument, op: PatchOpOf<"insert_table_row">): string {
  const t = readTable(doc, op.id, op.baseHash);
  if (op.row > t.body.length)
    throw new PatchError(
      "invalid_content",
      `row ${op.row} is out of range for insertion: table "${op.id}" has ${t.body.length} body rows (valid: 0–${t.body.length}).`,
    );
  if (op.cells.length > Math.max(t.width, 1) && t.width > 0)
    throw new PatchError(
      "invalid_content",
      `${op.cells.length} cell${op.cells.length === 1 ? "" : "s"} given, but table "${op.id}" has ${t.width} column${t.width === 1 ? "" : "s"}.`,
    );
  const cells = pad(op.cells.map(escapeCell), t.width);
  const anchor = t.body[op.row];
  const ref = anchor ?? t.body[t.body.length - 1] ?? t.header;
  const line = formatRow(ref?.indent ?? "", cells);
  const at = anchor !== undefined ? anchor.line : ref !== null && ref !== undefined ? lastLineOfRowBlock(t, ref) + 1 : t.node.pos.line;
  return applyEdits(doc.source, [insertLines(doc, at, [line])]);
}

/** A header may be followed by a separator row: insertions after the header go after it. */
function lastLineOfRowBlock(t: Table, row: Row): number {
  const i = t.all.indexOf(row);
  const next = t.all[i + 1];
  return next?.separator ? next.line : row.line;
}

export function deleteTableRow(doc: NomaDocument, op: PatchOpOf<"delete_table_row">): string {
  const t = readTable(doc, op.id, op.baseHash);
  const r = bodyRow(t, op.row);
  return applyEdits(doc.source, [deleteLines(doc, r.line, r.line + 1)]);
}

function rewriteAll(doc: NomaDocument, t: Table, change: (cells: string[], row: Row) => string[]): string {
  const edits: TextEdit[] = t.all.map((r) => replaceLineContent(doc, r.line, formatRow(r.indent, change(pad(r.cells, t.width), r))));
  return applyEdits(doc.source, edits);
}

export function insertTableColumn(doc: NomaDocument, op: PatchOpOf<"insert_table_column">): string {
  const t = readTable(doc, op.id, op.baseHash);
  const c = columnIndex(t, op.column, true);
  if (t.header !== null && op.header === undefined) throw new PatchError("invalid_content", `Table "${op.id}" has a header row; give the new column a header.`);
  // Every field is written, or the op refused naming it.
  if (t.header === null && op.header !== undefined)
    throw new PatchError(
      "invalid_content",
      `header: table "${op.id}" has no header row (it lacks the \`header\` flag), so the header ${JSON.stringify(String(op.header))} has nowhere to ` +
        `go; leave header out, or set the flag first.`,
    );
  const cells = op.cells ?? [];
  if (cells.length > t.body.length)
    throw new PatchError(
      "invalid_content",
      `${cells.length} cell${cells.length === 1 ? "" : "s"} given, but table "${op.id}" has ${t.body.length} body row${t.body.length === 1 ? "" : "s"}.`,
    );
  return rewriteAll(doc, t, (row, r) => {
    let value: string;
    if (r.separator) value = "---";
    else if (r === t.header) value = escapeCell(op.header ?? "");
    else value = escapeCell(cells[t.body.indexOf(r)] ?? "");
    row.splice(c, 0, value);
    return row;
  });
}

export function deleteTableColumn(doc: NomaDocument, op: PatchOpOf<"delete_table_column">): string {
  const t = readTable(doc, op.id, op.baseHash);
  const c = columnIndex(t, op.column);
  if (t.width <= 1) throw new PatchError("invalid_content", `Table "${op.id}" has only one column; delete the table instead.`);
  return rewriteAll(doc, t, (row) => {
    row.splice(c, 1);
    return row;
  });
}
