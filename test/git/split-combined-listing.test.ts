/**
 * Equivalence of the combined listing (split-combined-listing.ts) with the two git processes it
 * replaces, on generated real repositories: tracked files clean, modified, deleted, staged new,
 * ignored yet tracked; untracked files, ignored ones, untracked directories; odd names (spaces,
 * tabs, newlines, quotes, `?`-led, non-ASCII). Split, the combined output must give back
 * `ls-files -z -t -s -c` byte for byte and `ls-files -z -o --exclude-standard` as text, with and
 * without a pathspec; the product's readers built on it must answer what the separate listings do.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, unlinkSync, writeFileSync, appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { COMBINED_LISTING, splitCombinedListing } from "../../src/git/split-combined-listing.js";
import {
  foldWorktreeStatus,
  readWorktreeStatus,
  readWorktreeStatusAsync,
  startCombinedWorktreeListing,
  startWorktreeListing,
} from "../../src/git/read-worktree-status.js";
import { GitOutputError } from "../../src/git/parse-name-status.js";
import { git, tempDir } from "../helpers/temp-repo.js";

const run = (cwd: string, args: string[]): Buffer => execFileSync("git", args, { cwd, stdio: ["pipe", "pipe", "pipe"] });

const segment = fc
  .string({ minLength: 1, maxLength: 6, unit: fc.constantFrom("a", "b", "Z", ".", "-", " ", "\t", "\n", '"', "\\", "é", "日", "*", "?", "? ", "[") })
  .filter((s) => s !== "." && s !== ".." && s.toLowerCase() !== ".git" && !s.endsWith(".ign"));
const name = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
const state = fc.constantFrom("clean", "modified", "deleted", "stagedNew", "trackedIgnored", "untracked", "ignored", "untrackedDir");
type State = "clean" | "modified" | "deleted" | "stagedNew" | "trackedIgnored" | "untracked" | "ignored" | "untrackedDir";

/** Files with no path a directory of another (git cannot hold both `a` and `a/b`). */
function consistent(files: Array<{ path: string; state: State }>): boolean {
  const paths = files.map((f) =>
    f.state === "untrackedDir" ? `${f.path}/inner` : f.state === "ignored" || f.state === "trackedIgnored" ? `${f.path}.ign` : f.path,
  );
  const set = new Set(paths);
  if (set.size !== paths.length) return false;
  return paths.every((p) => !paths.some((q) => q.startsWith(`${p}/`)));
}

function build(files: Array<{ path: string; state: State }>): string {
  const root = tempDir("nr-split-");
  git(root, ["init", "-q"]);
  git(root, ["config", "user.email", "t@example.com"]);
  git(root, ["config", "user.name", "t"]);
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  write(".gitignore", "*.ign\n");
  const committed = files.filter((f) => ["clean", "modified", "deleted"].includes(f.state));
  for (const f of committed) write(f.path, `v1 ${f.path}\n`);
  for (const f of files.filter((f) => f.state === "trackedIgnored")) write(`${f.path}.ign`, "tracked though ignored\n");
  run(root, [
    "add",
    "-A",
    "-f",
    "--",
    ".gitignore",
    ...committed.map((f) => `:(literal)${f.path}`),
    ...files.filter((f) => f.state === "trackedIgnored").map((f) => `:(literal)${f.path}.ign`),
  ]);
  run(root, ["commit", "-q", "--allow-empty", "-m", "base"]);
  for (const f of files) {
    if (f.state === "modified") appendFileSync(join(root, f.path), "v2\n");
    else if (f.state === "deleted") unlinkSync(join(root, f.path));
    else if (f.state === "stagedNew") {
      write(f.path, "new\n");
      run(root, ["add", "--", `:(literal)${f.path}`]);
    } else if (f.state === "untracked") write(f.path, "untracked\n");
    else if (f.state === "ignored") write(`${f.path}.ign`, "ignored\n");
    else if (f.state === "untrackedDir") write(`${f.path}/inner`, "inside\n");
  }
  mkdirSync(join(root, "empty-dir"), { recursive: true }); // listed by neither
  return root;
}

function separate(root: string, spec: string[]): { indexOut: Buffer; othersOut: string } {
  return {
    indexOut: run(root, ["ls-files", "-z", "-t", "-s", "-c", "--", ...spec]),
    othersOut: run(root, ["ls-files", "-z", "-o", "--exclude-standard", "--", ...spec]).toString("utf8"),
  };
}

describe("splitCombinedListing", () => {
  it("gives back the index listing and the untracked files git prints separately, on generated repositories", async () => {
    const files = fc.uniqueArray(fc.record({ path: name, state }), { minLength: 1, maxLength: 16, selector: (f) => f.path }).filter(consistent);
    await fc.assert(
      fc.asyncProperty(files, async (fs) => {
        const root = build(fs);
        try {
          for (const spec of [[], [`:(literal)${fs[0]!.path.split("/")[0]!}`]]) {
            const want = separate(root, spec);
            const got = splitCombinedListing(run(root, [...COMBINED_LISTING, "--", ...spec]));
            expect(got.indexOut.equals(want.indexOut)).toBe(true);
            expect(got.othersOut).toBe(want.othersOut);
          }
          const want = separate(root, []);
          const dirty = run(root, ["diff-files", "-z", "--name-status", "--no-renames", "--ignore-submodules=none"]).toString("utf8");
          const folded = foldWorktreeStatus(want.indexOut, dirty, want.othersOut);
          expect(readWorktreeStatus(root)).toEqual(folded);
          expect(await readWorktreeStatusAsync(root)).toEqual(folded);
          for (const job of [startCombinedWorktreeListing(root), startWorktreeListing(root)]) {
            expect((await job.indexOut).equals(want.indexOut)).toBe(true);
            expect(await job.othersOut).toBe(want.othersOut);
            expect(await job.dirtyOut).toBe(dirty);
          }
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 10 },
    );
  });

  it("splits an output with no untracked files, and one with nothing at all", () => {
    const index = Buffer.from(`H 100644 ${"a".repeat(40)} 0\t? odd\0`);
    expect(splitCombinedListing(index).indexOut.equals(index)).toBe(true);
    expect(splitCombinedListing(index).othersOut).toBe("");
    expect(splitCombinedListing(Buffer.from("? ? odd\0? b\0"))).toEqual({ indexOut: Buffer.alloc(0), othersOut: "? odd\0b\0" });
    expect(splitCombinedListing(Buffer.alloc(0))).toEqual({ indexOut: Buffer.alloc(0), othersOut: "" });
  });

  it("refuses an untracked line it cannot read instead of guessing", () => {
    expect(() => splitCombinedListing(Buffer.from("?x\0"))).toThrow(GitOutputError);
    expect(() => splitCombinedListing(Buffer.from("? \0"))).toThrow(/bad ls-files untracked line/);
    expect(() => splitCombinedListing(Buffer.from("? unterminated"))).toThrow(/bad ls-files untracked line "\? unterminated"/);
  });
});
