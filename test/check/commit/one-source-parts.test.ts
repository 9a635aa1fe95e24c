/**
 * The parts `ci` judges one commit with, each on its own:
 * - `parseTreeChangesZ`: raw diff entries (renames carry two paths) → one entry per path;
 * - `catFileBatchParser`: the same entries whatever the chunking of git's output, and
 *   `streamCatFile` against a real repository (by object id, missing objects, symlinks
 *   followed inside the commit, output larger than a pipe buffer);
 * - `parseStatusPathsZ`, `relevantUncommitted`, `uncommittedMessage`;
 * - `classifyDrift`: reconciled, changed, new, deleted before or after the snapshot.
 */
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catFileBatchParser, streamCatFile } from "../../../src/git/cat-file-stream.js";
import { parseTreeChangesZ, renamesOf } from "../../../src/git/tree-changes.js";
import { parseStatusPathsZ } from "../../../src/git/uncommitted-paths.js";
import { classifyDrift } from "../../../src/reconcile/classify-drift.js";
import { relevantUncommitted, uncommittedMessage } from "../../../src/check/commit/uncommitted-notice.js";
import { git, tempDir, tempRepo } from "../../helpers/temp-repo.js";

const A = "a".repeat(40);
const B = "b".repeat(40);
const Z = "0".repeat(40);

describe("parseTreeChangesZ", () => {
  it("one entry per path, both sides of a rename, the blob each path holds in the newer tree", () => {
    const out = [
      `:100644 100644 ${A} ${B} M`,
      "src/a b.ts",
      `:000000 100644 ${Z} ${B} A`,
      "src/new\nline.ts",
      `:100644 000000 ${A} ${Z} D`,
      "src/gone.ts",
      `:100644 100755 ${A} ${B} R087`,
      "src/old.ts",
      "src/ü moved.ts",
      `:100644 100644 ${A} ${A} C100`,
      "src/x.ts",
      "src/copy.ts",
      `:100644 120000 ${A} ${B} T`,
      "src/link.ts",
      "",
    ].join("\0");
    const changes = parseTreeChangesZ(out);
    expect(changes).toEqual([
      { path: "src/a b.ts", kind: "modified", oid: B, mode: "100644" },
      { path: "src/copy.ts", kind: "copied", oid: A, mode: "100644", from: "src/x.ts" },
      { path: "src/gone.ts", kind: "deleted", oid: null, mode: "000000" },
      { path: "src/link.ts", kind: "type-changed", oid: B, mode: "120000" },
      { path: "src/new\nline.ts", kind: "added", oid: B, mode: "100644" },
      { path: "src/old.ts", kind: "deleted", oid: null, mode: "000000", to: "src/ü moved.ts" },
      { path: "src/ü moved.ts", kind: "renamed", oid: B, mode: "100755", from: "src/old.ts" },
    ]);
    expect([...renamesOf(changes)]).toEqual([["src/old.ts", "src/ü moved.ts"]]);
    expect(parseTreeChangesZ("")).toEqual([]);
  });

  it("malformed output is an error naming what was found", () => {
    expect(() => parseTreeChangesZ("M\0src/a.ts\0")).toThrow(/diff --raw header "M"/);
    expect(() => parseTreeChangesZ(`:100644 100644 ${A} ${B} R100\0src/a.ts\0`)).toThrow(/without its new path/);
  });
});

describe("catFileBatchParser", () => {
  const names = ["n1", "n2", "n3", "n4"];
  const output = Buffer.concat([
    Buffer.from(`${A} blob 5\nhello\n`),
    Buffer.from("n2 missing\n"),
    Buffer.from(`${B} tree 3\nxyz\n`),
    Buffer.from("dangling 7\nHEAD:ab\n"),
  ]);
  const parse = (chunks: Buffer[]): Array<[string, string | null]> => {
    const got: Array<[string, string | null]> = [];
    const p = catFileBatchParser(names, (n, blob) => got.push([n, blob === null ? null : blob.toString()]));
    for (const c of chunks) p.feed(c);
    p.end();
    return got;
  };
  const expected = [
    ["n1", "hello"],
    ["n2", null],
    ["n3", null],
    ["n4", null],
  ];

  it("the same entries however git's output is cut into chunks", () => {
    expect(parse([output])).toEqual(expected);
    for (let size = 1; size <= output.length; size++) {
      const chunks: Buffer[] = [];
      for (let at = 0; at < output.length; at += size) chunks.push(output.subarray(at, at + size));
      expect(parse(chunks), `chunks of ${size}`).toEqual(expected);
    }
  });

  it("truncated or surplus output is an error", () => {
    expect(() => parse([output.subarray(0, output.length - 1)])).toThrow(/ends before/);
    expect(() => parse([output, Buffer.from("n5 missing\n")])).toThrow(/more entries/);
    expect(() => parse([Buffer.from(`${A} blob 2\nhello\n`)])).toThrow(/line feed|header/);
  });
});

describe("streamCatFile (real git)", () => {
  it("reads blobs by id in order, missing ids as null, symlinks followed inside the commit; big output streams", async () => {
    const big = "x".repeat(3 * 1024 * 1024);
    const repo = tempRepo({ "a.txt": "A\n", "big.txt": big });
    symlinkSync("a.txt", join(repo, "link"));
    symlinkSync("../outside", join(repo, "out"));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "links"]);
    const oid = (p: string): string => git(repo, ["rev-parse", `HEAD:${p}`]).trim();
    const got: Array<[string, number | null]> = [];
    await streamCatFile(repo, [oid("a.txt"), "f".repeat(40), oid("big.txt")], (n, b) => got.push([n, b === null ? null : b.length]));
    expect(got).toEqual([
      [oid("a.txt"), 2],
      ["f".repeat(40), null],
      [oid("big.txt"), big.length],
    ]);

    const followed: Array<[string, string | null]> = [];
    await streamCatFile(repo, ["HEAD:link", "HEAD:out", "HEAD:nope"], (n, b) => followed.push([n, b === null ? null : b.toString()]), { followSymlinks: true });
    expect(followed).toEqual([
      ["HEAD:link", "A\n"],
      ["HEAD:out", null],
      ["HEAD:nope", null],
    ]);

    expect(() => streamCatFile(repo, ["HEAD:a\nb"], () => undefined)).toThrow(/batch line/);
    await expect(streamCatFile(tempDir(), [oid("a.txt")], () => undefined)).rejects.toThrow(/git cat-file --batch --buffer failed \(exit 128\)/);
  });
});

describe("uncommitted changes", () => {
  it("parseStatusPathsZ: porcelain v1 -z entries, sorted, each once", () => {
    expect(parseStatusPathsZ(" M src/b.ts\0?? docs/new\nline.noma\0D  src/a b.ts\0MM src/b.ts\0")).toEqual(["docs/new\nline.noma", "src/a b.ts", "src/b.ts"]);
    expect(parseStatusPathsZ("")).toEqual([]);
    expect(() => parseStatusPathsZ("garbage\0")).toThrow(/status entry/);
  });

  it("only changes that could alter the verdict count; the message names a few and says what to do", () => {
    const governed = { governorsOf: (p: string) => (p.startsWith("src/") ? [{ spec_path: ".notarai/api.spec.yaml", glob: "src/**", category: "code" }] : []) };
    const u = relevantUncommitted(
      [
        ".notarai/config.yaml",
        ".notarai/reconciliation_state.json",
        ".notarai/x.spec.yaml",
        "README.md",
        "docs/a.noma",
        "docs/a.noma.patches",
        "notes.txt",
        "src/a.ts",
      ],
      governed,
    );
    expect(u).toEqual({
      count: 6,
      paths: [".notarai/config.yaml", ".notarai/reconciliation_state.json", ".notarai/x.spec.yaml", "docs/a.noma", "docs/a.noma.patches", "src/a.ts"],
    });
    expect(uncommittedMessage(u)).toBe(
      "6 uncommitted changes were not judged (.notarai/config.yaml, .notarai/reconciliation_state.json, .notarai/x.spec.yaml, docs/a.noma, docs/a.noma.patches and 1 more): ci judges the commit HEAD only; commit them, or run `noma-reconcile check` to judge the work tree",
    );
    expect(uncommittedMessage({ count: 1, paths: ["src/new\nline.ts"] })).toBe(
      "1 uncommitted change was not judged (src/new\\nline.ts): ci judges the commit HEAD only; commit it, or run `noma-reconcile check` to judge the work tree",
    );
    expect(uncommittedMessage({ count: 0, paths: [] })).toBeNull();
  });
});

describe("classifyDrift", () => {
  it("reconciled, changed, new, deleted before the snapshot and after it, per governing spec", () => {
    const g = (spec: string) => ({ spec_path: spec, glob: "src/**", category: "code" });
    const r = classifyDrift({
      changes: [
        { path: "src/same.ts", kind: "modified" },
        { path: "src/changed.ts", kind: "modified" },
        { path: "src/new.ts", kind: "added" },
        { path: "src/gone-before.ts", kind: "deleted" },
        { path: "src/gone-after.ts", kind: "deleted" },
        { path: "README.md", kind: "modified" },
      ],
      governorsOf: (p) => (p === "README.md" ? [] : p === "src/same.ts" ? [g(".notarai/b.spec.yaml"), g(".notarai/a.spec.yaml")] : [g(".notarai/a.spec.yaml")]),
      fingerprints: new Map([
        ["src/same.ts", "1"],
        ["src/changed.ts", "2"],
        ["src/gone-after.ts", "3"],
      ]),
      hashes: new Map([
        ["src/same.ts", "1"],
        ["src/changed.ts", "9"],
        ["src/new.ts", "5"],
        ["src/gone-before.ts", null],
        ["src/gone-after.ts", null],
      ]),
      goneAtSnapshot: new Set(["src/gone-before.ts"]),
    });
    expect(r.unreconciled).toBe(3);
    expect(r.specs.map((s) => s.spec_path)).toEqual([".notarai/a.spec.yaml", ".notarai/b.spec.yaml"]);
    expect(r.specs[0]!.reconciled).toEqual(["src/same.ts", "src/gone-before.ts"]);
    expect(r.specs[0]!.unreconciled.map((f) => [f.path, f.reason, f.current_blake3, f.snapshot_blake3])).toEqual([
      ["src/changed.ts", "hash-differs", "9", "2"],
      ["src/new.ts", "not-in-snapshot", "5", null],
      ["src/gone-after.ts", "deleted", null, "3"],
    ]);
    expect(r.specs[1]).toEqual({ spec_path: ".notarai/b.spec.yaml", unreconciled: [], reconciled: ["src/same.ts"] });
  });
});
