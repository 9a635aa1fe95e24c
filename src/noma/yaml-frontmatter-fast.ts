/**
 * Frontmatter of the shapes documents are written in, read without the YAML library.
 *
 * Almost every document opens with a few `key: value` lines (titles, dates, owners, a
 * profile, aliases as a flow or block list); loading the YAML library for them is a large
 * part of a one-shot `check` or `patch` of a small document (docs/perf/check.md). This reader takes that subset — top-level keys
 * of letters, digits, `_` and `-`; values that are plain scalars, quoted strings without
 * escapes, one-line flow lists of such scalars, or a block list of them under an empty
 * key — and types plain scalars as YAML 1.2's core schema does (null, booleans, decimal
 * integers and floats; everything else a string). Anything else, and anything it is
 * unsure of (comments, tabs, anchors, tags, nested maps, multi-line scalars, escapes,
 * number-like words it does not type, duplicate keys), returns `undefined` and the
 * library reads the text as before. A property test requires the library's value
 * wherever this reader answers.
 */

/** The mapping the frontmatter `raw` holds, or `undefined` when the YAML library must read it. */
export function readSimpleFrontmatter(raw: string): Record<string, unknown> | undefined {
  if (raw.length === 0 || /[\t\r#&*!|>%@`\\{}\x00-\x09\x0b-\x1f\x7f-\x9f\ufeff\u2028\u2029]/.test(raw)) return undefined;
  const lines = raw.split("\n");
  const out: Record<string, unknown> = {};
  let listKey: string | undefined;
  let list: unknown[] | undefined;
  let listIndent = -1;
  let any = false;
  for (const line of lines) {
    if (/^ *$/.test(line)) continue;
    if (list !== undefined) {
      const item = /^( *)- +(.*)$/.exec(line);
      if (item !== null) {
        const indent = (item[1] as string).length;
        if (listIndent === -1) listIndent = indent;
        else if (indent !== listIndent) return undefined;
        const v = scalar((item[2] as string).replace(/ +$/, ""), false);
        if (v === NOT_SIMPLE) return undefined;
        list.push(v);
        continue;
      }
      if (list.length === 0) out[listKey as string] = null;
      list = undefined;
    }
    const m = /^([A-Za-z_][A-Za-z0-9_-]*):( +(.*))?$/.exec(line);
    if (m === null) return undefined;
    const key = m[1] as string;
    if (key === "__proto__" || Object.hasOwn(out, key) || isCoreKeyword(key)) return undefined;
    any = true;
    const text = (m[3] ?? "").replace(/ +$/, "");
    if (text.length === 0) {
      listKey = key;
      list = [];
      listIndent = -1;
      out[key] = list;
      continue;
    }
    const v = text.startsWith("[") ? flowList(text) : scalar(text, false);
    if (v === NOT_SIMPLE) return undefined;
    out[key] = v;
  }
  if (list !== undefined && list.length === 0) out[listKey as string] = null;
  return any ? out : undefined;
}

const NOT_SIMPLE = Symbol("not simple");

/** `[a, b, "c"]` on one line, or NOT_SIMPLE. */
function flowList(text: string): unknown[] | typeof NOT_SIMPLE {
  if (!text.endsWith("]")) return NOT_SIMPLE;
  const inner = text.slice(1, -1);
  if (/^ *$/.test(inner)) return [];
  const out: unknown[] = [];
  for (const part of inner.split(",")) {
    const item = part.replace(/^ +| +$/g, "");
    if (item.length === 0) return NOT_SIMPLE; // a trailing or doubled comma
    const v = scalar(item, true);
    if (v === NOT_SIMPLE) return NOT_SIMPLE;
    out.push(v);
  }
  return out;
}

/** One scalar (already trimmed), typed as the core schema does, or NOT_SIMPLE. */
function scalar(text: string, inFlow: boolean): unknown {
  if (text.length === 0) return NOT_SIMPLE;
  const first = text.charCodeAt(0);
  if (first === 0x22 /* " */ || first === 0x27 /* ' */) {
    const q = text[0] as string;
    if (text.length < 2 || !text.endsWith(q)) return NOT_SIMPLE;
    const body = text.slice(1, -1);
    // No escapes (excluded above) and no quote inside: a doubled '' or a stray quote is left to the library.
    if (body.includes(q)) return NOT_SIMPLE;
    if (inFlow && /[,[\]]/.test(body)) return NOT_SIMPLE;
    return body;
  }
  // Indicators that cannot start a plain scalar, or change what follows.
  if (/^[-?:,[\]{}#&*!|>'"%@`~]/.test(text)) return NOT_SIMPLE;
  if (/: |:$/.test(text)) return NOT_SIMPLE;
  if (inFlow && /[[\]{},:]/.test(text)) return NOT_SIMPLE;
  if (isCoreKeyword(text)) return keywordValue(text);
  if (/^[+.0-9]/.test(text)) {
    if (/^[+]?(0|[1-9][0-9]*)$/.test(text)) return Number(text);
    if (/^[+]?(0|[1-9][0-9]*)\.[0-9]+$/.test(text)) return Number(text);
    if (/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text)) return text; // a date: a string in YAML 1.2's core schema
    return NOT_SIMPLE;
  }
  return text;
}

function isCoreKeyword(text: string): boolean {
  return /^(null|Null|NULL|true|True|TRUE|false|False|FALSE)$/.test(text);
}

function keywordValue(text: string): unknown {
  const lower = text.toLowerCase();
  return lower === "null" ? null : lower === "true";
}
