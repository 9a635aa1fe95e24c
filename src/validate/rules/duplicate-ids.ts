/** duplicate-id: ids that more than one block carries, reported at the second. */
import type { Validation } from "../validation.js";

export function duplicateIds(v: Validation): void {
  for (const [id, nodes] of v.duplicates()) {
    const second = nodes[1]!;
    const lines = nodes.map((n) => n.pos.line).join(", ");
    v.report("duplicate-id", `Two or more nodes carry the same canonical id "${id}" (lines ${lines}).`, second);
  }
}
