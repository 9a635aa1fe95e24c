import type { Validation } from "../validation.js";

/** Wikilinks inside a ::memory block must point at ::memory blocks. */
export function memoryLinks(v: Validation): void {
  if (v.named("memory").length === 0) return;
  for (const link of v.rows !== undefined ? v.rows.memoryLinks : v.wikilinks) {
    if (link.owner === null || link.owner.name !== "memory") continue;
    const target = v.resolve(link.target);
    if (target !== undefined && !(target.type === "directive" && target.name === "memory")) {
      v.report(
        "memory-wikilink-non-memory-target",
        `[[${link.target}]] inside a ::memory block points at a ${target.type === "directive" ? `::${target.name}` : "section"}, not a ::memory block.`,
        null,
        link.owner,
        link.anchor.pos.line + link.rel,
        link.column,
      );
    }
  }
}
