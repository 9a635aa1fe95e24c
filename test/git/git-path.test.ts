/**
 * File names that are not UTF-8 (src/git/git-path.ts): decoded from git's output without loss,
 * given back as the same bytes, and shown exactly as git shows them (`core.quotePath`), which
 * the test asks the real git for.
 */
import { writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeGitText, displayPath, encodeGitText, fsPath, hasRawBytes, parseQuotedPath } from "../../src/git/git-path.js";
import { tempRepo } from "../helpers/temp-repo.js";

const bytes = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a));
/** A file name git can hold: no NUL, no slash (one component). */
const nameBytes = fc.uint8Array({ minLength: 1, maxLength: 12 }).map((a) => Buffer.from(a.map((b) => (b === 0 || b === 0x2f ? 0x61 : b))));

describe("decodeGitText / encodeGitText", () => {
  it("round-trips any bytes, and decodes UTF-8 as Node does", () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const text = decodeGitText(b);
        expect(encodeGitText(text).equals(b)).toBe(true);
        expect(hasRawBytes(text)).toBe(!b.equals(Buffer.from(b.toString("utf8"), "utf8")));
      }),
      { numRuns: 3000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 20 }), (s) => {
        expect(decodeGitText(Buffer.from(s, "utf8"))).toBe(s);
        expect(encodeGitText(s).equals(Buffer.from(s, "utf8"))).toBe(true);
      }),
    );
  });

  it("keeps NUL-separated fields apart (a stray byte never swallows a separator)", () => {
    const out = Buffer.concat([Buffer.from("a.noma\0docs/bad"), Buffer.of(0xff, 0xfe), Buffer.from(".noma\0docs/caf\xc3\xa9.noma\0", "latin1")]);
    expect(decodeGitText(out).split("\0")).toEqual(["a.noma", "docs/bad\udcff\udcfe.noma", "docs/café.noma", ""]);
  });

  it("fsPath is a string for a UTF-8 name and the name's bytes otherwise", () => {
    expect(fsPath("/r", "docs/a.noma")).toBe("/r/docs/a.noma");
    expect(fsPath("/r", "docs/bad\udcff.noma")).toEqual(Buffer.concat([Buffer.from("/r/docs/bad"), Buffer.of(0xff), Buffer.from(".noma")]));
  });
});

describe("displayPath", () => {
  it("prints what git prints (core.quotePath) for a name holding bytes that are not UTF-8 or starting with a quote, and a UTF-8 name as it is", () => {
    const repo = tempRepo();
    const names = [
      Buffer.concat([Buffer.from("bad"), Buffer.of(0xff, 0xfe), Buffer.from(".noma")]),
      Buffer.concat([Buffer.from("caf\xc3\xa9", "latin1"), Buffer.of(0xe9), Buffer.from(" x.noma")]),
      Buffer.concat([Buffer.from('q"\\t\t'), Buffer.of(0x80)]),
      Buffer.from('"quoted.noma'),
    ];
    for (const n of names) writeFileSync(Buffer.concat([Buffer.from(`${repo}/`), n]), "x\n");
    execFileSync("git", ["add", "-A"], { cwd: repo });
    const shown = execFileSync("git", ["-c", "core.quotePath=true", "ls-files"], { cwd: repo, encoding: "latin1" }).trimEnd().split("\n").sort();
    const ours = execFileSync("git", ["ls-files", "-z"], { cwd: repo })
      .toString("latin1")
      .split("\0")
      .filter((p) => p.length > 0)
      .map((p) => displayPath(decodeGitText(Buffer.from(p, "latin1"))))
      .sort();
    expect(ours).toEqual(shown);
    expect(displayPath("docs/café ✓.noma")).toBe("docs/café ✓.noma");
    expect(displayPath("docs/bad\udcff\udcfe.noma")).toBe('"docs/bad\\377\\376.noma"');
  });

  it("is unambiguous and parseQuotedPath reads it back, for any name", () => {
    fc.assert(
      fc.property(nameBytes, nameBytes, (a, b) => {
        const pa = decodeGitText(a);
        const pb = decodeGitText(b);
        const shown = displayPath(pa);
        if (!a.equals(b)) expect(shown).not.toBe(displayPath(pb));
        expect(parseQuotedPath(shown) ?? shown).toBe(pa);
      }),
      { numRuns: 3000 },
    );
  });

  it("parseQuotedPath leaves a plain path alone and refuses what git would not print", () => {
    expect(parseQuotedPath("docs/a.noma")).toBeNull();
    expect(parseQuotedPath('"docs/bad\\377\\376.noma"')).toBe("docs/bad\udcff\udcfe.noma");
    expect(parseQuotedPath('"a"b"')).toBeNull();
    expect(parseQuotedPath('"a\\9"')).toBeNull();
  });
});
