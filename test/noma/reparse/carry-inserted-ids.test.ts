/**
 * The id index carried over a re-parse that added or removed directives
 * (src/noma/reparse/carry-inserted-ids.ts) is the index of a full parse: ids in walk
 * order, node by id (in its order), duplicates, aliases, problems — over random documents
 * and random directive blocks added or removed, new ids and clashing ones, with aliases,
 * nested, headings inside.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseSnapshot } from "./helpers/parse-snapshot.js";
import { parseNoma, type NomaDocument } from "../../../src/internal.js";
import { reparseEdited } from "../../../src/noma/reparse/reparse-edited.js";
import { applyPatch } from "../../../src/patch/apply-patch.js";

/** A document's blocks: headings (explicit ids, slugs that collide), directives with ids, nested ones, prose. */
const BLOCKS = [
  "# Title",
  '## Sub {id="sub"}',
  "## Same",
  "## Same",
  '## Aliased {aliases="al1"}',
  "para line with [[k0]]",
  '::claim{id="k0"}\nA claim.\n::',
  '::note{id="k1" for="k0"}\n:::inner{id="k2"}\nInner.\n:::\n::',
  '::section{id="box"}\n## Inside\n::',
  "::note\nNo id.\n::",
  '::note{id="dup"}\nOne.\n::',
  '::note{id="dup"}\nTwo.\n::',
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "- item",
];
/** Blocks an op list adds: new ids, ids the document holds, none, aliases, nested directives, a heading inside. */
const ADDED = [
  '::note{id="n1"}\nAdded.\n::',
  '::note{id="n2" for="k0"}\nAdded.\n::',
  '::note{id="n1"}\nAgain.\n::',
  '::note{id="k0"}\nClash.\n::',
  '::note{id="sub"}\nClash with a heading.\n::',
  '::note{id="same"}\nClash with a slug.\n::',
  "::note\nNo id.\n::",
  '::note{id="n3" aliases="al1"}\nAliased.\n::',
  '::note{id="n4" aliases="fresh"}\nAliased.\n::',
  '::box{id="n5"}\n:::inner{id="n6"}\nNested.\n:::\n::',
  '::box{id="n7"}\n## Heading inside\n::',
];

const docArb = fc
  .tuple(fc.array(fc.constantFrom(...BLOCKS), { maxLength: 24 }), fc.boolean())
  .map(([blocks, fm]) => `${(fm ? "---\ntitle: t\naliases: [fm1]\n---\n" : "") + blocks.join("\n\n")}\n`);

const snapshot = (doc: NomaDocument): unknown => parseSnapshot(doc, { walk: true });

/** Line numbers where a block starts (after a blank line or at the top of the body). */
function blockStarts(lines: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < lines.length; i++) if (i === 0 || lines[i - 1] === "") out.push(i);
  return out;
}

describe("carrying the id index over added and removed directives", () => {
  it("equals a full parse after directive blocks are added or removed, one edit after another", () => {
    const edit = fc.record({ add: fc.boolean(), at: fc.nat(), block: fc.constantFrom(...ADDED) });
    fc.assert(
      fc.property(docArb, fc.array(edit, { minLength: 1, maxLength: 6 }), (src, edits) => {
        let doc = parseNoma(src);
        let text = src;
        for (const e of edits) {
          const lines = text.split("\n");
          const starts = blockStarts(lines);
          const i = starts[e.at % starts.length]!;
          if (e.add) {
            lines.splice(i, 0, ...e.block.split("\n"), "");
          } else {
            // Remove the block starting there (up to the next blank line).
            let j = i;
            while (j < lines.length && lines[j] !== "") j++;
            lines.splice(i, Math.min(j + 1, lines.length) - i);
          }
          text = lines.join("\n");
          doc = reparseEdited(doc, text);
          expect(snapshot(doc)).toEqual(snapshot(parseNoma(text)));
        }
      }),
      { numRuns: Number(process.env.NR_RUNS ?? 400) },
    );
  });

  it("answers for an added directive with a new id and for a removed one: the index is carried, not made again", () => {
    const src = Array.from({ length: 20 }, (_, i) => `## Area ${i} {id="s${i}"}\n\n::claim{id="c${i}"}\nClaim ${i}.\n::\n`).join("\n");
    const doc = parseNoma(src);
    const { ids, duplicateIds, nodeById, aliasMap } = doc;
    const added = src.replace('::claim{id="c7"}', '::note{id="n1" for="c7"}\nA note.\n::\n\n::claim{id="c7"}');
    const next = reparseEdited(doc, added);
    // The same array and duplicates, updated in place: indexing from scratch makes new ones.
    expect(next.ids).toBe(ids);
    expect(next.duplicateIds).toBe(duplicateIds);
    // The maps validation compares by identity (does any id resolve differently?) are new.
    expect(next.nodeById).not.toBe(nodeById);
    expect(next.aliasMap).not.toBe(aliasMap);
    expect(next.ids.indexOf("n1")).toBe(next.ids.indexOf("c7") - 1);
    expect(snapshot(next)).toEqual(snapshot(parseNoma(added)));
    const removed = added.replace('::claim{id="c12"}\nClaim 12.\n::\n', "");
    const maps = { nodeById: next.nodeById, aliasMap: next.aliasMap };
    const after = reparseEdited(next, removed);
    expect(after.ids).toBe(ids);
    expect(after.nodeById).not.toBe(maps.nodeById);
    expect(after.aliasMap).not.toBe(maps.aliasMap);
    expect(after.ids.includes("c12")).toBe(false);
    expect(snapshot(after)).toEqual(snapshot(parseNoma(removed)));
  });

  it("gives an op list of add_block and delete_block the results op-by-op full parses give", () => {
    const src = Array.from({ length: 30 }, (_, i) => `## Area ${i} {id="s${i}"}\n\n::section{id="box${i}"}\n::\n\n::claim{id="c${i}"}\nClaim ${i}.\n::\n`).join(
      "\n",
    );
    const ops = Array.from({ length: 24 }, (_, k) =>
      k % 3 === 0
        ? { op: "add_block", parent: `box${k}`, content: `::note{id="n${k}"}\nA note ${k}.\n::` }
        : k % 3 === 1
          ? { op: "delete_block", id: `c${k}` }
          : { op: "add_block", parent: `box${k}`, content: `::note\nA note ${k} without an id.\n::` },
    );
    let sequential = src;
    const results: string[] = [];
    for (const op of ops) {
      const r = applyPatch(sequential, [op], { reuse: false });
      results.push(`${r.result}:${r.postSha256}`);
      sequential = r.text;
    }
    const listed = applyPatch(src, ops, { reuse: false });
    expect(listed.result).toBe("applied");
    expect(listed.ops.map((o) => `${o.result}:${o.postSha256}`)).toEqual(results);
    expect(listed.text).toBe(sequential);
    expect(listed.postDiagnostics).toEqual(applyPatch(sequential, [], { reuse: false }).postDiagnostics);
  });
});
