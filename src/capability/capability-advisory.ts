/**
 * Advisory capability checks (Annex A.4): a proposed op with no matching
 * grant gets an info diagnostic labelled advisory. Never blocks in v1.0.
 */
import type { NomaDocument } from "../noma/ast.js";
import type { Diagnostic } from "../validate/diagnostic.js";
import { parseNoma } from "../noma/parse-noma.js";
import type { PatchOp } from "../patch/patch-op-schema.js";
import type { CapabilityDescriptor } from "./capability-schema.js";

const NEW_BLOCK: Partial<Record<PatchOp["op"], string>> = {
  add_comment: "comment",
  add_footnote: "footnote",
  add_endnote: "endnote",
  add_change_request: "change_request",
};

/** The block type an op acts on: the target's directive name, or the block it creates. */
function blockType(doc: NomaDocument, op: PatchOp): string | undefined {
  const created = NEW_BLOCK[op.op];
  if (created !== undefined) return created;
  if (op.op === "add_block") {
    const frag = parseNoma(op.content.replace(/\s+$/, ""));
    const first = frag.children[0];
    return first?.type === "directive" ? first.name : undefined;
  }
  if (op.op === "update_heading") return "section";
  const id = op.op === "rename_id" ? op.from : op.id;
  const node = doc.nodeById.get(id);
  return node === undefined ? undefined : node.type === "directive" ? node.name : "section";
}

function advisory(message: string, nodeId?: string): Diagnostic {
  const d: Diagnostic = { severity: "info", code: "capability-advisory", message: `Advisory (Annex A, not enforced in v1.0): ${message}`, phase: "pre" };
  if (nodeId !== undefined) d.nodeId = nodeId;
  return d;
}

export function capabilityAdvisories(descriptor: CapabilityDescriptor | null, sidecar: string, doc: NomaDocument, op: PatchOp): Diagnostic[] {
  const type = blockType(doc, op);
  if (type === undefined) return [];
  if (descriptor === null) return [advisory(`no valid capability descriptor (${sidecar}) grants ${op.op} on ::${type}.`)];
  const policy = descriptor.nomaAgent.blocks?.[type];
  const ops = policy?.ops ?? [];
  if (!ops.includes(op.op)) return [advisory(`${sidecar} does not grant ${op.op} on ::${type}.`)];
  if (op.op === "rename_id" && descriptor.nomaAgent.ids?.rename !== true) return [advisory(`${sidecar} does not enable ids.rename.`)];
  if (op.op === "update_attribute" && op.value !== null) {
    const rule = policy?.attrs?.[op.key];
    if (rule !== undefined) {
      const v = op.value;
      if (rule.type !== undefined && typeof v !== rule.type) return [advisory(`${op.key} should be a ${rule.type}; got ${JSON.stringify(v)}.`)];
      if (typeof v === "number" && ((rule.min !== undefined && v < rule.min) || (rule.max !== undefined && v > rule.max))) {
        return [advisory(`${op.key}=${v} is outside [${rule.min ?? "-∞"}, ${rule.max ?? "∞"}].`)];
      }
      if (rule.enum !== undefined && (typeof v === "string" || typeof v === "number") && !rule.enum.includes(v)) {
        return [advisory(`${op.key}=${JSON.stringify(v)} is not one of ${rule.enum.map((e) => JSON.stringify(e)).join(", ")}.`)];
      }
    }
  }
  return [];
}
