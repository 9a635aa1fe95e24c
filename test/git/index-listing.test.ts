/**
 * The index listing read in process (src/git/index-listing.ts, read-index-listing.ts) against
 * `git ls-files -z -t -s -c` on real repositories, byte for byte: generated indexes in every
 * version (2, 3, 4) with regular files, executables, symbolic links and gitlinks, conflict stages,
 * skip-worktree and intent-to-add entries, names with tabs, newlines, non-UTF-8 bytes and names
 * longer than the 12-bit length field. Where the reader does not take an index on (a split or
 * sparse index, SHA-256, another index file named by GIT_INDEX_FILE) it answers null and the
 * caller asks git. Damaged index files: the answer is null or git's, never another one.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { indexListing } from "../../src/git/index-listing.js";
import { readIndexListing } from "../../src/git/read-index-listing.js";
import { startWorktreeListing } from "../../src/git/read-worktree-status.js";
import { git, tempDir } from "../helpers/temp-repo.js";

const gitBytes = (cwd: string, args: string[], input?: Buffer): Buffer =>
  execFileSync("git", args, { cwd, input, stdio: ["pipe", "pipe", "pipe"], maxBuffer: 1 << 28 });
const listing = (cwd: string): Buffer => gitBytes(cwd, ["ls-files", "-z", "-t", "-s", "-c"]);

function newRepo(prefix: string, ...init: string[]): { root: string; blobs: string[] } {
  const root = tempDir(prefix);
  git(root, ["init", "-q", "--template=", ...init]);
  const blobs = ["one\n", "two\n", "three\n"].map((t) => git(root, ["hash-object", "-w", "--stdin"], t).trim());
  return { root, blobs };
}

interface Entry {
  path: Buffer;
  mode: "100644" | "100755" | "120000" | "160000";
  stages: readonly number[]; // [0] or a subset of 1–3
  blob: number;
  skip: boolean;
}

/** Write the entries with `update-index -z --index-info`, mark skip-worktree, set the version. */
function writeIndex(root: string, blobs: string[], entries: Entry[], version: number): void {
  const lines: Buffer[] = [];
  for (const e of entries) {
    for (const stage of e.stages) {
      const oid = e.mode === "160000" ? "1234567890abcdef1234567890abcdef12345678" : blobs[e.blob % blobs.length]!;
      lines.push(Buffer.from(`${e.mode} ${oid} ${stage}\t`), e.path, Buffer.from([0]));
    }
  }
  gitBytes(root, ["update-index", "-z", "--index-info"], Buffer.concat(lines));
  const skipped = entries.filter((e) => e.skip && e.stages[0] === 0).map((e) => e.path);
  if (skipped.length > 0) gitBytes(root, ["update-index", "-z", "--skip-worktree", "--stdin"], Buffer.concat(skipped.flatMap((p) => [p, Buffer.from([0])])));
  git(root, ["update-index", "--index-version", String(version)]);
}

const byte = fc.oneof(
  fc.constantFrom(..."abcXYZ._- 0189".split("").map((c) => c.charCodeAt(0))),
  fc.constantFrom(9, 10, 34, 92, 0x7f, 0x80, 0xc3, 0xa9, 0xe6, 0xff),
);
const segment = fc
  .array(byte, { minLength: 1, maxLength: 8 })
  .map((b) => Buffer.from(b))
  .filter((b) => !["", ".", "..", ".git"].includes(b.toString("latin1").toLowerCase()));
const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => Buffer.concat(s.flatMap((b, i) => (i === 0 ? [b] : [Buffer.from("/"), b]))));
const entryArb = fc.record({
  path: pathArb,
  mode: fc.constantFrom("100644" as const, "100755" as const, "120000" as const, "160000" as const),
  stages: fc.oneof({ weight: 4, arbitrary: fc.constant<readonly number[]>([0]) }, { weight: 1, arbitrary: fc.subarray([1, 2, 3], { minLength: 1 }) }),
  blob: fc.nat(2),
  skip: fc.boolean(),
});

/** Paths unique, none a directory of another (git keeps `a` and `a/b` apart). */
function consistent(entries: Entry[]): boolean {
  const names = entries.map((e) => e.path.toString("latin1"));
  if (new Set(names).size !== names.length) return false;
  return names.every((p) => !names.some((q) => q.startsWith(`${p}/`)));
}

describe("the index listing read in process", () => {
  it("is git's `ls-files -z -t -s -c` byte for byte on generated indexes of every version", () => {
    const { root, blobs } = newRepo("nr-index-");
    fc.assert(
      fc.property(fc.array(entryArb, { minLength: 0, maxLength: 12 }).filter(consistent), fc.constantFrom(2, 3, 4), (entries, version) => {
        rmSync(join(root, ".git/index"), { force: true });
        writeIndex(root, blobs, entries, version);
        const expected = listing(root);
        expect(indexListing(readFileSync(join(root, ".git/index")))).toEqual(expected);
        expect(readIndexListing(root)).toEqual(expected);
      }),
      { numRuns: 40 },
    );
  });

  it("takes names of 4,095 bytes and more (the length field saturates) and intent-to-add entries, in every version", () => {
    for (const version of [2, 3, 4]) {
      const { root, blobs } = newRepo("nr-index-long-");
      const sizes = [4094, 4095, 4096, 6000];
      const entries: Entry[] = sizes.map((size, i) => {
        const prefix = `${"d".repeat(200)}/`.repeat(Math.floor((size - 50) / 201));
        return { path: Buffer.from(`${prefix}${i}${"x".repeat(size - prefix.length - 1)}`), mode: "100644", stages: [0], blob: i, skip: i === 2 };
      });
      expect(entries.map((e) => e.path.length)).toEqual(sizes);
      writeIndex(root, blobs, entries, 3);
      writeFileSync(join(root, "later.txt"), "not yet\n");
      git(root, ["add", "-N", "later.txt"]);
      git(root, ["update-index", "--index-version", String(version)]);
      const expected = listing(root);
      expect(expected.toString("latin1")).toContain("\tlater.txt\0");
      const pathLengths = expected
        .toString("latin1")
        .split("\0")
        .map((l) => l.length - l.indexOf("\t") - 1);
      expect(pathLengths.filter((n) => n >= 4094).sort((a, b) => a - b)).toEqual(sizes);
      expect(readIndexListing(root)).toEqual(expected);
    }
  });

  it("answers for a linked worktree's own index, and an empty listing where there is no index yet", async () => {
    const { root } = newRepo("nr-index-wt-");
    expect(readIndexListing(root)).toEqual(Buffer.alloc(0));
    expect(listing(root)).toEqual(Buffer.alloc(0));
    writeFileSync(join(root, "a.txt"), "a\n");
    git(root, ["add", "a.txt"]);
    git(root, ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "a"]);
    const linked = join(tempDir("nr-index-linked-"), "wt");
    git(root, ["worktree", "add", "-q", "-b", "side", linked]);
    writeFileSync(join(linked, "b.txt"), "b\n");
    git(linked, ["add", "b.txt"]);
    expect(readIndexListing(linked)).toEqual(listing(linked));
    expect(listing(linked).toString("latin1")).toContain("\tb.txt\0");
    expect(readIndexListing(root)).toEqual(listing(root));
    // startWorktreeListing hands on the same bytes as git's process gave.
    expect(await startWorktreeListing(linked).indexOut).toEqual(listing(linked));
  });

  it("leaves to git what it does not take on: a split or sparse index, SHA-256, GIT_INDEX_FILE, a subdirectory", () => {
    const split = newRepo("nr-index-split-");
    writeIndex(split.root, split.blobs, [{ path: Buffer.from("a"), mode: "100644", stages: [0], blob: 0, skip: false }], 2);
    git(split.root, ["update-index", "--split-index"]);
    expect(readFileSync(join(split.root, ".git/index")).includes("link")).toBe(true);
    expect(readIndexListing(split.root)).toBeNull();

    const sparse = newRepo("nr-index-sparse-");
    for (const p of ["top.txt", "in/a.txt", "out/b.txt"]) {
      mkdirSync(join(sparse.root, p, ".."), { recursive: true });
      writeFileSync(join(sparse.root, p), `${p}\n`);
    }
    git(sparse.root, ["add", "-A"]);
    git(sparse.root, ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "a"]);
    git(sparse.root, ["sparse-checkout", "set", "--cone", "--sparse-index", "in"]);
    expect(readFileSync(join(sparse.root, ".git/index")).includes("sdir")).toBe(true);
    expect(readIndexListing(sparse.root)).toBeNull();

    const s256 = tempDir("nr-index-256b-");
    git(s256, ["init", "-q", "--object-format=sha256"]);
    writeFileSync(join(s256, "a.txt"), "a\n");
    git(s256, ["add", "a.txt"]);
    expect(readIndexListing(s256)).toBeNull();

    const plain = newRepo("nr-index-env-");
    writeIndex(plain.root, plain.blobs, [{ path: Buffer.from("dir/a"), mode: "100644", stages: [0], blob: 0, skip: false }], 2);
    expect(readIndexListing(plain.root)).toEqual(listing(plain.root));
    expect(readIndexListing(plain.root, { ...process.env, GIT_INDEX_FILE: join(plain.root, ".git/other") })).toBeNull();
    mkdirSync(join(plain.root, "dir"));
    expect(readIndexListing(join(plain.root, "dir"))).toBeNull();
  });

  it("on a damaged index answers null or what git answers, and never throws", () => {
    const { root, blobs } = newRepo("nr-index-fuzz-");
    const versions = [2, 3, 4].map((version) => {
      writeIndex(
        root,
        blobs,
        ["a", "b/c", "b/d\u00e9", "e"].map((p, i) => ({ path: Buffer.from(p), mode: "100644", stages: [0], blob: i, skip: i === 1 })),
        version,
      );
      return readFileSync(join(root, ".git/index"));
    });
    const sha1 = (b: Buffer) => createHash("sha1").update(b).digest();
    // Damage the entries and extensions, then give the file a checksum that holds, so the damage reaches the parser (and git's).
    const damage = fc.constantFrom(...versions).chain((pristine) => {
      const body = pristine.subarray(0, -20);
      return fc
        .oneof(
          fc.record({ at: fc.nat(body.length - 1), value: fc.integer({ min: 0, max: 255 }) }).map(({ at, value }) => {
            const b = Buffer.from(body);
            b[at] = value;
            return b;
          }),
          fc.nat(body.length).map((n) => body.subarray(0, n)),
          fc
            .record({ at: fc.nat(body.length), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) })
            .map(({ at, bytes }) => Buffer.concat([body.subarray(0, at), bytes, body.subarray(at)])),
        )
        .chain((b) => fc.constantFrom(Buffer.concat([b, sha1(b)]), Buffer.concat([b, pristine.subarray(-20)])));
    });
    fc.assert(
      fc.property(damage, (damaged) => {
        const ours = indexListing(damaged);
        if (ours !== null) {
          writeFileSync(join(root, ".git/index"), damaged);
          const theirs = spawnSync("git", ["ls-files", "-z", "-t", "-s", "-c"], { cwd: root, maxBuffer: 1 << 24 });
          expect(theirs.status).toBe(0);
          expect(ours).toEqual(theirs.stdout);
        }
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const withHeader = Buffer.concat([Buffer.from("DIRC\0\0\0\x02"), Buffer.from(bytes)]);
        expect(() => indexListing(withHeader)).not.toThrow();
        expect(() => indexListing(bytes)).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });
});
