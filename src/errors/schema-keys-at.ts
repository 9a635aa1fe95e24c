/**
 * The keys a closed zod object schema allows at a path inside it (through optional, nullable,
 * default and array wrappers), read structurally from the schema's definition so this module
 * imports no zod: for "did you mean" on an unknown key (src/errors/did-you-mean.ts).
 */
interface Def {
  type?: string;
  shape?: Record<string, unknown>;
  innerType?: unknown;
  element?: unknown;
}

function defOf(schema: unknown): Def | undefined {
  return (schema as { _zod?: { def?: Def } } | null | undefined)?._zod?.def;
}

function unwrap(schema: unknown): unknown {
  let s = schema;
  for (let d = defOf(s); d !== undefined && d.innerType !== undefined; d = defOf(s)) s = d.innerType;
  return s;
}

/** The keys of the object at `path` (numbers index arrays), or undefined when there is none. */
export function schemaKeysAt(schema: unknown, path: readonly PropertyKey[]): string[] | undefined {
  let s = unwrap(schema);
  for (const seg of path) {
    const d = defOf(s);
    if (d === undefined) return undefined;
    if (typeof seg === "number" && d.element !== undefined) s = unwrap(d.element);
    else if (d.shape !== undefined && typeof seg === "string" && seg in d.shape) s = unwrap(d.shape[seg]);
    else return undefined;
  }
  const shape = defOf(s)?.shape;
  return shape !== undefined ? Object.keys(shape) : undefined;
}
