/**
 * Column names of a YAML ::dataset body without the YAML library, for the shapes
 * datasets are written in: a top-level block mapping whose `schema:` is a block
 * mapping of column → type (or whose `columns:` lists the names), with `rows:` as a
 * block sequence of one-line flow sequences or plain scalars.
 *
 * Sound, not complete: it answers only for bodies inside a small subset of YAML
 * whose meaning it knows exactly (plain keys that resolve to strings, plain or
 * simply quoted scalars, one-line flow sequences of them, one level of nesting,
 * uniform indentation, no tabs, anchors, tags, documents or duplicate keys) and
 * returns `undefined` for anything else, so the caller asks the YAML library.
 * Within the subset its answer is the library's (property-tested against it).
 * `validate` asks for a dataset's columns for every ::plot that names a column,
 * and the library is costly on a body before V8 optimizes it (docs/perf/check.md).
 */

const SPACE = 32;
const HASH = 35;
const MINUS = 45;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
/** YAML refuses implicit keys longer than 1024 characters; stay well inside. */
const MAX_KEY = 256;

/** A plain key YAML's core schema reads as this very string (no number, boolean or null). */
const KEY = /^[A-Za-z_][A-Za-z0-9_. -]*$/;
const NOT_STRING_KEY = new Set(["true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL"]);
/** A plain scalar that is valid anywhere here (block or flow context): no indicator anywhere. */
const PLAIN = /^(?:[A-Za-z0-9_]|[-+.][A-Za-z0-9_])[A-Za-z0-9_ .+\-/%]*$/;
const DOUBLE_QUOTED = /^"[^"\\]*"$/;
const SINGLE_QUOTED = /^'[^']*'$/;

function isKey(s: string): boolean {
  return s.length <= MAX_KEY && KEY.test(s) && s.charCodeAt(s.length - 1) !== SPACE && !NOT_STRING_KEY.has(s);
}

function isScalar(s: string): boolean {
  return PLAIN.test(s) ? s.charCodeAt(s.length - 1) !== SPACE : DOUBLE_QUOTED.test(s) || SINGLE_QUOTED.test(s);
}

/** A one-line flow sequence of scalars without commas or brackets in them: `[a, 1.5, "b"]`, `[]`. */
function isFlowSequence(s: string): boolean {
  if (s.charCodeAt(0) !== OPEN_BRACKET || s.charCodeAt(s.length - 1) !== CLOSE_BRACKET) return false;
  const inner = s.slice(1, -1).trim();
  if (inner.length === 0) return true;
  for (const item of inner.split(",")) {
    const t = item.trim();
    if (t.length === 0 || !isScalar(t) || t.includes("[") || t.includes("]")) return false;
  }
  return true;
}

/** A value written on its key's line (or after `- `): a scalar or a flow sequence. */
function isInlineValue(s: string): boolean {
  return isScalar(s) || isFlowSequence(s);
}

/** The line without a trailing ` # comment` (only where no scalar can hold `#`), or null when a `#` is not a comment start. */
function withoutComment(s: string): string | null {
  const hash = s.indexOf("#");
  if (hash === -1) return s;
  if (hash > 0 && s.charCodeAt(hash - 1) !== SPACE) return null;
  return s.slice(0, hash).trimEnd();
}

function indentOf(line: string): number {
  let k = 0;
  while (k < line.length && line.charCodeAt(k) === SPACE) k++;
  return k;
}

/** `key: value` or `key:` → [key, value ("" when none)], or null. */
function keyLine(content: string): [string, string] | null {
  const colon = content.indexOf(":");
  if (colon <= 0) return null;
  if (colon + 1 < content.length && content.charCodeAt(colon + 1) !== SPACE) return null;
  const key = content.slice(0, colon);
  if (!isKey(key)) return null;
  return [key, content.slice(colon + 1).trim()];
}

interface Entry {
  key: string;
  /** The value on the key's line ("" when it holds a block or nothing). */
  inline: string;
  /** Keys of a nested block mapping, or items of a nested block sequence. */
  mapping?: string[];
  sequence?: string[];
}

/**
 * The columns of a YAML dataset body (`null` when it declares none), or `undefined` when the
 * body is outside the subset this reader knows (ask the YAML library).
 */
export function yamlDatasetColumns(lines: readonly string[]): string[] | null | undefined {
  // Significant lines: [indent, content without comment].
  const sig: Array<[number, string]> = [];
  for (const line of lines) {
    if (line.includes("\t")) return undefined;
    const indent = indentOf(line);
    if (indent === line.length || line.charCodeAt(indent) === HASH) continue;
    const content = withoutComment(line.slice(indent).trimEnd());
    if (content === null || content.length === 0) return undefined;
    sig.push([indent, content]);
  }
  if (sig.length === 0) return undefined;
  const entries: Entry[] = [];
  const seen = new Set<string>();
  let k = 0;
  while (k < sig.length) {
    const [indent, content] = sig[k]!;
    if (indent !== 0) return undefined;
    const kv = keyLine(content);
    if (kv === null || seen.has(kv[0])) return undefined;
    seen.add(kv[0]);
    const entry: Entry = { key: kv[0], inline: kv[1] };
    k++;
    if (entry.inline.length > 0) {
      if (!isInlineValue(entry.inline)) return undefined;
    } else if (k < sig.length) {
      const [childIndent, child] = sig[k]!;
      if (child.charCodeAt(0) === MINUS && (child.length === 1 || child.charCodeAt(1) === SPACE)) {
        // A block sequence (at the key's own indentation or deeper): `- value` items.
        const items: string[] = [];
        while (k < sig.length && sig[k]![0] === childIndent && sig[k]![1].charCodeAt(0) === MINUS) {
          const item = sig[k]![1];
          if (item.length < 3 || item.charCodeAt(1) !== SPACE) return undefined;
          const value = item.slice(2).trim();
          if (!isInlineValue(value)) return undefined;
          items.push(value);
          k++;
        }
        if (k < sig.length && sig[k]![0] !== 0) return undefined;
        entry.sequence = items;
      } else if (childIndent > 0) {
        // A block mapping: `key: value` lines at one indentation.
        const keys: string[] = [];
        const nested = new Set<string>();
        while (k < sig.length && sig[k]![0] === childIndent) {
          const inner = keyLine(sig[k]![1]);
          if (inner === null || nested.has(inner[0])) return undefined;
          // An empty value would open a deeper block; only a null at the end of the mapping is known here.
          if (inner[1].length === 0 ? k + 1 < sig.length && sig[k + 1]![0] > childIndent : !isInlineValue(inner[1])) return undefined;
          nested.add(inner[0]);
          keys.push(inner[0]);
          k++;
        }
        if (k < sig.length && sig[k]![0] !== 0) return undefined;
        entry.mapping = keys;
      }
    }
    entries.push(entry);
  }
  const schema = entries.find((e) => e.key === "schema");
  if (schema?.mapping !== undefined) return objectKeys(schema.mapping);
  const columns = entries.find((e) => e.key === "columns");
  if (columns === undefined) return null;
  // Names must read as the strings they are written as (a number or a boolean would be converted).
  let names: string[] | undefined;
  if (columns.sequence !== undefined) names = columns.sequence;
  else if (columns.inline.length > 0 && isFlowSequence(columns.inline)) {
    const inner = columns.inline.slice(1, -1).trim();
    names = inner.length === 0 ? [] : inner.split(",").map((s) => s.trim());
  }
  if (names === undefined) return null;
  for (const n of names) if (!isKey(n)) return undefined;
  return names;
}

/** Keys in the order a JavaScript object lists them (YAML's `toJS` builds one). */
function objectKeys(keys: readonly string[]): string[] {
  const o: Record<string, true> = {};
  for (const key of keys) o[key] = true;
  return Object.keys(o);
}
