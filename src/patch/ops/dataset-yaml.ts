/**
 * YAML dataset bodies (the default format): an optional `schema:` map of `name: type`
 * lines and `rows:` as a block list whose items are
 *
 * - one-line flow arrays: `- [legal, 3.4]`
 * - one-line flow maps: `- {vertical: legal, growth: 3.4}`
 * - block maps: `- vertical: legal` then `  growth: 3.4` (a key per line)
 * - block lists: `- - legal` then `  - 3.4` (a value per line)
 *
 * (a `-` alone on its line may put the first key or value on the next line); the body may
 * also be the list of rows alone, without `rows:`. Column names
 * come from the schema, else from the rows' keys. Rows are written back in the shape they
 * have: a flow row is rewritten on its line (cells joined with `, `), a block row gets the
 * one line of its key or value changed, added or removed. New rows copy the shape and
 * indentation of their neighbour. Values are coerced by the column's schema type (else the
 * type its values show). Multi-line values, nested structures and flow rows spread over
 * several lines are invalid_content (use replace_body).
 */
import type { DirectiveNode, NomaDocument } from "../../noma/ast.js";
import { lineText } from "../../noma/parse-noma.js";
import { deleteLines, insertLines, replaceLineContent, replaceLines, type TextEdit } from "../text-edit.js";
import { asBoolean, asNumber, fail, indentWidth, NUMERIC_TYPES, type Cell, type DatasetModel } from "./dataset-model.js";
import { quoteStyleOf, yamlText, type YamlQuoteStyle } from "./yaml-scalar.js";

const YAML_NUMBER = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

/**
 * A value as a YAML scalar, coerced by the column's type: text that reads as a number in a
 * numeric column is written as that number, `true`/`false` in a boolean column as the
 * boolean. A value the type cannot take is written as what it is (a number or boolean as
 * such, text as a string), not refused: the reference applies it.
 */
export function yamlScalar(value: Cell, type: string | undefined, what: string, style: YamlQuoteStyle = "plain"): string {
  if (value === null) return "null";
  const t = (type ?? "string").toLowerCase();
  if (NUMERIC_TYPES.has(t)) {
    const n = asNumber(value);
    if (n !== undefined) return String(n);
    if (typeof value === "boolean") return String(value);
  }
  if (t === "boolean" || t === "bool") {
    const b = asBoolean(value);
    if (b !== undefined) return String(b);
    if (typeof value === "number") return String(value);
  }
  if (t === "any" && typeof value !== "string") return String(value);
  const s = String(value);
  if (/[\r\n]/.test(s)) fail(`${what} cannot contain a line break.`);
  // Plain when a reader gives the text back as written (yaml-scalar.ts), in the body's style.
  return yamlText(s, style);
}

/**
 * Split a YAML flow collection's inside (`a, "b, c", 3`) on top-level commas. A quote opens a
 * quoted scalar only where a scalar starts (after `,`, `[`, `{`, `:` or at the start): in
 * `O'Neil` it is a character of the text.
 */
function splitFlow(body: string): string[] {
  if (body.trim().length === 0) return [];
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  /** The last character before `i` that is not a space ("" at the start). */
  let prev = "";
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quote !== "") {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) {
        // '' inside single quotes is a quote.
        if (quote === "'" && body[i + 1] === "'") i++;
        else quote = "";
      }
      prev = c;
      continue;
    }
    const opens = prev === "" || prev === "," || prev === "[" || prev === "{" || prev === ":";
    if (c !== " " && c !== "\t") prev = c;
    if ((c === '"' || c === "'") && opens) quote = c;
    else if (c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i).trim());
      start = i + 1;
      prev = "";
    }
  }
  out.push(body.slice(start).trim());
  return out;
}

/** The end of a value's text on its line: before a ` #` comment outside quotes, trailing spaces trimmed. */
function valueEnd(text: string, from: number): number {
  let quote = "";
  let end = text.length;
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote !== "") {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
      continue;
    }
    if ((c === '"' || c === "'") && i === from) quote = c;
    else if (c === "#" && (i === from || text[i - 1] === " " || text[i - 1] === "\t")) {
      end = i;
      break;
    }
  }
  while (end > from && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return end;
}

/** One key or value of a block row, on its own line. */
interface Item {
  line: number; // 0-based
  key?: string;
  /** The value's text is line[from, to). */
  from: number;
  to: number;
  raw: string;
}

interface FlowRowBase {
  first: number;
  last: number;
  dash: string;
  /** A space inside the brackets (`[ a, b ]`), or none. */
  pad: string;
  /** What follows the collection on its line (spaces and a comment), kept when the row is rewritten. */
  tail: string;
  cells: string[];
  keys: string[];
}

interface BlockRowBase {
  first: number;
  last: number;
  dash: string;
  itemIndent: string;
  /** Whether the first item is on the dash line (`- a: 1`) rather than below a lone `-`. */
  onDash: boolean;
  items: Item[];
}

type Row = (FlowRowBase & { kind: "flow-seq" }) | (FlowRowBase & { kind: "flow-map" }) | (BlockRowBase & { kind: "map" }) | (BlockRowBase & { kind: "seq" });

const KEY_VALUE = /^([^\s#'"{}[\],:-][^:#]*?|"[^"]*"|'[^']*'):(?:[ \t]+|$)/;

export function yamlModel(doc: NomaDocument, node: DirectiveNode): DatasetModel {
  const id = node.id!;
  const lines: Array<{ i: number; text: string }> = [];
  for (let i = node.pos.line; i < node.endLine - 1; i++) lines.push({ i, text: lineText(doc, i) });
  const content = lines.filter((l) => {
    const k = indentWidth(l.text);
    const c = l.text.charCodeAt(k);
    return k < l.text.length && c !== 35 /* # */ && l.text.trim().length > 0;
  });
  if (content.some((l) => /^\s*\t/.test(l.text))) fail(`Dataset "${id}": YAML indentation must use spaces.`);
  const base = content.length > 0 ? indentWidth(content[0]!.text) : 0;

  // Top-level sections.
  const schema: Array<{ name: string; type: string; line: number; indent: string }> = [];
  const rowLines: Array<{ i: number; text: string }> = [];
  const columnLines: Array<{ i: number; text: string }> = [];
  let columnsLine = -1;
  let columnsInline = "";
  let section = "";
  let rowsLine = -1;
  let rowsInline = false;
  // A body that is only the list of rows (no `rows:` key).
  if (content.length > 0 && /^-(?:\s|$)/.test(content[0]!.text.slice(base))) {
    section = "rows";
    rowsLine = content[0]!.i - 1;
  }
  for (const l of content) {
    const ind = indentWidth(l.text);
    const rest = l.text.slice(ind);
    if (ind < base) fail(`Dataset "${id}": line ${l.i + 1} is indented less than the body.`);
    if (ind === base && !(section === "rows" && /^-(?:\s|$)/.test(rest))) {
      const top = /^([A-Za-z_][\w-]*):(?:[ \t]+(.*?))?[ \t]*$/.exec(rest);
      if (top === null) fail(`Dataset "${id}": line ${l.i + 1} is not a "key:" line of the body.`);
      section = top[1]!;
      if (section === "columns") {
        columnsLine = l.i;
        columnsInline = (top[2] ?? "").replace(/\s+#.*$/, "");
      }
      if (section === "rows") {
        rowsLine = l.i;
        const v = (top[2] ?? "").replace(/\s+#.*$/, "");
        if (v === "[]") rowsInline = true;
        else if (v !== "") fail(`Dataset "${id}": rows must be a block list (one "- " item per row); use replace_body for other shapes.`);
      }
      continue;
    }
    if (section === "schema") {
      const m = /^(\s+)("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s:#'"][^:#]*?)\s*:\s*([^#]*?)\s*(?:#.*)?$/.exec(l.text);
      if (m === null) fail(`Dataset "${id}": schema line ${l.i + 1} is not "name: type".`);
      schema.push({ name: unquote(m[2]!), type: unquote(m[3]!), line: l.i, indent: m[1]! });
    } else if (section === "rows") rowLines.push(l);
    else if (section === "columns") columnLines.push(l);
  }
  if (rowsLine === -1) fail(`Dataset "${id}" has no rows: list; use replace_body for other shapes.`);

  // Rows: each starts with "-" at the rows' indentation; deeper lines continue it.
  const rows: Row[] = [];
  const rowIndent = rowLines.length > 0 ? indentWidth(rowLines[0]!.text) : base + 2;
  let k = 0;
  while (k < rowLines.length) {
    const head = rowLines[k]!;
    if (indentWidth(head.text) !== rowIndent || !/^-(?:\s|$)/.test(head.text.slice(rowIndent))) {
      fail(`Dataset "${id}": line ${head.i + 1} is not a "- " row item.`);
    }
    const group = [head];
    k++;
    while (k < rowLines.length && indentWidth(rowLines[k]!.text) > rowIndent) group.push(rowLines[k++]!);
    rows.push(readRow(id, group, rowIndent));
  }

  // Without a schema, a `columns:` list names the columns (as the validator reads it).
  const list = schema.length === 0 && columnsLine !== -1 ? readColumnList(id, columnsLine, columnsInline, columnLines) : null;
  const columns: string[] | null =
    schema.length > 0
      ? schema.map((s) => s.name)
      : list !== null
        ? list.entries.map((e) => e.name)
        : rows.some((r) => r.kind === "map" || r.kind === "flow-map")
          ? unionKeys(rows)
          : null;
  const width = Math.max(columns?.length ?? 0, ...rows.map((r) => (r.kind === "seq" ? r.items.length : r.kind === "flow-seq" ? r.cells.length : 0)));

  const rawCells = (c: number): string[] => {
    const out: string[] = [];
    for (const r of rows) {
      const v = rawCell(r, c, columns);
      if (v !== undefined) out.push(v);
    }
    return out;
  };
  const columnType = (c: number): string => {
    const declared = schema[c]?.type ?? list?.entries[c]?.type;
    if (declared !== undefined) return declared;
    const seen = rawCells(c).filter((v) => v !== "" && v !== "null" && v !== "~");
    if (seen.length > 0 && seen.every((v) => YAML_NUMBER.test(v))) return "number";
    if (seen.length > 0 && seen.every((v) => v === "true" || v === "false")) return "boolean";
    // No value to go by: a number or boolean given is written as one.
    return seen.length === 0 ? "any" : "string";
  };
  // How the rows write text (plain, or always quoted one way): new text is written the same way.
  let styleMemo: YamlQuoteStyle | undefined;
  const style = (): YamlQuoteStyle =>
    (styleMemo ??= quoteStyleOf(rows.flatMap((r) => (r.kind === "flow-seq" || r.kind === "flow-map" ? r.cells : r.items.map((it) => it.raw)))));
  const cellText = (value: Cell, c: number): string => yamlScalar(value, columnType(c), `column ${columns?.[c] ?? c}`, style());
  const colIndex = (key: string): number => {
    const i = columns?.indexOf(key) ?? -1;
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  const line = (i: number): string => lineText(doc, i);

  /** A block row's item line for value `v` (and key, for maps), the first on the dash line or not. */
  const itemLine = (r: Extract<Row, { kind: "map" | "seq" }>, key: string | undefined, v: string, onDash: boolean): string => {
    const body = r.kind === "map" ? `${key}: ${v}` : `- ${v}`;
    return onDash ? `${r.dash}- ${body}` : `${r.itemIndent}${body}`;
  };
  /** The text of item `it` without its indentation (and without the row's dash when it is on the dash line). */
  const itemBody = (r: Extract<Row, { kind: "map" | "seq" }>, it: Item): string => {
    const t = line(it.line);
    return r.onDash && it === r.items[0] ? t.slice(/^\s*-\s+/.exec(t)![0].length) : t.trimStart();
  };
  /** Insert value `v` (with `key` for maps) as item `index` of a block row. */
  const insertItem = (r: Extract<Row, { kind: "map" | "seq" }>, index: number, key: string | undefined, v: string): TextEdit => {
    if (index === 0 && r.onDash && r.items.length > 0) {
      // The new item takes the dash line; the old first item moves to a line of its own.
      const first = r.items[0]!;
      return replaceLines(doc, first.line, first.line + 1, [itemLine(r, key, v, true), `${r.itemIndent}${itemBody(r, first)}`]);
    }
    if (r.items.length === 0) return replaceLines(doc, r.first, r.first + 1, [itemLine(r, key, v, true)]);
    const at = index < r.items.length ? r.items[index]!.line : r.items[r.items.length - 1]!.line + 1;
    return insertLines(doc, at, [itemLine(r, key, v, false)]);
  };
  /** Remove item `index` of a block row (the next item moves onto the dash line when needed). */
  const removeItem = (r: Extract<Row, { kind: "map" | "seq" }>, index: number): TextEdit => {
    const it = r.items[index]!;
    if (index === 0 && r.onDash) {
      const next = r.items[1];
      if (next === undefined) return replaceLineContent(doc, it.line, `${r.dash}- ${r.kind === "map" ? "{}" : "[]"}`);
      return replaceLines(doc, it.line, next.line + 1, [`${r.dash}- ${itemBody(r, next)}`]);
    }
    return deleteLines(doc, it.line, it.line + 1);
  };
  const setItem = (it: Item, v: string): TextEdit[] => {
    if (it.raw === v) return [];
    const t = line(it.line);
    const space = it.from > 0 && t[it.from - 1] !== " " && t[it.from - 1] !== "\t" ? " " : "";
    return [replaceLineContent(doc, it.line, t.slice(0, it.from) + space + v + t.slice(it.to))];
  };
  const flowLine = (r: Extract<Row, { kind: "flow-seq" | "flow-map" }>, cells: readonly string[], keys: readonly string[]): string =>
    r.kind === "flow-seq"
      ? `${r.dash}- [${r.pad}${cells.join(", ")}${r.pad}]${r.tail}`
      : `${r.dash}- {${r.pad}${keys.map((key, i) => `${key}: ${cells[i]}`).join(", ")}${r.pad}}${r.tail}`;
  /** Where a map row's key for column `c` goes: before the first key of a later column. */
  const keyIndex = (keys: readonly string[], c: number): number => {
    const i = keys.findIndex((key) => colIndex(key) >= c);
    return i === -1 ? keys.length : i;
  };
  const mapKeys = (r: Row): string[] => (r.kind === "map" ? r.items.map((it) => it.key!) : r.kind === "flow-map" ? r.keys : []);

  /** Set column `c` of row `r` to the value text `v`: one edit, or none when it holds it already. */
  const setCell = (r: Row, c: number, v: string): TextEdit[] => {
    if (r.kind === "flow-seq") {
      if (r.cells[c] === v) return [];
      const cells = [...r.cells];
      while (cells.length < c) cells.push("null");
      cells[c] = v;
      return [replaceLineContent(doc, r.first, flowLine(r, cells, []))];
    }
    const key = columns?.[c];
    if (r.kind === "flow-map") {
      const at = r.keys.indexOf(key!);
      if (at !== -1 && r.cells[at] === v) return [];
      const keys = [...r.keys];
      const cells = [...r.cells];
      if (at !== -1) cells[at] = v;
      else {
        const i = keyIndex(keys, c);
        keys.splice(i, 0, key!);
        cells.splice(i, 0, v);
      }
      return [replaceLineContent(doc, r.first, flowLine(r, cells, keys))];
    }
    if (r.kind === "map") {
      const it = r.items.find((x) => x.key === key);
      return it !== undefined ? setItem(it, v) : [insertItem(r, keyIndex(mapKeys(r), c), key, v)];
    }
    const it = r.items[c];
    if (it !== undefined) return setItem(it, v);
    if (c === r.items.length) return [insertItem(r, c, undefined, v)];
    // Pad a short block list with nulls, then the value.
    const lines = [];
    for (let x = r.items.length; x < c; x++) lines.push(itemLine(r, undefined, "null", false));
    lines.push(itemLine(r, undefined, v, false));
    return [insertLines(doc, r.items[r.items.length - 1]!.line + 1, lines)];
  };

  /** The lines of a new row shaped like `t` (or a flow array when there is no row to copy). */
  const newRow = (t: Row | undefined, values: readonly string[]): string[] => {
    const dash = t?.dash ?? " ".repeat(rowIndent);
    if (t === undefined || t.kind === "flow-seq") return [`${dash}- [${t?.pad ?? ""}${values.join(", ")}${t?.pad ?? ""}]`];
    if (t.kind === "flow-map") return [flowLine({ ...t, tail: "" }, values, columns!)];
    const keys = t.kind === "map" ? columns! : values.map(() => undefined);
    const out = keys.map((key, i) => itemLine(t, key, values[i] ?? "null", t.onDash && i === 0));
    return t.onDash ? out : [`${dash}-`, ...out];
  };

  // A new column's type goes into the schema, or into a columns: list of {name, type} entries.
  const noTypes =
    schema.length > 0 || list?.entries[0]?.type !== undefined
      ? null
      : list !== null
        ? "its columns: list holds names only"
        : "it has no schema: of name: type lines";
  return {
    id,
    columns,
    rowCount: rows.length,
    width,
    noTypes,
    updateCell(row, c, value) {
      return setCell(rows[row]!, c, cellText(value, c));
    },
    insertRow(row, cells) {
      const values: string[] = [];
      for (let c = 0; c < Math.max(width, cells.length); c++) values.push(c < cells.length ? cellText(cells[c]!, c) : "null");
      const anchor = rows[row];
      const t = anchor ?? rows[rows.length - 1];
      const text = newRow(t, values);
      if (anchor !== undefined) return [insertLines(doc, anchor.first, text)];
      if (t !== undefined) return [insertLines(doc, t.last + 1, text)];
      const edits: TextEdit[] = [];
      if (rowsInline) edits.push(replaceLineContent(doc, rowsLine, line(rowsLine).replace(/:\s*\[\]/, ":")));
      edits.push(insertLines(doc, rowsLine + 1, text));
      return edits;
    },
    deleteRow(row) {
      const r = rows[row]!;
      return [deleteLines(doc, r.first, r.last + 1)];
    },
    insertColumn(c, header, type, cells) {
      const edits: TextEdit[] = [];
      if (schema.length > 0) {
        const at = c < schema.length ? schema[c]!.line : schema[schema.length - 1]!.line + 1;
        edits.push(
          insertLines(doc, at, [`${schema[0]!.indent}${yamlScalar(header, "string", "a column name")}: ${yamlScalar(type, "string", "a column type")}`]),
        );
      } else if (list !== null) edits.push(list.insert(doc, c, header, type));
      rows.forEach((r, i) => {
        const v = i < cells.length ? yamlScalar(cells[i]!, type, `column ${header}`, style()) : "null";
        if (r.kind === "flow-seq") {
          const next = [...r.cells];
          while (next.length < c) next.push("null");
          next.splice(c, 0, v);
          edits.push(replaceLineContent(doc, r.first, flowLine(r, next, [])));
        } else if (r.kind === "flow-map") {
          const at = keyIndex(r.keys, c);
          const keys = [...r.keys];
          const next = [...r.cells];
          keys.splice(at, 0, header);
          next.splice(at, 0, v);
          edits.push(replaceLineContent(doc, r.first, flowLine(r, next, keys)));
        } else if (r.kind === "map") {
          edits.push(insertItem(r, keyIndex(mapKeys(r), c), header, v));
        } else if (c <= r.items.length) {
          edits.push(insertItem(r, c, undefined, v));
        } else {
          edits.push(...setCell(r, c, v));
        }
      });
      return edits;
    },
    deleteColumn(c) {
      const edits: TextEdit[] = [];
      const entry = schema[c];
      if (entry !== undefined) edits.push(deleteLines(doc, entry.line, entry.line + 1));
      else if (list !== null && c < list.entries.length) edits.push(list.remove(doc, c));
      for (const r of rows) {
        if (r.kind === "flow-seq") {
          if (c < r.cells.length)
            edits.push(
              replaceLineContent(
                doc,
                r.first,
                flowLine(
                  r,
                  r.cells.filter((_, i) => i !== c),
                  [],
                ),
              ),
            );
        } else if (r.kind === "flow-map") {
          const at = r.keys.indexOf(columns![c]!);
          if (at !== -1)
            edits.push(
              replaceLineContent(
                doc,
                r.first,
                flowLine(
                  r,
                  r.cells.filter((_, i) => i !== at),
                  r.keys.filter((_, i) => i !== at),
                ),
              ),
            );
        } else {
          const at = r.kind === "map" ? r.items.findIndex((it) => it.key === columns![c]) : c < r.items.length ? c : -1;
          if (at !== -1) edits.push(removeItem(r, at));
        }
      }
      return edits;
    },
  };
}

function unionKeys(rows: readonly Row[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    const keys = r.kind === "map" ? r.items.map((it) => it.key!) : r.kind === "flow-map" ? r.keys : [];
    for (const k of keys) if (!out.includes(k)) out.push(k);
  }
  return out;
}

/** The text of column `c` in row `r` as written, or undefined when the row has none. */
function rawCell(r: Row, c: number, columns: readonly string[] | null): string | undefined {
  if (r.kind === "flow-seq") return r.cells[c];
  if (r.kind === "seq") return r.items[c]?.raw;
  const key = columns?.[c];
  if (key === undefined) return undefined;
  if (r.kind === "flow-map") {
    const i = r.keys.indexOf(key);
    return i === -1 ? undefined : r.cells[i];
  }
  return r.items.find((it) => it.key === key)?.raw;
}

/** One key (`key: value`) or value (`- value`) starting at column `at` of a line. */
function readItem(id: string, l: { i: number; text: string }, at: number, kind: "map" | "seq"): Item {
  const rest = l.text.slice(at);
  let key: string | undefined;
  let from: number;
  if (kind === "map") {
    const m = KEY_VALUE.exec(rest);
    if (m === null) fail(`Dataset "${id}": line ${l.i + 1} is not a "key: value" line of a row.`);
    key = unquote(m[1]!);
    from = at + m[0].length;
  } else {
    const m = /^-(?:[ \t]+|$)/.exec(rest);
    if (m === null) fail(`Dataset "${id}": line ${l.i + 1} is not a "- value" line of a row.`);
    from = at + m[0].length;
  }
  const to = valueEnd(l.text, from);
  const raw = l.text.slice(from, to);
  if (/^[|>]/.test(raw)) fail(`Dataset "${id}": line ${l.i + 1} starts a multi-line value; use replace_body.`);
  if (/^["']/.test(raw) && (raw.length < 2 || raw[raw.length - 1] !== raw[0]))
    fail(`Dataset "${id}": line ${l.i + 1} has a quoted value that continues on the next line; use replace_body.`);
  if (/^-(?:\s|$)/.test(raw) || (kind === "seq" && KEY_VALUE.test(raw)))
    fail(`Dataset "${id}": line ${l.i + 1} nests a list or map inside a cell; use replace_body.`);
  return key !== undefined ? { line: l.i, key, from, to, raw } : { line: l.i, from, to, raw };
}

/** A row from its lines: the "- " line and the deeper lines after it. */
function readRow(id: string, group: ReadonlyArray<{ i: number; text: string }>, rowIndent: number): Row {
  const head = group[0]!;
  const dash = head.text.slice(0, rowIndent);
  const after = head.text.slice(rowIndent + 1);
  const lead = after.length - after.trimStart().length;
  const contentCol = rowIndent + 1 + lead;
  const end = valueEnd(head.text, contentCol);
  const content = head.text.slice(contentCol, end);
  const tail = head.text.slice(end);
  if (content.startsWith("[") || content.startsWith("{")) {
    const close = content.startsWith("[") ? "]" : "}";
    if (group.length > 1 || !content.endsWith(close))
      fail(`Dataset "${id}": the row at line ${head.i + 1} is a flow collection over several lines; use replace_body.`);
    const inner = content.slice(1, -1);
    const pad = inner.startsWith(" ") && inner.endsWith(" ") && inner.trim().length > 0 ? " " : "";
    const parts = splitFlow(inner);
    if (close === "]") return { kind: "flow-seq", first: head.i, last: head.i, dash, pad, tail, cells: parts, keys: [] };
    const keys: string[] = [];
    const cells: string[] = [];
    for (const p of parts) {
      const m = /^([^:]+?)\s*:(?:\s+(.*))?$/.exec(p);
      if (m === null) fail(`Dataset "${id}": "${p}" at line ${head.i + 1} is not a "key: value" pair.`);
      keys.push(unquote(m[1]!));
      cells.push((m[2] ?? "").trim());
    }
    return { kind: "flow-map", first: head.i, last: head.i, dash, pad, tail, cells, keys };
  }
  // A block row: its kind from its first item (on the dash line, or on the next line).
  const onDash = content.length > 0;
  const firstLine = onDash ? head : group[1];
  if (firstLine === undefined) fail(`Dataset "${id}": the row at line ${head.i + 1} is empty.`);
  const firstCol = onDash ? contentCol : indentWidth(firstLine.text);
  const firstText = firstLine.text.slice(firstCol);
  const kind: "map" | "seq" = /^-(?:\s|$)/.test(firstText)
    ? "seq"
    : KEY_VALUE.test(firstText)
      ? "map"
      : fail(`Dataset "${id}": the row at line ${head.i + 1} is a single value, not a list or a map of cells.`);
  const items: Item[] = [readItem(id, firstLine, firstCol, kind)];
  for (const l of group.slice(onDash ? 1 : 2)) {
    if (indentWidth(l.text) !== firstCol)
      fail(`Dataset "${id}": line ${l.i + 1} is indented unlike the row's other cells (a nested or multi-line value); use replace_body.`);
    items.push(readItem(id, l, firstCol, kind));
  }
  if (kind === "map") {
    const seen = new Set<string>();
    for (const it of items) {
      if (seen.has(it.key!)) fail(`Dataset "${id}": the row at line ${head.i + 1} has the key "${it.key}" twice.`);
      seen.add(it.key!);
    }
  }
  return { kind, first: head.i, last: group[group.length - 1]!.i, dash, itemIndent: " ".repeat(firstCol), onDash, items };
}

/** One name of a `columns:` list: a scalar (`vertical`) or a flow map (`{name: growth, type: number}`). */
interface ColumnEntry {
  name: string;
  type?: string;
  /** The line of a block-list item (-1 in a flow list). */
  line: number;
  /** The item as written (without `- ` in a block list). */
  raw: string;
}

interface ColumnList {
  entries: ColumnEntry[];
  insert(doc: NomaDocument, c: number, name: string, type: string): TextEdit;
  remove(doc: NomaDocument, c: number): TextEdit;
}

/** A scalar's text: a quoted one unquoted (`\"` and `''` read back), a plain one as it is. */
function unquote(s: string): string {
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      return JSON.parse(s) as string;
    } catch {
      return s.slice(1, -1);
    }
  }
  return s;
}

function columnEntry(id: string, raw: string, line: number, at: number): ColumnEntry {
  if (raw.startsWith("{")) {
    if (!raw.endsWith("}")) fail(`Dataset "${id}": the column entry at line ${at + 1} is a flow map over several lines; use replace_body.`);
    const pairs = new Map<string, string>();
    for (const p of splitFlow(raw.slice(1, -1))) {
      const m = /^([^:]+?)\s*:(?:\s+(.*))?$/.exec(p);
      if (m === null) fail(`Dataset "${id}": "${p}" at line ${at + 1} is not a "key: value" pair.`);
      pairs.set(unquote(m[1]!), unquote((m[2] ?? "").trim()));
    }
    const name = pairs.get("name");
    if (name === undefined) fail(`Dataset "${id}": the column entry at line ${at + 1} has no name.`);
    const type = pairs.get("type");
    return type !== undefined ? { name, type, line, raw } : { name, line, raw };
  }
  if (raw.startsWith("[") || raw.startsWith("-") || KEY_VALUE.test(raw))
    fail(`Dataset "${id}": the column entry at line ${at + 1} is not a name; use replace_body.`);
  return { name: unquote(raw), line, raw };
}

/**
 * A `columns:` list: a flow list on its key line (`columns: [vertical, growth]`), or a block
 * list below it (`  - vertical`), of names or `{name, type}` flow maps. A new column is
 * written like its neighbours (a plain name, or a flow map with the keys they have).
 */
function readColumnList(id: string, keyLine: number, inline: string, lines: ReadonlyArray<{ i: number; text: string }>): ColumnList {
  const newEntry = (entries: readonly ColumnEntry[], name: string, type: string): string => {
    const like = entries[0];
    const listStyle = quoteStyleOf(entries.map((e) => (e.raw.startsWith("{") ? "" : e.raw)));
    const written = yamlScalar(name, "string", "a column name", listStyle);
    if (like === undefined || !like.raw.startsWith("{")) return written;
    const pad = like.raw.startsWith("{ ") ? " " : "";
    return `{${pad}name: ${written}${like.type !== undefined ? `, type: ${yamlScalar(type, "string", "a column type")}` : ""}${pad}}`;
  };
  if (inline !== "") {
    if (!inline.startsWith("[") || !inline.endsWith("]")) fail(`Dataset "${id}": columns at line ${keyLine + 1} is not a list of names; use replace_body.`);
    if (lines.length > 0) fail(`Dataset "${id}": line ${lines[0]!.i + 1} follows a flow list of columns.`);
    const inner = inline.slice(1, -1);
    const pad = inner.startsWith(" ") && inner.endsWith(" ") && inner.trim().length > 0 ? " " : "";
    const items = splitFlow(inner);
    const entries = items.map((raw) => columnEntry(id, raw, -1, keyLine));
    const rewrite = (doc: NomaDocument, next: readonly string[]): TextEdit => {
      const text = lineText(doc, keyLine);
      const open = text.indexOf("[");
      const close = text.lastIndexOf("]");
      return replaceLineContent(doc, keyLine, `${text.slice(0, open)}[${pad}${next.join(", ")}${pad}]${text.slice(close + 1)}`);
    };
    return {
      entries,
      insert: (doc, c, name, type) => rewrite(doc, [...items.slice(0, c), newEntry(entries, name, type), ...items.slice(c)]),
      remove: (doc, c) =>
        rewrite(
          doc,
          items.filter((_, k) => k !== c),
        ),
    };
  }
  const entries: ColumnEntry[] = [];
  let dash = "";
  for (const l of lines) {
    const m = /^(\s*)-[ \t]+(.*)$/.exec(l.text);
    if (m === null) fail(`Dataset "${id}": line ${l.i + 1} is not a "- name" item of the columns list; use replace_body.`);
    if (entries.length === 0) dash = m[1]!;
    else if (m[1] !== dash) fail(`Dataset "${id}": line ${l.i + 1} is indented unlike the other column names.`);
    entries.push(columnEntry(id, m[2]!.slice(0, valueEnd(m[2]!, 0)), l.i, l.i));
  }
  return {
    entries,
    insert: (doc, c, name, type) => {
      const at = c < entries.length ? entries[c]!.line : entries.length > 0 ? entries[entries.length - 1]!.line + 1 : keyLine + 1;
      return insertLines(doc, at, [`${entries.length > 0 ? dash : "  "}- ${newEntry(entries, name, type)}`]);
    },
    remove: (doc, c) => deleteLines(doc, entries[c]!.line, entries[c]!.line + 1),
  };
}
