/**
 * CSV and TSV dataset bodies: the first non-blank line is the header, each further
 * non-blank line a row. A changed row (and, for column ops, the header) is rewritten with
 * every cell quoted when it contains the delimiter, a quote or edge spaces (`""` for a
 * quote). A CSV written with a space after each comma (`name, n`) keeps that spacing, its
 * cells read without it. Lines keep their indentation; a new row takes its neighbour's.
 */
import type { DirectiveNode, NomaDocument } from "../../noma/ast.js";
import { lineText } from "../../noma/parse-noma.js";
import { splitDelimited } from "../../noma/split-delimited.js";
import { deleteLines, insertLines, replaceLineContent, type TextEdit } from "../text-edit.js";
import { fail, type Cell, type DatasetModel } from "./dataset-model.js";

export function delimitedModel(doc: NomaDocument, node: DirectiveNode, format: "csv" | "tsv"): DatasetModel {
  const id = node.id!;
  const delim = format === "csv" ? "," : "\t";
  // A line's leading spaces (and, in CSV, tabs) are its indentation, not part of its first
  // cell (a cell with edge spaces is written quoted): kept on a rewritten line, copied to a new one.
  const indentRe = format === "csv" ? /^[ \t]*/ : /^ */;
  const lines: Array<{ i: number; indent: string; text: string }> = [];
  for (let i = node.pos.line; i < node.endLine - 1; i++) {
    const full = lineText(doc, i);
    if (full.trim().length === 0) continue;
    const indent = indentRe.exec(full)![0];
    lines.push({ i, indent, text: full.slice(indent.length) });
  }
  if (lines.length === 0) fail(`Dataset "${id}" has no header line.`);
  const header = lines[0]!;
  // `a, b, c`: every delimiter of the header followed by one space (and the header has several cells).
  const headerCells = splitDelimited(header.text, delim);
  const spaced = format === "csv" && headerCells.length > 1 && headerCells.slice(1).every((c) => c.startsWith(" ") && !c.startsWith("  "));
  const read = (text: string): string[] => {
    const cells = splitDelimited(text, delim);
    return spaced ? cells.map((c, k) => (k > 0 && c.startsWith(" ") ? c.slice(1) : c)) : cells;
  };
  const columns = read(header.text).map((c) => c.trim());
  const rows = lines.slice(1).map((l) => ({ line: l.i, indent: l.indent, cells: read(l.text) }));
  const quote = (s: string): string => (s.includes(delim) || s.includes('"') || /^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const cellText = (value: Cell): string => {
    const s = value === null ? "" : String(value);
    if (/[\r\n]/.test(s)) fail("A dataset cell cannot contain a line break.");
    return quote(s);
  };
  const join = (cells: readonly string[]): string => cells.map(quote).join(spaced ? `${delim} ` : delim);
  const width = Math.max(columns.length, ...rows.map((r) => r.cells.length));
  const padded = (cells: readonly string[]): string[] => {
    const out = [...cells];
    while (out.length < width) out.push("");
    return out;
  };
  const text = (value: Cell): string => (value === null ? "" : String(value));

  return {
    id,
    columns,
    rowCount: rows.length,
    width,
    noTypes: `a ${format.toUpperCase()} body has no types`,
    updateCell(row, c, value) {
      const r = rows[row]!;
      cellText(value);
      const cells = padded(r.cells);
      if (cells[c] === text(value)) return [];
      cells[c] = text(value);
      return [replaceLineContent(doc, r.line, r.indent + join(cells))];
    },
    insertRow(row, cells) {
      for (const v of cells) cellText(v);
      const anchor = rows[row];
      const like = anchor ?? rows[rows.length - 1] ?? { line: header.i, indent: header.indent };
      const line = like.indent + join(padded(cells.map(text)));
      return [insertLines(doc, anchor !== undefined ? anchor.line : like.line + 1, [line])];
    },
    deleteRow(row) {
      const r = rows[row]!;
      return [deleteLines(doc, r.line, r.line + 1)];
    },
    insertColumn(c, head, _type, cells) {
      cellText(head);
      for (const v of cells) cellText(v);
      const next = [...columns];
      next.splice(c, 0, head);
      const edits: TextEdit[] = [replaceLineContent(doc, header.i, header.indent + join(next))];
      rows.forEach((r, i) => {
        const row = padded(r.cells);
        row.splice(c, 0, i < cells.length ? text(cells[i]!) : "");
        edits.push(replaceLineContent(doc, r.line, r.indent + join(row)));
      });
      return edits;
    },
    deleteColumn(c) {
      const edits: TextEdit[] = [replaceLineContent(doc, header.i, header.indent + join(columns.filter((_, k) => k !== c)))];
      for (const r of rows) edits.push(replaceLineContent(doc, r.line, r.indent + join(padded(r.cells).filter((_, k) => k !== c))));
      return edits;
    },
  };
}
