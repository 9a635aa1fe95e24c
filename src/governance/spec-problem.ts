/**
 * A problem in a spec file: where (file, YAML path, line, column), what was
 * expected, and what was found. Codes are stable kebab-case strings.
 */

export type SpecProblemCode =
  /** The file is not well-formed YAML (syntax, duplicate key, several documents). */
  | "yaml-syntax"
  /** The root is not a mapping. */
  | "not-a-mapping"
  /** `schema_version` is missing, not a string, or not a supported version. */
  | "bad-schema-version"
  /** A required key is missing. */
  | "missing-key"
  /** A key the schema does not allow (objects are closed). */
  | "unknown-key"
  /** A value of the wrong type. */
  | "wrong-type"
  /** A value outside the allowed set. */
  | "bad-value"
  /** A list that must not be empty is empty, or a number is out of range. */
  | "out-of-range"
  /** A string in the wrong format (e.g. a date that is not a real YYYY-MM-DD date). */
  | "bad-format"
  /** A `$ref` that names no spec file. */
  | "missing-ref"
  /** `$ref`s that form a cycle. */
  | "ref-cycle"
  /** The file could not be read (not a regular file, no permission, not UTF-8 text). */
  | "unreadable"
  /** The file is over the size cap on spec files (size-limits.ts): it is not parsed. */
  | "too-large"
  /** A glob the matcher refuses (too long, nested too deep, a backreference). */
  | "glob-unsupported";

export interface SpecProblem {
  /** Repository-relative POSIX path of the spec file. */
  file: string;
  /** YAML path of the offending node, e.g. `behaviors[0].then` ("" for the document). */
  path: string;
  /** 1-based line and column of the offending node (1:1 when the file is empty). */
  line: number;
  column: number;
  code: SpecProblemCode;
  expected: string;
  found: string;
  message: string;
}

/** `file:line:col: path: message` — one line per problem. */
export function formatSpecProblem(p: SpecProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.path.length > 0 ? `${p.path}: ` : ""}${p.message} [${p.code}]`;
}

/** Render a YAML path (`["behaviors", 0, "then"]` → `behaviors[0].then`). */
export function yamlPathString(path: readonly PropertyKey[]): string {
  let out = "";
  for (const seg of path) {
    if (typeof seg === "number") out += `[${seg}]`;
    else {
      const key = String(seg);
      if (/^[A-Za-z_$][\w$-]*$/.test(key)) out += out.length > 0 ? `.${key}` : key;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/** A short description of a found value, for messages. */
export function describeFound(v: unknown): string {
  if (v === undefined) return "nothing";
  if (v === null) return "null";
  if (typeof v === "string") return `string ${JSON.stringify(v.length > 60 ? `${v.slice(0, 57)}...` : v)}`;
  if (typeof v === "number" || typeof v === "boolean" || typeof v === "bigint") return `${typeof v} ${String(v)}`;
  if (Array.isArray(v)) return v.length === 0 ? "an empty list" : `a list of ${v.length}`;
  if (typeof v === "object") return "a mapping";
  return typeof v;
}
