/**
 * Pure validation of one spec file's text: YAML 1.2 parse (duplicate keys and
 * multiple documents are errors), schema chosen by `schema_version`, zod issues
 * turned into problems with the YAML path, line and column of the offending
 * node, what was expected and what was found.
 */
import type { Document, LineCounter, Node as YamlNode } from "yaml";
import { yamlLib } from "../yaml/yaml-lib.js";
import { yamlToData } from "../yaml/yaml-to-data.js";
import { didYouMean } from "../errors/did-you-mean.js";
import type * as z from "zod/mini";
import { isSpecVersion, SPEC_SCHEMAS, SPEC_VERSIONS, type SpecData, type SpecVersion } from "./spec-schema.js";
import { describeFound, yamlPathString, type SpecProblem, type SpecProblemCode } from "./spec-problem.js";
import { MAX_SPEC_BYTES_ENV, maxSpecBytes, raiseHint, utf8SizeOver } from "../fsx/size-limits.js";
import { compileGlob, GlobError } from "./glob.js";

/** A `$ref` found in a spec (applies, dependencies, subsystems), with its position. */
export interface SpecRef {
  /** The field holding it. */
  field: "applies" | "dependencies" | "subsystems";
  index: number;
  /** The target as written (relative to the spec file's directory). */
  target: string;
  line: number;
  column: number;
}

/** One spec file, validated. `data` is null when the file has problems of its own. */
export interface SpecFile {
  /** Repository-relative POSIX path. */
  path: string;
  text: string;
  version: SpecVersion | null;
  data: SpecData | null;
  problems: SpecProblem[];
  refs: SpecRef[];
}

type Issue = z.core.$ZodIssue;

interface Located {
  line: number;
  column: number;
}

function position(lc: LineCounter, offset: number): Located {
  const p = lc.linePos(offset);
  return { line: p.line, column: p.col };
}

/** The deepest node along `path`, and (for a last map step) the key node of that pair. */
function locate(doc: Document, path: readonly PropertyKey[]): { node: YamlNode | null; keyNode: YamlNode | null; complete: boolean } {
  let node = doc.contents as YamlNode | null;
  let keyNode: YamlNode | null = null;
  const { isMap, isPair, isScalar, isSeq } = yamlLib();
  for (const seg of path) {
    if (node === null) return { node, keyNode, complete: false };
    if (isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg));
      if (pair === undefined) return { node, keyNode: null, complete: false };
      keyNode = pair.key as YamlNode;
      node = (pair.value as YamlNode | null) ?? keyNode;
    } else if (isSeq(node) && typeof seg === "number" && seg < node.items.length) {
      keyNode = null;
      node = node.items[seg] as YamlNode;
    } else {
      return { node, keyNode: null, complete: false };
    }
  }
  return { node, keyNode, complete: true };
}

function nodePos(lc: LineCounter, node: YamlNode | null): Located {
  const offset = node?.range?.[0];
  return offset !== undefined ? position(lc, offset) : { line: 1, column: 1 };
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[seg as string];
  }
  return v;
}

const TYPE_NAMES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "an integer",
  boolean: "true or false",
  array: "a list",
  object: "a mapping",
  record: "a mapping",
  null: "null",
};

/** Walk a zod schema along a data path to find the object schema there (for known-key lists). */
function schemaAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): z.core.$ZodType | null {
  let s: z.core.$ZodType | null = schema;
  const unwrap = (t: z.core.$ZodType): z.core.$ZodType => {
    let cur = t;
    for (;;) {
      const def = cur._zod.def as unknown as { type: string; innerType?: z.core.$ZodType };
      if ((def.type === "optional" || def.type === "nullable" || def.type === "default") && def.innerType !== undefined) cur = def.innerType;
      else return cur;
    }
  };
  for (const seg of path) {
    if (s === null) return null;
    const def = unwrap(s)._zod.def as unknown as {
      type: string;
      shape?: Record<string, z.core.$ZodType>;
      element?: z.core.$ZodType;
      valueType?: z.core.$ZodType;
    };
    if (def.type === "object" && def.shape !== undefined) s = def.shape[String(seg)] ?? null;
    else if (def.type === "array" && def.element !== undefined) s = def.element;
    else if (def.type === "record" && def.valueType !== undefined) s = def.valueType;
    else return null;
  }
  return s === null ? null : unwrap(s);
}

function knownKeys(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  const s = schemaAt(schema, path);
  const def = s?._zod.def as unknown as { type: string; shape?: Record<string, unknown> } | undefined;
  return def?.type === "object" && def.shape !== undefined ? Object.keys(def.shape) : [];
}

function suggestion(key: string, known: readonly string[]): string {
  return didYouMean(key, known);
}

function quoteList(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join(", ");
}

interface Described {
  code: SpecProblemCode;
  expected: string;
  found: string;
  message: string;
  /** For an unknown key: the key, to point at it rather than at its mapping. */
  key?: string;
}

function describeIssue(issue: Issue, data: unknown, schema: z.core.$ZodType): Described[] {
  const found = valueAt(data, issue.path);
  const f = describeFound(found);
  switch (issue.code) {
    case "invalid_type": {
      const expected = TYPE_NAMES[issue.expected] ?? issue.expected;
      if (found === undefined) {
        const key = String(issue.path[issue.path.length - 1] ?? "");
        return [{ code: "missing-key", expected: `key "${key}" (${expected})`, found: "no such key", message: `missing required key "${key}" (${expected})` }];
      }
      return [{ code: "wrong-type", expected, found: f, message: `expected ${expected}, found ${f}` }];
    }
    case "unrecognized_keys": {
      const known = knownKeys(schema, issue.path);
      return issue.keys.map((key) => ({
        code: "unknown-key" as const,
        expected: known.length > 0 ? `one of ${known.join(", ")}` : "no other keys",
        found: `key "${key}"`,
        message: `unknown key "${key}"${suggestion(key, known)}; allowed here: ${known.join(", ")}`,
        key,
      }));
    }
    case "invalid_value": {
      const expected = issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${quoteList(issue.values)}`;
      return [{ code: "bad-value", expected, found: f, message: `expected ${expected}, found ${f}` }];
    }
    case "too_small": {
      const expected =
        issue.origin === "array"
          ? Number(issue.minimum) === 1
            ? "a non-empty list"
            : `at least ${String(issue.minimum)} items`
          : `a value >= ${String(issue.minimum)}`;
      return [{ code: "out-of-range", expected, found: f, message: `expected ${expected}, found ${f}` }];
    }
    case "too_big": {
      const expected = issue.origin === "array" ? `at most ${String(issue.maximum)} items` : `a value <= ${String(issue.maximum)}`;
      return [{ code: "out-of-range", expected, found: f, message: `expected ${expected}, found ${f}` }];
    }
    case "invalid_format": {
      const expected = issue.format === "date" ? "a real calendar date written YYYY-MM-DD" : `a string in ${issue.format} format`;
      return [{ code: "bad-format", expected, found: f, message: `expected ${expected}, found ${f}` }];
    }
    case "invalid_union": {
      const expected = "a string or a list of strings";
      return [{ code: "wrong-type", expected, found: f, message: `expected ${expected}, found ${f}` }];
    }
    default:
      return [{ code: "bad-value", expected: "a valid value", found: f, message: `${issue.message} (found ${f})` }];
  }
}

function problem(file: string, path: readonly PropertyKey[], at: Located, d: Omit<Described, "key">): SpecProblem {
  return { file, path: yamlPathString(path), line: at.line, column: at.column, code: d.code, expected: d.expected, found: d.found, message: d.message };
}

function collectRefs(doc: Document, lc: LineCounter, data: Record<string, unknown>): SpecRef[] {
  const refs: SpecRef[] = [];
  for (const field of ["applies", "dependencies", "subsystems"] as const) {
    const list = data[field];
    if (!Array.isArray(list)) continue;
    list.forEach((item, index) => {
      const target = (item as Record<string, unknown> | null)?.["$ref"];
      if (typeof target !== "string") return;
      const { node } = locate(doc, [field, index, "$ref"]);
      refs.push({ field, index, target, ...nodePos(lc, node) });
    });
  }
  return refs;
}

/** The globs of `artifacts` and `exclude` the matcher refuses (governance would refuse them the same way), each at its line. */
function globProblems(file: string, doc: Document, lc: LineCounter, data: SpecData): SpecProblem[] {
  const out: SpecProblem[] = [];
  const judge = (glob: string, at: readonly PropertyKey[]): void => {
    try {
      compileGlob(glob);
    } catch (e) {
      if (!(e instanceof GlobError)) throw e;
      out.push(
        problem(file, at, nodePos(lc, locate(doc, at).node), {
          code: "glob-unsupported",
          expected: "a glob matched in linear time (at most 4,096 characters, ( and { nested at most 32 deep, no backreference)",
          found: JSON.stringify(glob.length > 80 ? `${glob.slice(0, 77)}...` : glob),
          message: e.message,
        }),
      );
    }
  };
  for (const [category, entries] of Object.entries(data.artifacts)) entries.forEach((entry, i) => judge(entry.path, ["artifacts", category, i, "path"]));
  (data.exclude ?? []).forEach((glob, i) => judge(glob, ["exclude", i]));
  return out;
}

/**
 * Validate the text of the spec file at repository-relative `path`: every problem of the file
 * in one run (a wrong `schema_version` too: the rest is judged against the schema it most likely
 * meant). A text over the size cap (size-limits.ts) is one `too-large` problem, never parsed.
 * Never throws (but for a cap set wrong in the environment).
 */
export function validateSpecText(path: string, text: string, maxBytes: number = maxSpecBytes()): SpecFile {
  const size = utf8SizeOver(text, maxBytes);
  if (size !== null) return tooLargeSpec(path, size, maxBytes);
  const { LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false, version: "1.2" });
  const result: SpecFile = { path, text, version: null, data: null, problems: [], refs: [] };
  if (doc.errors.length > 0) {
    for (const e of doc.errors) {
      const at = position(lc, e.pos[0]);
      const message = e.message.split("\n")[0]!;
      result.problems.push({
        file: path,
        path: "",
        line: at.line,
        column: at.column,
        code: "yaml-syntax",
        expected: "well-formed YAML",
        found: message,
        message: `YAML: ${message}`,
      });
    }
    // A repeated key leaves a well-formed document (the problem is at the key): the rest of the
    // file is judged too, so one run names every problem. Any other YAML error ends here.
    if (doc.errors.some((e) => e.code !== "DUPLICATE_KEY")) return result;
  }
  const converted = yamlToData(doc, lc, 1000);
  if (!converted.ok) {
    result.problems.push({
      file: path,
      path: "",
      line: converted.line,
      column: converted.column,
      code: "yaml-syntax",
      expected: "well-formed YAML with bounded aliases",
      found: converted.message,
      message: `YAML: ${converted.message}`,
    });
    return result;
  }
  const data = converted.data;
  if (data === null || typeof data !== "object" || Array.isArray(data)) {
    const f = describeFound(data === null && (doc.contents === null || text.trim().length === 0) ? undefined : data);
    result.problems.push(
      problem(path, [], nodePos(lc, doc.contents as YamlNode | null), {
        code: "not-a-mapping",
        expected: "a mapping with schema_version, intent and artifacts",
        found: f,
        message: `expected a mapping with schema_version, intent and artifacts, found ${f}`,
      }),
    );
    return result;
  }
  const record = data as Record<string, unknown>;
  const version = record["schema_version"];
  if (!isSpecVersion(version)) {
    const { node } = locate(doc, ["schema_version"]);
    const f = describeFound(version);
    const hint = typeof version === "number" ? ` (quote it: schema_version: "${String(version)}"; an unquoted ${String(version)} is a YAML number)` : "";
    const expected = `a quoted version string, one of ${quoteList(SPEC_VERSIONS)}`;
    result.problems.push(
      problem(path, ["schema_version"], nodePos(lc, version === undefined ? (doc.contents as YamlNode) : node), {
        code: version === undefined ? "missing-key" : "bad-schema-version",
        expected,
        found: version === undefined ? "no such key" : f,
        message: version === undefined ? `missing required key "schema_version" (${expected})` : `expected ${expected}, found ${f}${hint}`,
      }),
    );
  } else result.version = version;
  // A wrong version is one problem among the file's: the rest is judged against the version it
  // spells unquoted (0.7 → "0.7"), else the newest.
  const meant: SpecVersion = isSpecVersion(version)
    ? version
    : isSpecVersion(String(version))
      ? (String(version) as SpecVersion)
      : SPEC_VERSIONS[SPEC_VERSIONS.length - 1]!;
  const schema = SPEC_SCHEMAS[meant];
  const parsed = schema.safeParse(isSpecVersion(version) ? data : { ...record, schema_version: meant });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      for (const d of describeIssue(issue, data, schema)) {
        if (d.key !== undefined) {
          const { keyNode, node } = locate(doc, [...issue.path, d.key]);
          result.problems.push(problem(path, [...issue.path, d.key], nodePos(lc, keyNode ?? node), d));
        } else {
          result.problems.push(problem(path, issue.path, nodePos(lc, locate(doc, issue.path).node), d));
        }
      }
    }
  }
  {
    const tier = record["tier"];
    const behaviors = record["behaviors"];
    if (tier !== "registered" && tier !== "derived" && (!Array.isArray(behaviors) || behaviors.length === 0)) {
      const missing = behaviors === undefined;
      const { node } = locate(doc, ["behaviors"]);
      result.problems.push(
        problem(path, ["behaviors"], nodePos(lc, missing ? (doc.contents as YamlNode) : node), {
          code: missing ? "missing-key" : "out-of-range",
          expected: "a non-empty list of behaviors (required unless tier is registered or derived)",
          found: missing ? "no such key" : describeFound(behaviors),
          message: missing
            ? `missing required key "behaviors" (a non-empty list; only specs with tier registered or derived may omit it)`
            : `expected a non-empty list of behaviors (required unless tier is registered or derived), found ${describeFound(behaviors)}`,
        }),
      );
    }
  }
  if (parsed.success) result.problems.push(...globProblems(path, doc, lc, parsed.data as SpecData));
  result.refs = collectRefs(doc, lc, record);
  result.problems.sort((a, b) => a.line - b.line || a.column - b.column || a.path.localeCompare(b.path));
  if (result.problems.length === 0) result.data = parsed.data as SpecData;
  return result;
}

/** A spec file that was never parsed, with the one problem that says why (its text is not kept). */
export function unparsedSpec(path: string, problem: Omit<SpecProblem, "file" | "path">): SpecFile {
  return { path, text: "", version: null, data: null, refs: [], problems: [{ file: path, path: "", ...problem }] };
}

/** The one problem of a spec file over the size cap (its text is not kept: it is never parsed). */
export function tooLargeSpec(path: string, size: number, cap: number): SpecFile {
  const message = `${size} bytes, more than the ${cap} a spec file may hold (${raiseHint(MAX_SPEC_BYTES_ENV)}); not parsed`;
  return unparsedSpec(path, { line: 1, column: 1, code: "too-large", expected: `at most ${cap} bytes`, found: `${size} bytes`, message });
}
