/**
 * Wire shapes of the 25 patch ops (§3.1 core, §1.5 extended) as zod schemas —
 * the single source for validation and for `noma-reconcile schema patch-op`.
 * zod/mini keeps the patch path's start-up small.
 *
 * Every op may carry `baseHash` (§3.4): a sha256 hex prefix (≥ 8 chars) of
 * the target block's source lines. No other field is accepted: an op is never
 * applied with one of its fields left out (validateOp names an unknown field
 * before the schema is read; the JSON Schema says `additionalProperties: false`).
 */
import * as z from "zod/mini";

const id = z.string().check(z.minLength(1));
const baseHash = z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{8,64}$/, "baseHash must be 8–64 hex characters")));
const index = z.number().check(z.int(), z.minimum(0));
const column = z.union([index, z.string().check(z.minLength(1))]);
const scalar = z.union([z.string(), z.number(), z.boolean()]);
const cells = z.array(z.union([z.string(), z.number(), z.boolean()]));

function op<T extends string, S extends Record<string, z.core.SomeType>>(name: T, shape: S) {
  return z.strictObject({ op: z.literal(name), ...shape, baseHash });
}

/** How to build each op's schema (see OP_SCHEMAS). */
const BUILD = {
  replace_block: () => op("replace_block", { id, content: z.string() }),
  add_block: () => op("add_block", { parent: id, content: z.string(), position: z.optional(z.number().check(z.int())) }),
  delete_block: () => op("delete_block", { id }),
  update_attribute: () => op("update_attribute", { id, key: z.string().check(z.minLength(1)), value: z.union([scalar, z.null()]) }),
  rename_id: () => op("rename_id", { from: id, to: id }),
  replace_body: () => op("replace_body", { id, content: z.string() }),
  update_heading: () => op("update_heading", { id, title: z.string() }),
  add_comment: () =>
    op("add_comment", {
      id,
      target: id,
      content: z.optional(z.string()),
      author: z.optional(z.string()),
      initials: z.optional(z.string()),
      date: z.optional(z.string()),
      reply_to: z.optional(id),
    }),
  resolve_comment: () => op("resolve_comment", { id, resolved_by: z.optional(z.string()), resolved_at: z.optional(z.string()) }),
  remove_attribute: () => op("remove_attribute", { id, key: z.string().check(z.minLength(1)) }),
  add_footnote: () => op("add_footnote", { id, target: id, content: z.string(), label: z.optional(z.string()) }),
  add_endnote: () => op("add_endnote", { id, target: id, content: z.string(), label: z.optional(z.string()) }),
  add_change_request: () =>
    op("add_change_request", {
      id,
      target: id,
      action: z.enum(["insert", "delete", "replace"]),
      from: z.optional(z.string()),
      to: z.optional(z.string()),
      text: z.optional(z.string()),
      author: z.optional(z.string()),
      date: z.optional(z.string()),
      // The rationale, written as the block's body (as add_comment's content).
      content: z.optional(z.string()),
    }),
  update_table_cell: () => op("update_table_cell", { id, row: index, column, value: scalar }),
  update_table_header_cell: () => op("update_table_header_cell", { id, column, value: scalar }),
  insert_table_row: () => op("insert_table_row", { id, row: index, cells }),
  delete_table_row: () => op("delete_table_row", { id, row: index }),
  insert_table_column: () => op("insert_table_column", { id, column: index, header: z.optional(scalar), cells: z.optional(cells) }),
  delete_table_column: () => op("delete_table_column", { id, column }),
  update_dataset_cell: () => op("update_dataset_cell", { id, row: index, column, value: z.union([scalar, z.null()]) }),
  insert_dataset_row: () => op("insert_dataset_row", { id, row: index, cells }),
  delete_dataset_row: () => op("delete_dataset_row", { id, row: index }),
  insert_dataset_column: () =>
    op("insert_dataset_column", {
      id,
      column: index,
      header: z.string().check(z.minLength(1)),
      cells: z.optional(cells),
      type: z.optional(z.string()),
    }),
  delete_dataset_column: () => op("delete_dataset_column", { id, column }),
  move_block: () => op("move_block", { id, parent: id, position: z.optional(z.number().check(z.int())) }),
};

type OpSchemas = { [N in keyof typeof BUILD]: ReturnType<(typeof BUILD)[N]> };

/**
 * Each op's schema, built the first time it is read: a one-shot `patch` validates one op and
 * built all 25 (with their union) when the module loaded. Enumerable getters, so
 * `Object.keys`, `Object.values` and `in` work as on a plain object.
 */
export const OP_SCHEMAS = {} as OpSchemas;
for (const name of Object.keys(BUILD) as Array<keyof typeof BUILD>) {
  let built: z.ZodMiniType | undefined;
  Object.defineProperty(OP_SCHEMAS, name, { enumerable: true, get: () => (built ??= BUILD[name]()) });
}

export type OpName = keyof typeof OP_SCHEMAS;
export const OP_NAMES = Object.keys(BUILD) as OpName[];
export const CORE_OPS: readonly OpName[] = ["replace_block", "add_block", "delete_block", "update_attribute", "rename_id"];

export type PatchOpOf<N extends OpName> = z.infer<(typeof OP_SCHEMAS)[N]>;
export type PatchOp = { [N in OpName]: PatchOpOf<N> }[OpName];

/** The whole union, for JSON Schema output: built on first call (patch-op-union.ts keeps the library's const). */
export function patchOpUnion(): z.ZodMiniType {
  return z.union(Object.values(OP_SCHEMAS) as unknown as [z.ZodMiniType, z.ZodMiniType, ...z.ZodMiniType[]]);
}

/** The fields an op takes (its schema's keys: `op`, its own, `baseHash`). */
export function opFields(name: OpName): readonly string[] {
  return Object.keys((OP_SCHEMAS[name] as unknown as { def: { shape: Record<string, unknown> } }).def.shape);
}

export function isOpName(name: unknown): name is OpName {
  return typeof name === "string" && Object.hasOwn(BUILD, name);
}

export { describeIssues } from "./describe-issues.js";
