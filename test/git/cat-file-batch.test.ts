/**
 * The `git cat-file --batch` reader:
 * - parseCatFileBatch reads back any framing of blobs (any bytes, any names) and missing objects;
 * - it rejects truncated, over-long and malformed output instead of guessing;
 * - readBlobs against real git: index (`:path`) and commit (`HEAD:path`) names, names with
 *   spaces, colons and line breaks, missing paths and non-blobs, all in one process.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { parseCatFileBatch, readBlobs } from "../../src/internal.js";
import { git, tempRepo, writeTree } from "../helpers/temp-repo.js";

const name = fc
  .string({ minLength: 1, maxLength: 12, unit: fc.constantFrom("a", "b", " ", ":", "/", ".", "é", "-", "\t") })
  .filter((n) => !n.endsWith(" missing"));
const oid = fc.stringMatching(/^[0-9a-f]{40}$/);
const entry = fc.oneof(
  fc.record({ name, missing: fc.constant(true as const) }),
  fc.record({ name, missing: fc.constant(false as const), oid, type: fc.constantFrom("blob", "tree", "commit"), content: fc.uint8Array({ maxLength: 64 }) }),
);

type Entry = { name: string; missing: true } | { name: string; missing: false; oid: string; type: string; content: Uint8Array };

function frame(entries: readonly Entry[]): Buffer {
  return Buffer.concat(
    entries.map((e) =>
      e.missing
        ? Buffer.from(`${e.name} missing\n`)
        : Buffer.concat([Buffer.from(`${e.oid} ${e.type} ${e.content.length}\n`), Buffer.from(e.content), Buffer.from("\n")]),
    ),
  );
}

describe("parseCatFileBatch", () => {
  it("reads back every framed entry in order", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
        const parsed = parseCatFileBatch(
          frame(entries),
          entries.map((e) => e.name),
        );
        expect(parsed.map((p) => ({ name: p.name, oid: p.oid, type: p.type, content: p.content === null ? null : [...p.content] }))).toEqual(
          entries.map((e) =>
            e.missing ? { name: e.name, oid: null, type: null, content: null } : { name: e.name, oid: e.oid, type: e.type, content: [...e.content] },
          ),
        );
      }),
    );
  });

  it("rejects any truncation and trailing bytes", () => {
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), fc.nat(), (entries, cut) => {
        const out = frame(entries);
        const at = cut % out.length;
        expect(() =>
          parseCatFileBatch(
            out.subarray(0, at),
            entries.map((e) => e.name),
          ),
        ).toThrow(/unexpected git output/);
        expect(() =>
          parseCatFileBatch(
            Buffer.concat([out, Buffer.from("x")]),
            entries.map((e) => e.name),
          ),
        ).toThrow(/after the last entry/);
      }),
    );
  });

  it("rejects a header that is neither an object nor missing", () => {
    expect(() => parseCatFileBatch(Buffer.from("fatal: nope\n"), ["x"])).toThrow(/header/);
  });
});

describe("readBlobs", () => {
  it("reads index and commit versions in one batch; missing paths and trees are null", () => {
    const repo = tempRepo({ "a b.txt": "committed\n", "dir/c:d.noma": "c\n", "bin.dat": Buffer.from([0, 1, 2, 10, 255]) });
    writeTree(repo, { "a b.txt": "staged\n", "new\nline.txt": "odd name\n" });
    git(repo, ["add", "."]);
    writeTree(repo, { "a b.txt": "work tree only\n" });
    const blobs = readBlobs(repo, [":a b.txt", "HEAD:a b.txt", ":dir/c:d.noma", ":bin.dat", ":new\nline.txt", ":nope", "HEAD:dir", "HEAD:nope"]);
    expect(blobs.get(":a b.txt")?.toString()).toBe("staged\n");
    expect(blobs.get("HEAD:a b.txt")?.toString()).toBe("committed\n");
    expect(blobs.get(":dir/c:d.noma")?.toString()).toBe("c\n");
    expect([...blobs.get(":bin.dat")!]).toEqual([0, 1, 2, 10, 255]);
    expect(blobs.get(":new\nline.txt")?.toString()).toBe("odd name\n");
    expect(blobs.get(":nope")).toBeNull();
    expect(blobs.get("HEAD:dir")).toBeNull();
    expect(blobs.get("HEAD:nope")).toBeNull();
  });
});
