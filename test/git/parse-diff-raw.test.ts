/**
 * parseDiffRawZ (`git diff --cached --raw -z --no-abbrev --no-renames`):
 * - reads back any entries (any path bytes but NUL), the staged blob id, and null for deletions (property);
 * - rejects malformed headers and entries without a path;
 * - agrees with real git on a repository with additions, modifications, deletions and odd names.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { listStagedEntries, parseDiffRawZ } from "../../src/internal.js";
import { git, tempRepo, writeTree } from "../helpers/temp-repo.js";

const seg = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom("a", "Z", ".", " ", "\t", "\n", '"', "é", ":", "-") });
const path = fc.array(seg, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
const oid = fc.stringMatching(/^[0-9a-f]{40}$/).filter((o) => !/^0+$/.test(o));
const ZERO = "0".repeat(40);

describe("parseDiffRawZ", () => {
  it("reads back every entry", () => {
    const entry = fc.record({
      path,
      status: fc.constantFrom("A", "C", "D", "M", "T"),
      oldOid: oid,
      newOid: oid,
      mode: fc.constantFrom("100644", "100755", "120000"),
    });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 10 }), (entries) => {
        const out = entries
          .map((e) => {
            const deleted = e.status === "D";
            const added = e.status === "A";
            return `:${added ? "000000" : e.mode} ${deleted ? "000000" : e.mode} ${added ? ZERO : e.oldOid} ${deleted ? ZERO : e.newOid} ${e.status}${e.status === "C" ? "075" : ""}\0${e.path}\0`;
          })
          .join("");
        expect(parseDiffRawZ(out)).toEqual(
          entries.map((e) => ({
            path: e.path,
            status: e.status,
            oid: e.status === "D" ? null : e.newOid,
            headOid: e.status === "A" ? null : e.oldOid,
            mode: e.status === "D" ? "000000" : e.mode,
          })),
        );
      }),
    );
  });

  it("rejects malformed output", () => {
    expect(() => parseDiffRawZ(`:100644 100644 ${"a".repeat(40)} ${"b".repeat(40)} M\0`)).toThrow(/without a path/);
    expect(() => parseDiffRawZ("M\0x\0")).toThrow(/header/);
    expect(parseDiffRawZ("")).toEqual([]);
  });

  it("agrees with git", () => {
    const repo = tempRepo({ "keep.txt": "k\n", "gone.noma": "g\n", "mod.noma": "m\n" });
    writeTree(repo, { "mod.noma": "m2\n", "new file\nwith newline.noma": "n\n" });
    git(repo, ["rm", "-q", "gone.noma"]);
    git(repo, ["add", "."]);
    const entries = listStagedEntries(repo);
    const blob = (p: string): string => git(repo, ["rev-parse", `:${p}`]).trim();
    const headBlob = (p: string): string => git(repo, ["rev-parse", `HEAD:${p}`]).trim();
    expect(entries).toEqual([
      { path: "gone.noma", status: "D", oid: null, headOid: headBlob("gone.noma"), mode: "000000" },
      { path: "mod.noma", status: "M", oid: blob("mod.noma"), headOid: headBlob("mod.noma"), mode: "100644" },
      { path: "new file\nwith newline.noma", status: "A", oid: blob("new file\nwith newline.noma"), headOid: null, mode: "100644" },
    ]);
  });
});
