/**
 * JSON dataset bodies: an array of rows (its first row the header when every cell of it is
 * text, as a CSV's first line), an array of records, or `{"columns": [...], "rows": [...]}`
 * (columns as names or `{"name", "type"}` objects), in any layout — one row per line,
 * pretty-printed over several lines, or all on one line.
 *
 * The body is parsed with the span of every value (json-spans.ts) and edited in place: a
 * cell edit replaces that value's text, a new row or key copies the layout of its
 * neighbour (its line breaks, indentation, spacing after `,` and `:`), a removed one takes
 * the comma and the whitespace that separated it. Every other character stays as written.
 */
import type { DirectiveNode, NomaDocument } from "../../noma/ast.js";
import { documentEol, type TextEdit } from "../text-edit.js";
import { JsonSpanError, parseJsonSpans, type JsonArraySpan, type JsonEntrySpan, type JsonObjectSpan, type JsonSpan } from "../json-spans.js";
import { asBoolean, asNumber, fail, NUMERIC_TYPES, type Cell, type DatasetModel } from "./dataset-model.js";

type Container = JsonArraySpan | JsonObjectSpan;
type Row = Container;
/** An item of a container: an array's value or an object's entry. */
type Item = { start: number; end: number };

function itemsOf(c: Container): Item[] {
  return c.kind === "array" ? c.items : c.entries;
}

export function jsonModel(doc: NomaDocument, node: DirectiveNode): DatasetModel {
  const id = node.id!;
  // The body's text, from the line after the opener to the start of the closing line.
  const base = doc.lineStarts[node.pos.line]!;
  const text = doc.source.slice(base, doc.lineStarts[node.endLine - 1]!);
  let root: JsonSpan;
  try {
    root = parseJsonSpans(text);
  } catch (e) {
    if (!(e instanceof JsonSpanError)) throw e;
    const line = node.pos.line + 1 + (text.slice(0, e.offset).match(/\r\n|\r|\n/g)?.length ?? 0);
    return fail(`Dataset "${id}" is not valid JSON (line ${line}): ${e.message}.`);
  }
  let rowsNode: JsonArraySpan;
  /** The column names: a `columns` list, or the header row of an array of rows. */
  let columnsNode: JsonArraySpan | undefined;
  if (root.kind === "array") rowsNode = root;
  else if (root.kind === "object" && root.entries.some((e) => e.key === "rows" && e.value.kind === "array")) {
    rowsNode = root.entries.find((e) => e.key === "rows")!.value as JsonArraySpan;
    const cols = root.entries.find((e) => e.key === "columns")?.value;
    if (cols !== undefined && cols.kind === "array") columnsNode = cols;
  } else
    return fail(
      `Dataset "${id}": JSON must be an array of rows, an array of records, or {"columns": [...], "rows": [...]}; use replace_body for other shapes.`,
    );

  const rows = rowsNode.items;
  const records = rows.length > 0 && rows.every((r) => r.kind === "object");
  if (rows.some((r) => r.kind !== (records ? "object" : "array"))) fail(`Dataset "${id}": JSON rows must all be arrays or all be records.`);
  // An array of rows whose first row is all text is read as a CSV is: that row is the header
  // (column names and labels), `row` counts the rows after it, and column ops edit it too.
  const first = rows[0];
  const headerRow =
    root.kind === "array" && first !== undefined && first.kind === "array" && first.items.length > 0 && first.items.every((v) => v.kind === "string")
      ? first
      : undefined;
  if (headerRow !== undefined) columnsNode = headerRow;
  /** Index in `rows` of data row 0. */
  const skip = headerRow !== undefined ? 1 : 0;
  const rowList = (skip > 0 ? rows.slice(skip) : rows) as Row[];

  // Column names and declared types.
  let columns: string[] | null = null;
  const declaredTypes: Array<string | undefined> = [];
  if (columnsNode !== undefined) {
    columns = columnsNode.items.map((c) => {
      if (c.kind === "object") {
        const name = c.entries.find((e) => e.key === "name")?.value;
        const type = c.entries.find((e) => e.key === "type")?.value;
        declaredTypes.push(type !== undefined && type.kind === "string" ? String(type.value) : undefined);
        return name !== undefined && name.kind !== "array" && name.kind !== "object" ? String(name.value) : "";
      }
      declaredTypes.push(undefined);
      return c.kind !== "array" ? String(c.value) : "";
    });
  } else if (records) {
    const seen: string[] = [];
    for (const r of rowList as JsonObjectSpan[]) for (const e of r.entries) if (!seen.includes(e.key)) seen.push(e.key);
    columns = seen;
  }
  const width = Math.max(columns?.length ?? 0, ...rowList.map((r) => (r.kind === "array" ? r.items.length : 0)));
  // Where a new column's type is written: column objects that carry one.
  const firstColumn = columnsNode?.items[0];
  const noTypes =
    firstColumn !== undefined && firstColumn.kind === "object" && firstColumn.entries.some((e) => e.key === "type")
      ? null
      : headerRow !== undefined
        ? "its header row holds names only"
        : columnsNode !== undefined
          ? 'its "columns" are names without a "type"'
          : "its records' keys are names only";

  // ---- layout ----------------------------------------------------------------
  const eol = documentEol(doc);
  const slice = (a: number, b: number): string => text.slice(a, b);
  /** Offset of the comma after `item` (the next non-space character). */
  const commaAfter = (item: Item): number => {
    let k = item.end;
    while (/\s/.test(text[k] ?? "")) k++;
    return k;
  };
  // Spaced (`, ` and `: `) unless the body writes commas right against the next value
  // (read only when no neighbour shows the layout).
  let spacedMemo: boolean | undefined;
  const isSpaced = (): boolean => {
    if (spacedMemo === undefined) {
      const bare = stripStrings(text);
      spacedMemo = !/,[^\s]/.test(bare) || /, /.test(bare);
    }
    return spacedMemo;
  };
  /** The whitespace that follows a comma between two items of `c`. */
  const sepGap = (c: Container): string => {
    const items = itemsOf(c);
    if (items.length >= 2) return slice(commaAfter(items[0]!) + 1, items[1]!.start);
    if (items.length === 1) {
      const open = slice(c.start + 1, items[0]!.start);
      if (/[\r\n]/.test(open)) return open;
    }
    return isSpaced() ? " " : "";
  };
  const colonOf = (o: JsonObjectSpan | undefined): string => {
    const e = o?.entries[0];
    return e !== undefined ? slice(e.keyEnd, e.value.start) : isSpaced() ? ": " : ":";
  };
  /** A new container written like `template` (its opening and closing whitespace and separators). */
  const formatLike = (template: Container | undefined, kind: "array" | "object", parts: readonly string[]): string => {
    const [open, close] = kind === "array" ? ["[", "]"] : ["{", "}"];
    if (parts.length === 0) return open + close;
    const items = template !== undefined ? itemsOf(template) : [];
    if (template === undefined || items.length === 0) return open + parts.join(`,${isSpaced() ? " " : ""}`) + close;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    return open + slice(template.start + 1, first.start) + parts.join(`,${sepGap(template)}`) + slice(last.end, template.end - 1) + close;
  };
  const at = (offset: number, to: number, insert: string): TextEdit => ({ from: base + offset, to: base + to, insert });
  /** Insert item texts at index `index` of container `c`. */
  const insertItems = (c: Container, index: number, texts: readonly string[]): TextEdit => {
    const items = itemsOf(c);
    if (items.length === 0) {
      const inner = slice(c.start + 1, c.end - 1);
      if (/[\r\n]/.test(inner)) {
        // A multi-line empty container: one item per line, indented one step past its closing line.
        const closeIndent = /[ \t]*$/.exec(inner)![0];
        return at(c.start + 1, c.end - 1, `${eol}${closeIndent}  ${texts.join(`,${eol}${closeIndent}  `)}${eol}${closeIndent}`);
      }
      return at(c.start + 1, c.end - 1, texts.join(`,${isSpaced() ? " " : ""}`));
    }
    const sep = `,${sepGap(c)}`;
    if (index < items.length) return at(items[index]!.start, items[index]!.start, texts.join(sep) + sep);
    return at(items[items.length - 1]!.end, items[items.length - 1]!.end, sep + texts.join(sep));
  };
  /** Remove item `index` of `c` with the comma and whitespace that separated it. */
  const removeItem = (c: Container, index: number): TextEdit => {
    const items = itemsOf(c);
    if (items.length === 1) return at(c.start + 1, c.end - 1, "");
    if (index < items.length - 1) return at(items[index]!.start, items[index + 1]!.start, "");
    return at(items[index - 1]!.end, items[index]!.end, "");
  };

  // ---- values ----------------------------------------------------------------
  const cellsOf = (c: number): JsonSpan[] => {
    const out: JsonSpan[] = [];
    for (const r of rowList) {
      const v = r.kind === "array" ? r.items[c] : r.entries.find((e) => e.key === columns![c])?.value;
      if (v !== undefined) out.push(v);
    }
    return out;
  };
  const columnType = (c: number): string => {
    const declared = declaredTypes[c];
    if (declared !== undefined) return declared.toLowerCase();
    const seen = cellsOf(c).filter((v) => v.kind !== "null");
    if (seen.length > 0 && seen.every((v) => v.kind === "number")) return "number";
    if (seen.length > 0 && seen.every((v) => v.kind === "boolean")) return "boolean";
    return "other";
  };
  /**
   * A value as JSON, coerced by the column's type (declared, else what its values show:
   * "other" keeps the value's own type). A value the type cannot take is written as what it
   * is (text as a string), not refused: the reference applies it.
   */
  const valueText = (value: Cell, type: string): string => {
    if (value === null) return "null";
    const t = type.toLowerCase();
    if (NUMERIC_TYPES.has(t)) {
      const n = asNumber(value);
      if (n !== undefined) return JSON.stringify(n);
    }
    if (t === "boolean" || t === "bool") {
      const b = asBoolean(value);
      if (b !== undefined) return String(b);
    }
    if (t === "string" || t === "str" || t === "text") return JSON.stringify(String(value));
    return JSON.stringify(value);
  };
  const cellText = (value: Cell, c: number): string => valueText(value, columnType(c));
  const colIndex = (key: string): number => {
    const i = columns?.indexOf(key) ?? -1;
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  /** Where a record's entry for column `c` goes: before the first entry of a later column. */
  const entryIndex = (r: JsonObjectSpan, c: number): number => {
    const i = r.entries.findIndex((e) => colIndex(e.key) >= c);
    return i === -1 ? r.entries.length : i;
  };
  const entryText = (r: JsonObjectSpan | undefined, key: string, value: string): string => `${JSON.stringify(key)}${colonOf(r)}${value}`;
  const template = (row: number): Row | undefined => rowList[row] ?? rowList[rowList.length - 1] ?? headerRow;

  return {
    id,
    columns,
    rowCount: rowList.length,
    width,
    noTypes,
    updateCell(row, c, value) {
      const r = rowList[row]!;
      const v = cellText(value, c);
      if (r.kind === "array") {
        const cur = r.items[c];
        if (cur !== undefined) return slice(cur.start, cur.end) === v ? [] : [at(cur.start, cur.end, v)];
        const fill: string[] = [];
        for (let k = r.items.length; k < c; k++) fill.push("null");
        return [insertItems(r, r.items.length, [...fill, v])];
      }
      const entry = r.entries.find((e) => e.key === columns![c]);
      if (entry !== undefined) return slice(entry.value.start, entry.value.end) === v ? [] : [at(entry.value.start, entry.value.end, v)];
      return [insertItems(r, entryIndex(r, c), [entryText(r, columns![c]!, v)])];
    },
    insertRow(row, cells) {
      const values: string[] = [];
      for (let c = 0; c < Math.max(width, cells.length); c++) values.push(c < cells.length ? cellText(cells[c]!, c) : "null");
      const t = template(row);
      const text = records
        ? formatLike(
            t,
            "object",
            columns!.map((k, c) => entryText(t as JsonObjectSpan | undefined, k, values[c] ?? "null")),
          )
        : formatLike(t, "array", values);
      return [insertItems(rowsNode, row + skip, [text])];
    },
    deleteRow(row) {
      return [removeItem(rowsNode, row + skip)];
    },
    insertColumn(c, header, type, cells) {
      const edits: TextEdit[] = [];
      if (columnsNode !== undefined) {
        const first = columnsNode.items[0];
        let headerText = JSON.stringify(header);
        if (first !== undefined && first.kind === "object") {
          const parts = [entryText(first, "name", JSON.stringify(header))];
          if (first.entries.some((e) => e.key === "type")) parts.push(entryText(first, "type", JSON.stringify(type)));
          headerText = formatLike(first, "object", parts);
        }
        edits.push(insertItems(columnsNode, Math.min(c, columnsNode.items.length), [headerText]));
      }
      rowList.forEach((r, i) => {
        const v = i < cells.length ? valueText(cells[i]!, type) : "null";
        if (r.kind === "array") {
          if (c <= r.items.length) edits.push(insertItems(r, c, [v]));
          else {
            const fill: string[] = [];
            for (let k = r.items.length; k < c; k++) fill.push("null");
            edits.push(insertItems(r, r.items.length, [...fill, v]));
          }
        } else edits.push(insertItems(r, entryIndex(r, c), [entryText(r, header, v)]));
      });
      return edits;
    },
    deleteColumn(c) {
      const edits: TextEdit[] = [];
      if (columnsNode !== undefined && c < columnsNode.items.length) edits.push(removeItem(columnsNode, c));
      for (const r of rowList) {
        if (r.kind === "array") {
          if (c < r.items.length) edits.push(removeItem(r, c));
        } else {
          const k = r.entries.findIndex((e: JsonEntrySpan) => e.key === columns![c]);
          if (k !== -1) edits.push(removeItem(r, k));
        }
      }
      return edits;
    },
  };
}

/** `text` with the contents of its strings blanked (so their commas do not count as layout). */
function stripStrings(text: string): string {
  return text.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}
