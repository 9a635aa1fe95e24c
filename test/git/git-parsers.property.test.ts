/**
 * Property tests of the pure parsers of git's -z output and the argv chunker:
 * - parseNameStatusZ / parseNumstatZ / parseLsFilesTagged read back what git's format encodes;
 * - foldChanges lists every path once (both sides of renames), sorted;
 * - chunkPaths keeps order and content and respects its budget.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { chunkPaths, foldChanges, parseLsFilesTagged, parseNameStatusZ, parseNumstatZ } from "../../src/internal.js";
import { foldWorktreeStatus } from "../../src/git/read-worktree-status.js";
import { indexLineEntry, indexOidLength, parseIndexListing, readIndexLine, UNMERGED } from "../../src/git/worktree-listing.js";

// Paths as git prints them with -z: any bytes but NUL (tabs, spaces, newlines, quotes, non-ASCII).
const segment = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom("a", "b", "Z", ".", "-", " ", "\t", "\n", '"', "\\", "é", "日", "*", "[", ":") });
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join("/"));
const hexId = fc.stringMatching(/^[0-9a-f]{40}$/);

describe("parseNameStatusZ", () => {
  it("reads back every entry, renames and copies with both paths", () => {
    const entry = fc.oneof(
      fc.record({ status: fc.constantFrom("A", "D", "M", "T", "U", "X"), path }),
      fc.record({ status: fc.constantFrom("R", "C"), score: fc.integer({ min: 0, max: 100 }), oldPath: path, path }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        const out = entries
          .map((e) => ("oldPath" in e ? `${e.status}${String(e.score).padStart(3, "0")}\0${e.oldPath}\0${e.path}\0` : `${e.status}\0${e.path}\0`))
          .join("");
        const parsed = parseNameStatusZ(out);
        expect(parsed).toEqual(
          entries.map((e) => ("oldPath" in e ? { status: e.status, path: e.path, oldPath: e.oldPath } : { status: e.status, path: e.path })),
        );
      }),
    );
  });

  it("rejects truncated and unknown entries instead of guessing", () => {
    expect(() => parseNameStatusZ("R100\0only-old\0")).toThrow(/truncated/);
    expect(() => parseNameStatusZ("Q\0x\0")).toThrow(/unknown/);
  });
});

describe("parseNumstatZ", () => {
  it("reads back counts, binary markers and renames", () => {
    const counts = fc.oneof(fc.constant(null), fc.tuple(fc.nat(5000), fc.nat(5000)));
    const entry = fc.record({ counts, path, oldPath: fc.option(path, { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        const out = entries
          .map((e) => {
            const c = e.counts === null ? "-\t-" : `${e.counts[0]}\t${e.counts[1]}`;
            return e.oldPath !== undefined ? `${c}\t\0${e.oldPath}\0${e.path}\0` : `${c}\t${e.path}\0`;
          })
          .join("");
        const parsed = parseNumstatZ(out);
        expect(parsed).toEqual(
          entries.map((e) => ({
            path: e.path,
            ...(e.oldPath !== undefined ? { oldPath: e.oldPath } : {}),
            binary: e.counts === null,
            added: e.counts?.[0] ?? 0,
            deleted: e.counts?.[1] ?? 0,
          })),
        );
      }),
    );
  });
});

describe("parseLsFilesTagged", () => {
  it("folds the tagged lines of one path into one record", () => {
    const tracked = fc.record({ path, blob: hexId, mode: fc.constantFrom("100644", "100755", "120000"), modified: fc.boolean(), deleted: fc.boolean() });
    fc.assert(
      fc.property(fc.uniqueArray(tracked, { selector: (t) => t.path, maxLength: 15 }), fc.uniqueArray(path, { maxLength: 5 }), (entries, others) => {
        const untracked = others.filter((o) => !entries.some((e) => e.path === o));
        let out = untracked.map((p) => `? ${p}\0`).join("");
        for (const e of entries) {
          const meta = `${e.mode} ${e.blob} 0\t${e.path}\0`;
          out += `H ${meta}`;
          if (e.deleted) out += `R ${meta}`;
          if (e.modified || e.deleted) out += `C ${meta}`;
        }
        const map = parseLsFilesTagged(out);
        expect(map.size).toBe(entries.length + untracked.length);
        for (const e of entries) {
          expect(map.get(e.path)).toEqual({
            path: e.path,
            tracked: true,
            blob: e.blob,
            mode: e.mode,
            modified: e.modified || e.deleted,
            deleted: e.deleted,
            unmerged: false,
            skipWorktree: false,
          });
        }
        for (const p of untracked) expect(map.get(p)).toMatchObject({ tracked: false, blob: null, modified: false });
      }),
    );
  });

  it("marks conflict stages as unmerged without a stage-0 blob", () => {
    const id = "a".repeat(40);
    const map = parseLsFilesTagged(`M 100644 ${id} 1\tc.txt\0M 100644 ${id} 2\tc.txt\0M 100644 ${id} 3\tc.txt\0`);
    expect(map.get("c.txt")).toMatchObject({ unmerged: true, blob: null, tracked: true });
  });
});

describe("the index listing (flat, and read line by line in place)", () => {
  // Index order: sorted by the paths' UTF-8 bytes, conflict stages of one path together.
  const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
  const entry = fc.record({
    path,
    blob: hexId,
    mode: fc.constantFrom("100644", "100755", "120000", "160000"),
    tag: fc.constantFrom("H", "S", "h"),
    conflict: fc.boolean(),
  });

  it("folds to the records parseLsFilesTagged gives, and readIndexLine walks the same lines", () => {
    fc.assert(
      fc.property(fc.uniqueArray(entry, { selector: (e) => e.path, maxLength: 20 }), fc.uniqueArray(path, { maxLength: 4 }), (raw, others) => {
        const entries = [...raw].sort((a, b) => byBytes(a.path, b.path));
        let out = "";
        for (const e of entries) {
          if (e.conflict) for (const st of [1, 2, 3]) out += `M ${e.mode} ${e.blob} ${st}\t${e.path}\0`;
          else out += `${e.tag} ${e.mode} ${e.blob} 0\t${e.path}\0`;
        }
        const untracked = others.filter((o) => !entries.some((e) => e.path === o));
        const folded = foldWorktreeStatus(Buffer.from(out), "", untracked.map((p) => `${p}\0`).join(""));
        const reference = parseLsFilesTagged(out + untracked.map((p) => `? ${p}\0`).join(""));
        expect(new Map([...folded].sort(([a], [b]) => byBytes(a, b)))).toEqual(new Map([...reference].sort(([a], [b]) => byBytes(a, b))));
        // Line by line, in place (the warm path's reading): the same paths and bits, the object ids where they are.
        const bytes = Buffer.from(out);
        const listing = parseIndexListing(bytes);
        const seen: string[] = [];
        for (let pos = 0; pos < bytes.length; ) {
          const line = readIndexLine(bytes, pos, indexOidLength(bytes), true);
          pos = line.next;
          if (seen[seen.length - 1] === line.path) continue;
          seen.push(line.path);
          const k = listing.paths.indexOf(line.path);
          expect(line.flags & ~UNMERGED).toBe(listing.flags[k]! & ~UNMERGED);
          expect(indexLineEntry(bytes, line, 40)).toEqual(reference.get(line.path));
        }
        expect(seen).toEqual(listing.paths);
      }),
    );
  });

  it("rejects lines it cannot read instead of guessing", () => {
    const id = "b".repeat(40);
    expect(() => parseIndexListing(Buffer.from(`Q 100644 ${id} 0\tx\0`))).toThrow(/tag/);
    expect(() => parseIndexListing(Buffer.from(`H 10064 ${id} 0\tx\0`))).toThrow();
    expect(() => readIndexLine(Buffer.from(`H 100644 ${id} 0 x\0`), 0, 40, false)).toThrow();
  });
});

describe("foldChanges", () => {
  it("lists each path once, sorted, with both sides of renames", () => {
    const entry = fc.oneof(
      fc.record({ status: fc.constantFrom("A" as const, "D" as const, "M" as const), path }),
      fc.record({ status: fc.constant("R" as const), path, oldPath: path }),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 15 }), fc.array(path, { maxLength: 5 }), (entries, untracked) => {
        const folded = foldChanges(entries, untracked);
        const expected = new Set<string>(untracked);
        for (const e of entries) {
          expected.add(e.path);
          if ("oldPath" in e) expected.add(e.oldPath);
        }
        expect(folded.map((c) => c.path)).toEqual([...expected].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
      }),
    );
  });
});

describe("chunkPaths", () => {
  it("keeps every path in order and every multi-path chunk within the budget", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 60 }), { maxLength: 200 }), fc.integer({ min: 1, max: 400 }), (paths, budget) => {
        const chunks = chunkPaths(paths, budget);
        expect(chunks.flat()).toEqual(paths);
        for (const c of chunks) {
          expect(c.length).toBeGreaterThan(0);
          if (c.length > 1) expect(c.reduce((n, p) => n + p.length + 1, 0)).toBeLessThanOrEqual(budget);
        }
      }),
    );
  });
});
