/**
 * Property tests (fast-check) of the patch engine on random documents and
 * random valid ops:
 * - lines outside the op's block are byte-identical (line endings included);
 * - a Tier-1 document stays Tier 1 (no op breaks the structure);
 * - the transcript of a random session verifies, and replaying its applied
 *   ops from the base reproduces the final sha256 (§5.5).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma, type NomaDocument } from "../../src/internal.js";
import { applyPatch, clearPatchMemo, preparePatchMemo, sha256Hex } from "../../src/patch/apply-patch.js";
import { buildRecords, chainLines } from "../../src/transcript/transcript-record.js";
import { verifyTranscript } from "../../src/transcript/verify-transcript.js";

const WORDS = ["alpha", "beta", "gamma", "delta", "pipe | inside", "`code [[x]]`", "[[c0]]", "see [[k1|label]]"];

/** A random Tier-1 document: top-level claims/notes, a section with children, headings, tables, datasets. */
const documentArb = fc
  .record({
    blocks: fc.array(
      fc.tuple(fc.constantFrom("claim", "note", "risk", "evidence"), fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 3 }), fc.boolean()),
      { minLength: 1, maxLength: 6 },
    ),
    kids: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 3 }),
    heading: fc.boolean(),
    table: fc.boolean(),
    eol: fc.constantFrom("\n", "\r\n"),
    finalEol: fc.boolean(),
  })
  .map(({ blocks, kids, heading, table, eol, finalEol }) => {
    const lines: string[] = [];
    if (heading) lines.push("# Doc Title", "");
    blocks.forEach(([name, body, withFor], i) => {
      lines.push(`::${name}{id="k${i}"${withFor && i > 0 ? ` for="k${i - 1}"` : ""}}`, ...body, "::", "");
    });
    lines.push('::section{id="sec"}');
    kids.forEach((w, i) => lines.push(`:::note{id="n${i}"}`, w, ":::", ""));
    if (lines[lines.length - 1] === "") lines.pop();
    lines.push("::", "");
    if (table) lines.push('::table{id="tb" header}', "Name | Score", "Ana | 1", "::", "");
    lines.push('::dataset{id="ds"}', "schema:", "  name: string", "  n: number", "rows:", "  - [ana, 1]", "::");
    return lines.join(eol) + (finalEol ? eol : "");
  });

function ids(doc: NomaDocument, prefix: string): string[] {
  return doc.ids.filter((i) => i.startsWith(prefix));
}

/** Random ops that are valid against `doc` (they may still be rejected, e.g. id conflicts). */
function opArb(doc: NomaDocument): fc.Arbitrary<Record<string, unknown>> {
  const blocks = [...ids(doc, "k"), ...ids(doc, "n")];
  const any = fc.constantFrom(...(blocks.length > 0 ? blocks : ["k0"]));
  const word = fc.constantFrom("x", "y", "ok", "fine words");
  return fc.oneof(
    fc.record({
      op: fc.constant("update_attribute"),
      id: any,
      key: fc.constantFrom("owner", "confidence", "flag"),
      value: fc.oneof(word, fc.integer({ min: 0, max: 9 }), fc.boolean(), fc.constant(null)),
    }),
    fc.record({ op: fc.constant("remove_attribute"), id: any, key: fc.constantFrom("owner", "for") }),
    fc.record({ op: fc.constant("replace_body"), id: any, content: fc.array(word, { maxLength: 3 }).map((w) => w.join("\n")) }),
    fc.record({ op: fc.constant("delete_block"), id: any }),
    fc.record({
      op: fc.constant("add_block"),
      parent: fc.constantFrom("sec", "doc-title"),
      position: fc.integer({ min: 0, max: 3 }),
      content: fc.integer({ min: 100, max: 999 }).map((n) => `::note{id="new${n}"}\nadded\n::`),
    }),
    fc.record({ op: fc.constant("add_comment"), id: fc.integer({ min: 100, max: 999 }).map((n) => `cm${n}`), target: any, content: word }),
    fc.record({ op: fc.constant("rename_id"), from: any, to: fc.integer({ min: 100, max: 999 }).map((n) => `r${n}`) }),
    fc.record({ op: fc.constant("move_block"), id: any, parent: fc.constantFrom("sec", "doc-title"), position: fc.integer({ min: 0, max: 2 }) }),
    fc.record({
      op: fc.constant("update_table_cell"),
      id: fc.constant("tb"),
      row: fc.constant(0),
      column: fc.constant(1),
      value: fc.integer({ min: 0, max: 99 }),
    }),
    fc.record({
      op: fc.constant("insert_dataset_row"),
      id: fc.constant("ds"),
      row: fc.constant(0),
      cells: fc.tuple(fc.constantFrom("bo", "cy"), fc.integer({ min: 0, max: 9 })),
    }),
  );
}

/** Raw lines (each with its own line break). */
function rawLines(text: string): string[] {
  return text.match(/[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$/g) ?? [];
}

const LOCAL = new Set(["update_attribute", "remove_attribute", "replace_body", "delete_block"]);

describe("patch engine properties", () => {
  it("lines outside a block-local op's block are byte-identical; Tier 1 stays Tier 1", () => {
    const seen = { applied: 0, local: 0 };
    fc.assert(
      fc.property(
        documentArb.chain((src) => fc.tuple(fc.constant(src), opArb(parseNoma(src)))),
        ([src, op]) => {
          const doc = parseNoma(src);
          expect(doc.problems.filter((p) => p.severity === "error")).toEqual([]);
          // `parsed` is consumed by the engine (its nodes and index are reused): read it first.
          const target = doc.nodeById.get(String(op["id"]));
          const span = target !== undefined ? { line: target.pos.line, endLine: target.endLine } : undefined;
          const out = applyPatch(src, [op], { parsed: doc });
          if (out.result !== "applied") return;
          seen.applied++;
          const after = parseNoma(out.text);
          expect(
            after.problems.filter((p) => p.severity === "error"),
            `${JSON.stringify(op)} broke the document:\n${out.text}`,
          ).toEqual([]);
          if (!LOCAL.has(String(op["op"]))) return;
          seen.local++;
          const a = Math.max(0, span!.line - 2); // one blank line before may go with a deleted block
          const b = span!.endLine + 1; // and one after
          const before = rawLines(src);
          const now = rawLines(out.text);
          expect(now.slice(0, a)).toEqual(before.slice(0, a));
          const tail = before.slice(b);
          expect(now.slice(now.length - tail.length)).toEqual(tail);
        },
      ),
      { numRuns: 300 },
    );
    // Not vacuous: most generated ops apply, many of them block-local.
    expect(seen.applied).toBeGreaterThan(150);
    expect(seen.local).toBeGreaterThan(50);
  });

  it("a random session's transcript verifies, and replay from the base reproduces the final sha256", () => {
    fc.assert(
      fc.property(
        documentArb.chain((src) =>
          fc.tuple(
            fc.constant(src),
            fc.array(opArb(parseNoma(src)), { minLength: 1, maxLength: 6 }),
            fc.array(fc.integer({ min: 1, max: 3 }), { minLength: 6, maxLength: 6 }),
          ),
        ),
        ([base, ops, split]) => {
          let text = base;
          let transcript = "";
          let last: string | null = null;
          // Submit the ops as several op lists of random sizes, as agents do.
          for (let i = 0, k = 0; i < ops.length; k++) {
            const list = ops.slice(i, i + split[k % split.length]!);
            i += list.length;
            const out = applyPatch(text, list);
            const lines = chainLines(buildRecords(out, { docUri: "file:///d.noma", actor: { kind: "agent", name: "prop" }, now: new Date(0) }), last);
            transcript += lines.join("");
            last = lines[lines.length - 1] ?? last;
            text = out.text;
          }
          const report = verifyTranscript(transcript, text, { replay: { base, engine: applyPatch } });
          expect(report.findings).toEqual([]);
          expect(report.ok).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("warm chains of op lists give the from-scratch answers: text op by op, sha256, pre- and post-diagnostics", () => {
    const id = fc.constantFrom("k0", "k1", "k2", "k3", "n0", "n1", "sec", "tb", "ds", "nope");
    const word = fc.constantFrom("x", "y", "see [[k1]]", "see [[gone]]");
    const op = fc.oneof(
      fc.record({
        op: fc.constant("update_attribute"),
        id,
        key: fc.constantFrom("owner", "confidence", "for"),
        value: fc.oneof(word, fc.constantFrom("k0", "k2", 0.5, 7), fc.constant(null)),
      }),
      fc.record({ op: fc.constant("remove_attribute"), id, key: fc.constantFrom("owner", "for") }),
      fc.record({ op: fc.constant("replace_body"), id, content: fc.array(word, { maxLength: 2 }).map((w) => w.join("\n")) }),
      fc.record({ op: fc.constant("delete_block"), id }),
      fc.record({
        op: fc.constant("add_block"),
        parent: fc.constantFrom("sec", "doc-title"),
        position: fc.integer({ min: 0, max: 2 }),
        content: fc.constantFrom('::evidence{id="ev" for="k0"}\nok\n::', '::claim{id="c9"}\nnew\n::', "::risk\nr\n::"),
      }),
      fc.record({ op: fc.constant("add_comment"), id: fc.integer({ min: 100, max: 999 }).map((n) => `cm${n}`), target: id, content: word }),
      fc.record({ op: fc.constant("rename_id"), from: id, to: fc.constantFrom("k0", "r1", "r2") }),
      fc.record({ op: fc.constant("move_block"), id, parent: fc.constantFrom("sec", "doc-title"), position: fc.integer({ min: 0, max: 2 }) }),
      fc.record({
        op: fc.constant("update_table_cell"),
        id: fc.constant("tb"),
        row: fc.constant(0),
        column: fc.constant(1),
        value: fc.integer({ min: 0, max: 99 }),
      }),
    );
    fc.assert(
      fc.property(
        documentArb,
        fc.array(fc.tuple(fc.array(op, { minLength: 1, maxLength: 4 }), fc.boolean()), { minLength: 1, maxLength: 5 }),
        fc.constantFrom({}, { profile: "research" }),
        (src, lists, validate) => {
          clearPatchMemo();
          let text = src;
          for (const [list, prepare] of lists) {
            // A long-lived process prepares remembered states when idle (or not).
            if (prepare) preparePatchMemo();
            const out = applyPatch(text, list, { validate, prepareLater: prepare });
            expect(out.preDiagnostics).toEqual(validateNoma(parseNoma(text), validate));
            // From scratch: each op alone on a fresh parse; the list applies only if every op does.
            let expected = text;
            let rejected = false;
            for (const o of list) {
              const one = applyPatch(expected, [o], { reuse: false });
              if (one.result === "rejected") rejected = true;
              expected = one.text;
            }
            if (rejected) {
              expect(out.result).toBe("rejected");
              expect(out.text).toBe(text);
              continue;
            }
            expect(out.text).toBe(expected);
            expect(out.result).toBe(expected === text ? "noop" : "applied");
            expect(out.postSha256).toBe(sha256Hex(expected));
            expect(out.postDiagnostics).toEqual(validateNoma(parseNoma(expected), validate));
            text = out.text;
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("an op list that undoes itself is a noop (its ops applied), with the state it started from", () => {
    clearPatchMemo();
    const src = '::claim{id="k0" confidence=0.5}\nx\n::\n\n::note{id="n"}\ny\n::\n';
    const undo = applyPatch(src, [
      { op: "update_attribute", id: "k0", key: "owner", value: "z" },
      { op: "replace_body", id: "n", content: "changed" },
      { op: "replace_body", id: "n", content: "y" },
      { op: "remove_attribute", id: "k0", key: "owner" },
    ]);
    expect(undo.ops.map((o) => o.result)).toEqual(["applied", "applied", "applied", "applied"]);
    expect(undo.result).toBe("noop");
    expect(undo.text).toBe(src);
    expect(undo.postSha256).toBe(undo.preSha256);
    expect(undo.postDiagnostics).toEqual(undo.preDiagnostics);
    // An op whose edit writes back what was there is a noop too.
    const same = applyPatch(src, [{ op: "replace_body", id: "n", content: "y" }]);
    expect(same.ops[0]!.result).toBe("noop");
  });

  it("a one-shot patch (nothing remembered, the op given only its targets, validation from the block table) gives the incremental path's outcome", () => {
    const extra = fc.constantFrom(
      "",
      '\n# Head {aliases="hh"}\n\n## Dup\n\n## Dup\n\n::note{id="k0"}\nsecond k0\n::\n',
      '\n::claim{id="al" aliases="k9"}\nSee [[k9]] and [[nope]].\n::\n',
    );
    const id = fc.constantFrom("k0", "k1", "k2", "n0", "sec", "tb", "ds", "k9", "head", "dup", "dup-1", "nope");
    const word = fc.constantFrom("x", "y", "see [[k1]]");
    const op = fc.oneof(
      fc.record({
        op: fc.constant("update_attribute"),
        id,
        key: fc.constantFrom("owner", "confidence", "id"),
        value: fc.oneof(word, fc.constant(0.5), fc.constant(null)),
      }),
      fc.record({ op: fc.constant("remove_attribute"), id, key: fc.constantFrom("owner", "for") }),
      fc.record({ op: fc.constant("resolve_comment"), id }),
      fc.record({ op: fc.constant("update_heading"), id, title: fc.constantFrom("New title", "Dup") }),
      fc.record({ op: fc.constant("replace_body"), id, content: word }),
      fc.record({ op: fc.constant("delete_block"), id }),
      fc.record({ op: fc.constant("rename_id"), from: id, to: fc.constantFrom("r1", "k1") }),
      fc.record({ op: fc.constant("add_comment"), id: fc.constant("cm1"), target: id, content: word }),
      fc.record({ op: fc.constant("update_table_cell"), id, row: fc.constant(0), column: fc.constant(1), value: fc.integer({ min: 0, max: 99 }) }),
      fc.record({ op: fc.constant("insert_dataset_row"), id, row: fc.constant(0), cells: fc.constant(["bo", 2]) }),
      fc.record({ op: fc.constant("update_attribute"), id, key: fc.constant("owner"), value: word, baseHash: fc.constantFrom("00000000", "e3b0c442") }),
    );
    const advisories = [
      undefined,
      (doc: NomaDocument, o: { op: string }) =>
        doc.nodeById.has(String((o as { id?: string }).id))
          ? []
          : [{ severity: "info" as const, code: "capability-advisory", message: "no grant", phase: "pre" as const }],
      (doc: NomaDocument) => [
        { severity: "info" as const, code: "capability-advisory", message: `${[...doc.nodeById.keys()].length} ids`, phase: "pre" as const },
      ],
    ];
    fc.assert(
      fc.property(documentArb, extra, op, fc.nat(advisories.length - 1), (base, more, o, a) => {
        const src = base + more;
        const advisory = advisories[a];
        const options = advisory !== undefined ? { advisory } : {};
        const tree = parseNoma(src);
        void tree.children; // built: not one-shot
        const oneShot = applyPatch(src, [o], { ...options, reuse: false });
        const incremental = applyPatch(src, [o], { ...options, reuse: false, parsed: tree });
        const strip = (x: typeof oneShot): unknown => ({ ...x, ops: x.ops.map(({ elapsedMs: _e, ...rest }) => rest) });
        expect(strip(oneShot)).toEqual(strip(incremental));
      }),
      { numRuns: 400 },
    );
  });
});
