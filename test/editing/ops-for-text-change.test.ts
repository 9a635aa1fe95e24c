/**
 * `opsForTextChange`: the ops the coding agent's gate offers for a direct write of a
 * document. Properties, for any document and any change of one line or one body:
 * - it never throws;
 * - what it offers is exact: the patch engine (`applyPatch`, the real engine, records
 *   aside) turns the old text into the new one byte for byte (a heading's new title keeps
 *   its id, and says so);
 * - a change of one directive's body or attributes, or of text inside it, is offered.
 * And the cases with no op: the frontmatter, prose under a heading, several blocks,
 * duplicate ids — each saying why.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyPatch, opsForTextChange } from "../../src/internal.js";

const WORDS = ["alpha", "see [[k0]]", "beta gamma", "a line\nand another", ""];

const documentArb = fc
  .record({
    blocks: fc.array(fc.tuple(fc.constantFrom("claim", "note", "evidence"), fc.constantFrom(...WORDS.filter((w) => w !== "")), fc.boolean()), {
      minLength: 1,
      maxLength: 5,
    }),
    prose: fc.boolean(),
    eol: fc.constantFrom("\n", "\r\n"),
  })
  .map(({ blocks, prose, eol }) => {
    const lines = ["---", "title: T", "---", "", "# Title", ""];
    if (prose) lines.push("Some prose.", "");
    blocks.forEach(([name, body, withConfidence], i) =>
      lines.push(`::${name}{id="k${i}"${withConfidence ? " confidence=0.5" : ""}}`, ...body.split("\n"), "::", ""),
    );
    return lines.join(eol);
  });

/** A change of one block: its body, one attribute, or a line inside it. */
const changeArb = fc.record({
  block: fc.nat(),
  kind: fc.constantFrom("body", "attribute", "append"),
  text: fc.constantFrom(...WORDS),
});

function change(doc: string, c: { block: number; kind: string; text: string }): string {
  const eol = doc.includes("\r\n") ? "\r\n" : "\n";
  const lines = doc.split(eol);
  const openers = lines.map((l, i) => [l, i] as const).filter(([l]) => /^::[a-z]+\{id="k\d+"/.test(l));
  const [opener, at] = openers[c.block % openers.length]!;
  const close = lines.indexOf("::", at + 1);
  if (c.kind === "attribute") lines[at] = opener.replace("}", ' owner="me"}');
  else if (c.kind === "append") lines.splice(close, 0, ...(c.text === "" ? ["more"] : c.text.split("\n")));
  else lines.splice(at + 1, close - at - 1, ...(c.text === "" ? ["x"] : c.text.split("\n")));
  return lines.join(eol);
}

describe("opsForTextChange", () => {
  it("never throws on any two texts; whatever it offers applies to exactly the new text", () => {
    const text = fc.oneof(documentArb, fc.string({ maxLength: 120 }));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const r = opsForTextChange(before, after);
        if (r.ok && r.note === undefined) expect(applyPatch(before, r.ops).text).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  it("a change inside one directive is offered as ops the engine applies exactly", () => {
    fc.assert(
      fc.property(documentArb, changeArb, (doc, c) => {
        const after = change(doc, c);
        fc.pre(after !== doc);
        const r = opsForTextChange(doc, after);
        expect(r.ok, JSON.stringify(r)).toBe(true);
        if (!r.ok) return;
        const outcome = applyPatch(doc, r.ops);
        expect(outcome.result).toBe("applied");
        expect(outcome.text).toBe(after);
        expect(r.ops[0]!["baseHash"]).toMatch(/^[0-9a-f]{16}$/);
      }),
      { numRuns: 300 },
    );
  });

  const DOC = '---\ntitle: T\n---\n\n# Plan\n\nProse.\n\n::claim{id="c1" confidence=0.5}\nA.\n::\n\n::evidence{id="e1" for="c1"}\nB.\n::\n';

  it("offers the most specific op: attributes, a body, a heading (keeping its id)", () => {
    expect(opsForTextChange(DOC, DOC.replace("confidence=0.5", "confidence=0.9"))).toMatchObject({
      ok: true,
      ops: [{ op: "update_attribute", id: "c1", key: "confidence", value: 0.9 }],
      id: "c1",
      lines: [9, 11],
    });
    expect(opsForTextChange(DOC, DOC.replace(" confidence=0.5", ""))).toMatchObject({
      ok: true,
      ops: [{ op: "remove_attribute", id: "c1", key: "confidence" }],
    });
    expect(opsForTextChange(DOC, DOC.replace("B.", "B, twice."))).toMatchObject({ ok: true, ops: [{ op: "replace_body", id: "e1", content: "B, twice." }] });
    const heading = opsForTextChange(DOC, DOC.replace("# Plan", "# The plan"));
    expect(heading).toMatchObject({ ok: true, ops: [{ op: "update_heading", id: "plan", title: "The plan" }] });
    expect(heading.ok && heading.note).toBe('update_heading keeps the heading\'s id "plan" (written as {id="plan"}), so references to it still resolve');
  });

  it("says why there is none: the frontmatter, prose under a heading, several blocks, duplicate ids, nothing changed", () => {
    expect(opsForTextChange(DOC, DOC.replace("title: T", "title: U"))).toEqual({
      ok: false,
      reason: "the change touches the frontmatter, which no patch op edits",
      lines: [2, 2],
    });
    expect(opsForTextChange(DOC, DOC.replace("Prose.", "More prose."))).toMatchObject({
      ok: false,
      reason:
        "the change (line 7) is outside every directive with an id, and patch ops edit directives (and heading titles), not text directly under a heading",
    });
    expect(opsForTextChange(DOC, DOC.replace("A.", "A2.").replace("B.", "B2."))).toMatchObject({
      ok: false,
      reason: 'the change (lines 10-14) spans several blocks ("c1", "e1"): send one op per block, as one op list',
      blocks: ["c1", "e1"],
    });
    const dup = DOC.replace('id="e1"', 'id="c1"');
    expect(opsForTextChange(dup, dup.replace("A.", "A2."))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^the id "c1" is carried by 2 blocks \(lines 9, 13\)/),
    });
    expect(opsForTextChange(DOC, DOC)).toEqual({ ok: false, reason: "the new text is the document's current text: nothing changes" });
  });
});
