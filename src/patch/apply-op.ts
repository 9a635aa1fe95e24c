/**
 * One op against the current state: validate its shape, then dispatch.
 * Pure: text in, text out (or a PatchError).
 */
import type { NomaDocument } from "../noma/ast.js";
import { PatchError } from "./patch-error.js";
import { describeIssues, isOpName, OP_SCHEMAS, opFields, type OpName, type PatchOp, type PatchOpOf } from "./patch-op-schema.js";
import { addBlock, deleteBlock, moveBlock, replaceBlock, replaceBody } from "./ops/block-ops.js";
import { removeAttribute, renameId, resolveComment, updateAttribute } from "./ops/attribute-ops.js";
import { updateHeading } from "./ops/heading-op.js";
import { addChangeRequest, addComment, addEndnote, addFootnote } from "./ops/note-ops.js";
import { deleteTableColumn, deleteTableRow, insertTableColumn, insertTableRow, updateTableCell, updateTableHeaderCell } from "./ops/table-ops.js";
import { deleteDatasetColumn, deleteDatasetRow, insertDatasetColumn, insertDatasetRow, updateDatasetCell } from "./ops/dataset-ops.js";
import { closestName } from "../errors/did-you-mean.js";

type Handler<N extends OpName> = (doc: NomaDocument, op: PatchOpOf<N>) => string;

const HANDLERS: { [N in OpName]: Handler<N> } = {
  replace_block: replaceBlock,
  add_block: addBlock,
  delete_block: deleteBlock,
  update_attribute: updateAttribute,
  rename_id: renameId,
  replace_body: replaceBody,
  update_heading: updateHeading,
  add_comment: addComment,
  resolve_comment: resolveComment,
  remove_attribute: removeAttribute,
  add_footnote: addFootnote,
  add_endnote: addEndnote,
  add_change_request: addChangeRequest,
  update_table_cell: updateTableCell,
  update_table_header_cell: updateTableHeaderCell,
  insert_table_row: insertTableRow,
  delete_table_row: deleteTableRow,
  insert_table_column: insertTableColumn,
  delete_table_column: deleteTableColumn,
  update_dataset_cell: updateDatasetCell,
  insert_dataset_row: insertDatasetRow,
  delete_dataset_row: deleteDatasetRow,
  insert_dataset_column: insertDatasetColumn,
  delete_dataset_column: deleteDatasetColumn,
  move_block: moveBlock,
};

/** Fields of a patch request (the CLI's flags, patch_block's arguments) that are sometimes put in an op by mistake. */
const REQUEST_FIELDS = new Set(["expected_sha", "base_sha256", "reason", "actor", "parent_op_id", "strict", "file", "ops"]);

/**
 * The first field of `op` that op `name` does not take, as an invalid_content message; null when
 * there is none. No field is ever dropped: an op is applied with every field it was given, or
 * refused naming the one it cannot take.
 */
function unknownField(name: OpName, op: Record<string, unknown>): string | null {
  let fields: readonly string[] | undefined;
  for (const key in op) {
    if (!Object.hasOwn(op, key)) continue;
    fields ??= opFields(name);
    if (fields.includes(key)) continue;
    const own = fields.filter((f) => f !== "op");
    const hint = REQUEST_FIELDS.has(key)
      ? ` ("${key}" belongs to the patch request, beside the ops, not inside an op)`
      : ((g) => (g !== undefined ? ` (did you mean "${g}"?)` : ""))(closestName(key, own));
    return `${name} has no field "${key}"${hint}; it takes ${own.join(", ")} (an op is never applied with a field left out)`;
  }
  return null;
}

/**
 * Shape check: unsupported_op for an unknown op, invalid_content for missing, mistyped or
 * unknown fields. `lenient` (replaying recorded ops, which another version or tool may have
 * written with fields of its own): unknown fields are left out instead.
 */
export function validateOp(value: unknown, lenient = false): PatchOp {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new PatchError("invalid_content", `A patch op must be a JSON object with an "op" field; got ${JSON.stringify(value)}.`);
  }
  const name = (value as Record<string, unknown>)["op"];
  if (!isOpName(name)) {
    const known = Object.keys(OP_SCHEMAS);
    const guess = typeof name === "string" ? closestName(name, known) : undefined;
    throw new PatchError(
      "unsupported_op",
      guess !== undefined
        ? `${JSON.stringify(name)} is not a v1.0 patch op (did you mean "${guess}"?).`
        : `${JSON.stringify(name)} is not a v1.0 patch op (known: ${known.join(", ")}).`,
    );
  }
  const record = value as Record<string, unknown>;
  const unknown = unknownField(name, record);
  let input: unknown = value;
  if (unknown !== null) {
    if (!lenient) throw new PatchError("invalid_content", `Malformed ${name} op: ${unknown}.`);
    const fields = opFields(name);
    input = Object.fromEntries(Object.entries(record).filter(([k]) => fields.includes(k)));
  }
  const parsed = OP_SCHEMAS[name].safeParse(input);
  if (!parsed.success) throw new PatchError("invalid_content", `Malformed ${name} op: ${describeIssues(parsed.error.issues, value)}.`);
  return parsed.data as PatchOp;
}

/** The id a baseHash and capability checks refer to (§3.4). */
export function opTargetId(op: PatchOp): string {
  switch (op.op) {
    case "rename_id":
      return op.from;
    case "add_block":
      return op.parent;
    case "add_comment":
    case "add_footnote":
    case "add_endnote":
    case "add_change_request":
      return op.target;
    default:
      return op.id;
  }
}

/** Apply one (shape-checked) op to the parsed state; returns the new text. */
export function applyOp(doc: NomaDocument, op: PatchOp): string {
  return (HANDLERS[op.op] as Handler<OpName>)(doc, op as never);
}
