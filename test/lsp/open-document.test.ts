/**
 * An open `.noma` document as the server keeps it: for any sequence of editor changes (ranged
 * ones, several in one notification, whole-text ones), judged at any point, the incremental
 * parse and validation give exactly what a fresh parse and validation of the same text give.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { TextDocumentContentChangeEvent } from "vscode-languageserver-protocol";
import { TextDocument } from "vscode-languageserver-textdocument";
import { astToJson, parseNoma } from "../../src/internal.js";
import { OpenDocument } from "../../src/lsp/open-document.js";
import { validateNoma } from "../../src/validate/validate-noma.js";

const LINES = [
  "# Title",
  '## Sub {id="sub"}',
  "",
  "para line with [[k0]] and [[nowhere]]",
  '::claim{id="k0" confidence="85%"}',
  '::evidence{id="k1" for="k0"}',
  ':::risk{id="k2"}',
  ":::",
  "::",
  "```",
  "| a | b |",
  "|---|---|",
  "- item",
  '::note{id="k1" aliases="a1"}',
  "## Same",
];
const lineArb = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...LINES) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) });
const docArb = fc.array(lineArb, { maxLength: 30 }).map((lines) => lines.join("\n"));
const insertArb = fc.oneof(
  fc.constantFrom("", "\n", "::", "[[k0]]", '{id="x"}', "\n::\n", '::claim{id="k9"}\nText.\n::\n', "# New\n", "\r\n"),
  fc.string({ maxLength: 8 }),
);
/** One change: where it starts and how much it replaces (fractions of the text), and what it inserts; or the whole text. */
const changeArb = fc.oneof(
  { weight: 9, arbitrary: fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), len: fc.double({ min: 0, max: 0.3, noNaN: true }), text: insertArb }) },
  { weight: 1, arbitrary: docArb.map((whole) => ({ whole })) },
);
const stepArb = fc.record({ changes: fc.array(changeArb, { minLength: 1, maxLength: 3 }), judge: fc.boolean() });

describe("OpenDocument: incremental parse and validation", () => {
  it("equal a fresh parse and validation after any sequence of changes", () => {
    fc.assert(
      fc.property(docArb, fc.array(stepArb, { minLength: 1, maxLength: 6 }), (initial, steps) => {
        const doc = new OpenDocument("file:///r/d.noma", "noma", 1, initial, { inRepo: false }, "document");
        // Judge once first, as the server does on open: later validations start from it.
        doc.noma().validate({});
        let shadow = TextDocument.create("file:///r/d.noma", "noma", 1, initial);
        let version = 1;
        for (const step of steps) {
          version++;
          const events: TextDocumentContentChangeEvent[] = [];
          for (const c of step.changes) {
            let event: TextDocumentContentChangeEvent;
            if ("whole" in c) event = { text: c.whole };
            else {
              const length = shadow.getText().length;
              const start = Math.floor(c.at * length);
              const end = Math.min(length, start + Math.floor(c.len * length));
              event = { range: { start: shadow.positionAt(start), end: shadow.positionAt(end) }, text: c.text };
            }
            events.push(event);
            shadow = TextDocument.update(shadow, [event], version);
          }
          doc.change(events, version);
          expect(doc.text).toBe(shadow.getText());
          if (!step.judge) continue;
          const fresh = parseNoma(doc.text);
          expect(astToJson(doc.noma().current())).toEqual(astToJson(fresh));
          expect(doc.noma().validate({})).toEqual(validateNoma(fresh, {}));
        }
        const fresh = parseNoma(doc.text);
        expect(astToJson(doc.noma().current())).toEqual(astToJson(fresh));
        expect(doc.noma().validate({})).toEqual(validateNoma(fresh, {}));
      }),
      { numRuns: 200 },
    );
  });
});
