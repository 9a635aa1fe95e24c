/**
 * Dataset ops on id-bearing ::dataset directives, by `format` (default yaml): the body's
 * shape is read by one model per format (dataset-yaml.ts, dataset-json.ts,
 * dataset-delimited.ts), which writes each change in the shape the body has. Here:
 * indexes, labels and counts are checked, and the edits applied. Shapes a model cannot
 * edit in place are invalid_content (use replace_body).
 */
import type { NomaDocument } from "../../noma/ast.js";
import { getAttr } from "../../noma/attributes.js";
import type { PatchOpOf } from "../patch-op-schema.js";
import { checkBaseHash, findDirective } from "../op-support.js";
import { applyEdits, type TextEdit } from "../text-edit.js";
import { fail, newColumnType, type DatasetModel } from "./dataset-model.js";
import { delimitedModel } from "./dataset-delimited.js";
import { jsonModel } from "./dataset-json.js";
import { yamlModel } from "./dataset-yaml.js";

function readDataset(doc: NomaDocument, id: string, baseHash: string | undefined): DatasetModel {
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

function columnIndex(m: DatasetModel, column: number | string, allowEnd = false): number {
  if (typeof column === "number") {
    if (column > (allowEnd ? m.width : m.width - 1))
      fail(`column ${column} is out of range: dataset "${m.id}" has ${m.width} column${m.width === 1 ? "" : "s"}.`);
    return column;
  }
  if (m.columns === null) {
    // A dataset that names no columns: a label written as an index ("1") is that index.
    if (/^(?:0|[1-9]\d{0,8})$/.test(column)) return columnIndex(m, Number(column), allowEnd);
    fail(`column "${column}" is a label, but dataset "${m.id}" declares no column names (use an index).`);
  }
  const i = m.columns.indexOf(column);
  if (i === -1) fail(`Dataset "${m.id}" has no column "${column}" (columns: ${m.columns.join(", ")}).`);
  return i;
}

function checkRow(m: DatasetModel, row: number): void {
  if (row >= m.rowCount) fail(`row ${row} is out of range: dataset "${m.id}" has ${m.rowCount} row${m.rowCount === 1 ? "" : "s"}.`);
}

function apply(doc: NomaDocument, edits: readonly TextEdit[]): string {
  return edits.length === 0 ? doc.source : applyEdits(doc.source, edits);
}

export function updateDatasetCell(doc: NomaDocument, op: PatchOpOf<"update_dataset_cell">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  const c = columnIndex(m, op.column);
  checkRow(m, op.row);
  return apply(doc, m.updateCell(op.row, c, op.value));
}

export function insertDatasetRow(doc: NomaDocument, op: PatchOpOf<"insert_dataset_row">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  if (op.row > m.rowCount)
    fail(`row ${op.row} is out of range for insertion: dataset "${op.id}" has ${m.rowCount} row${m.rowCount === 1 ? "" : "s"} (valid: 0–${m.rowCount}).`);
  if (m.width > 0 && op.cells.length > m.width)
    fail(`${op.cells.length} cell${op.cells.length === 1 ? "" : "s"} given, but dataset "${op.id}" has ${m.width} column${m.width === 1 ? "" : "s"}.`);
  return apply(doc, m.insertRow(op.row, op.cells));
}

export function deleteDatasetRow(doc: NomaDocument, op: PatchOpOf<"delete_dataset_row">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  checkRow(m, op.row);
  return apply(doc, m.deleteRow(op.row));
}

export function insertDatasetColumn(doc: NomaDocument, op: PatchOpOf<"insert_dataset_column">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  // Every field is written, or the op refused naming it: a body that names no columns has no
  // place for the header (the reference refuses a JSON array of rows without a header row).
  if (m.columns === null)
    fail(
      `header: dataset "${op.id}" names no columns (no header row, schema or columns list), so the header "${op.header}" has nowhere to go; name ` +
        `the columns with replace_body first.`,
    );
  if (op.type !== undefined && m.noTypes !== null)
    fail(
      `type: dataset "${op.id}" declares no column types (${m.noTypes}), so the type "${op.type}" has nowhere to go; leave type out (cells are ` +
        `still written as the values they are).`,
    );
  const c = columnIndex(m, op.column, true);
  if (m.columns.includes(op.header)) fail(`Dataset "${op.id}" already has a column "${op.header}".`);
  const given = op.cells ?? [];
  if (given.length > m.rowCount)
    fail(`${given.length} cell${given.length === 1 ? "" : "s"} given, but dataset "${op.id}" has ${m.rowCount} row${m.rowCount === 1 ? "" : "s"}.`);
  // A row without a given cell gets the empty text (as insert_table_column gives it), written like any value.
  const cells = [...given];
  while (cells.length < m.rowCount) cells.push("");
  return apply(doc, m.insertColumn(c, op.header, newColumnType(op.type, given), cells));
}

export function deleteDatasetColumn(doc: NomaDocument, op: PatchOpOf<"delete_dataset_column">): string {
  const m = readDataset(doc, op.id, op.baseHash);
  const c = columnIndex(m, op.column);
  if (m.width <= 1) fail(`Dataset "${op.id}" has only one column; delete the dataset instead.`);
  return apply(doc, m.deleteColumn(c));
}
