/**
 * One line per problem of a value checked against a zod schema: where (the
 * key path), what was expected, what was found — for `.norma/config.json`,
 * AgentResponse, verdict.json and the other files agents write.
 */
import { didYouMean } from "../errors/did-you-mean.js";

interface Issue {
  code?: string;
  path: ReadonlyArray<PropertyKey>;
  message: string;
  expected?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
  origin?: string;
  minimum?: number | bigint;
  inclusive?: boolean;
  maximum?: number | bigint;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v = data;
  for (const seg of path) v = v !== null && typeof v === "object" ? (v as Record<PropertyKey, unknown>)[seg as string] : undefined;
  return v;
}

export function showValue(v: unknown): string {
  if (v === undefined) return "nothing";
  if (Array.isArray(v)) return v.length === 0 ? "an empty list" : "a list";
  if (v !== null && typeof v === "object") return "an object";
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

export function keyPath(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : i === 0 ? String(p) : `.${String(p)}`)).join("") || "(top level)";
}

/**
 * `key.path: expected X, found Y` for each issue (`base`: the path of `data` in a larger document;
 * `known`: the keys allowed in the object at a path of `data`, to suggest one for an unknown key).
 */
export function describeIssues(
  issues: readonly Issue[],
  data: unknown,
  base: readonly PropertyKey[] = [],
  known?: (path: readonly PropertyKey[]) => readonly string[] | undefined,
): string[] {
  return issues.map((i) => {
    if (i.code === "unrecognized_keys" && i.keys !== undefined) {
      const allowed = known?.(i.path);
      return i.keys.map((k) => `${keyPath([...base, ...i.path, k])}: unknown key${allowed !== undefined ? didYouMean(k, allowed) : ""}`).join("; ");
    }
    const where = keyPath([...base, ...i.path]);
    const found = showValue(valueAt(data, i.path));
    let expected: string;
    if (i.code === "invalid_value" && i.values !== undefined)
      expected = i.values.length === 1 ? JSON.stringify(i.values[0]) : `one of ${i.values.map((v) => JSON.stringify(v)).join(", ")}`;
    else if (i.code === "invalid_type") expected = i.expected === "array" ? "a list" : i.expected === "object" ? "an object" : `a ${i.expected}`;
    else if (i.code === "too_small")
      expected =
        i.origin === "array"
          ? `a list of at least ${String(i.minimum)}`
          : i.origin === "string"
            ? "a non-empty string"
            : `a number ${i.inclusive === false ? ">" : "≥"} ${String(i.minimum)}`;
    else if (i.code === "too_big")
      expected = i.origin === "array" ? `a list of at most ${String(i.maximum)}` : `a number ${i.inclusive === false ? "<" : "≤"} ${String(i.maximum)}`;
    else if (i.code === "invalid_union" || i.code === "invalid_format" || i.code === "custom") expected = i.message;
    else expected = i.message;
    return `${where}: expected ${expected}, found ${found}`;
  });
}
