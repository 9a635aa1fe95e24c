/**
 * Equivalence of `tempRepo`'s copied `git init` (init-template.ts) with git's own: a copy of the
 * template is what `git init` + the tests' config write, file for file; on generated trees,
 * `tempRepo` (a copy, then git's add and commit) makes the repository `tempRepoWithGit` (git
 * alone) makes — the same commit, every file of `.git` the same bytes (loose objects inflated,
 * the index's entries and extensions; its stat data is each work tree's own) — and git finds it
 * clean; and a change of what git reads (here GIT_TEMPLATE_DIR) makes a new template.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { initFromTemplate, initWithGit } from "./init-template.js";
import { tempDir, tempRepo, tempRepoWithGit, type Tree } from "./temp-repo.js";

interface Entry {
  kind: "file" | "dir";
  mode: number;
  bytes?: Buffer;
}

/** Every file and directory under `.git`, loose objects inflated, the index left to `readIndex`. */
function snapshot(repo: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(repo, ".git", rel)).sort()) {
      const r = rel === "" ? name : `${rel}/${name}`;
      const st = lstatSync(join(repo, ".git", r));
      if (st.isDirectory()) {
        out.set(r, { kind: "dir", mode: st.mode & 0o777 });
        walk(r);
      } else {
        const raw = readFileSync(join(repo, ".git", r));
        const bytes = /^objects\/[0-9a-f]{2}\//.test(r) ? inflateSync(raw) : r === "index" ? Buffer.alloc(0) : raw;
        out.set(r, { kind: "file", mode: st.mode & 0o777, bytes });
      }
    }
  };
  walk("");
  return out;
}

interface IndexEntry {
  name: string;
  mode: number;
  id: string;
  flags: number;
}

/** The index's version, entries (without their stat data) and the bytes of its extensions. */
function readIndex(repo: string): { version: number; entries: IndexEntry[]; extensions: Buffer } {
  const b = readFileSync(join(repo, ".git/index"));
  expect(b.subarray(0, 4).toString("latin1")).toBe("DIRC");
  const count = b.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const nameEnd = b.indexOf(0, at + 62);
    const name = b.subarray(at + 62, nameEnd).toString("utf8");
    entries.push({ name, mode: b.readUInt32BE(at + 24), id: b.subarray(at + 40, at + 60).toString("hex"), flags: b.readUInt16BE(at + 60) });
    at += (62 + (nameEnd - (at + 62)) + 8) & ~7;
  }
  return { version: b.readUInt32BE(4), entries, extensions: b.subarray(at, b.length - 20) };
}

const gitIn = (cwd: string, args: string[]): string => execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

const segment = fc
  .string({ minLength: 1, maxLength: 5, unit: fc.constantFrom("a", "b", "Z", "0", "_", "-", ".", " ", "é", "日", "+", "=") })
  .filter((s) => s !== "." && s !== ".." && s.toLowerCase() !== ".git");
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
const content = fc.oneof(
  fc.string({ maxLength: 40, unit: fc.constantFrom("x", "\n", "\r\n", "é", " ", "\t", "#", "*") }),
  fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
);
/** Trees a test could write: no path that is both a file and a directory. */
const tree = fc.dictionary(path, content, { minKeys: 1, maxKeys: 8 }).filter((t) => {
  const paths = new Set(Object.keys(t));
  return [...paths].every((p) => p.split("/").every((_, i, s) => i === s.length - 1 || !paths.has(s.slice(0, i + 1).join("/"))));
});

describe("init template", () => {
  it("a copy of the template is what git init and the tests' config write, file for file", () => {
    const byGit = tempDir("nr-repo-");
    initWithGit(byGit);
    const copied = tempDir("nr-repo-");
    initFromTemplate(copied);
    expect(snapshot(copied)).toEqual(snapshot(byGit));
    expect(gitIn(copied, ["config", "--local", "--list"])).toBe(gitIn(byGit, ["config", "--local", "--list"]));
  });

  it("tempRepo makes the repository git alone makes, on generated trees", () => {
    fc.assert(
      fc.property(tree, (t: Tree) => {
        const copied = tempRepo(t);
        const byGit = tempRepoWithGit(t);
        expect(gitIn(copied, ["rev-parse", "HEAD"])).toBe(gitIn(byGit, ["rev-parse", "HEAD"]));
        expect(snapshot(copied)).toEqual(snapshot(byGit));
        expect(readIndex(copied)).toEqual(readIndex(byGit));
        expect(gitIn(copied, ["status", "--porcelain", "--untracked-files=all", "--ignored"])).toBe(
          gitIn(byGit, ["status", "--porcelain", "--untracked-files=all", "--ignored"]),
        );
      }),
      { numRuns: 10 },
    );
  });

  it("is made again when git's environment changes (GIT_TEMPLATE_DIR), and the first one serves again when it is back", () => {
    const before = tempDir("nr-repo-");
    initFromTemplate(before);
    const templateDir = tempDir("nr-git-templates-");
    mkdirSync(join(templateDir, "info"));
    writeFileSync(join(templateDir, "info/exclude"), "# from GIT_TEMPLATE_DIR\n");
    const saved = process.env["GIT_TEMPLATE_DIR"];
    process.env["GIT_TEMPLATE_DIR"] = templateDir;
    try {
      const copied = tempDir("nr-repo-");
      initFromTemplate(copied);
      const byGit = tempDir("nr-repo-");
      initWithGit(byGit);
      expect(readFileSync(join(copied, ".git/info/exclude"), "utf8")).toBe("# from GIT_TEMPLATE_DIR\n");
      expect(snapshot(copied)).toEqual(snapshot(byGit));
    } finally {
      if (saved === undefined) delete process.env["GIT_TEMPLATE_DIR"];
      else process.env["GIT_TEMPLATE_DIR"] = saved;
    }
    const after = tempDir("nr-repo-");
    initFromTemplate(after);
    expect(snapshot(after)).toEqual(snapshot(before));
    expect(readFileSync(join(after, ".git/info/exclude"), "utf8")).not.toContain("GIT_TEMPLATE_DIR");
  });
});
