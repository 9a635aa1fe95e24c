/**
 * Equivalence of the in-process repository set-up with git's own (init-template.ts,
 * initial-commit.ts): a copy of the init template is what `git init` + the tests' config write,
 * file for file; on generated trees, the in-process initial commit writes what `git add -A` and
 * `git commit -qm initial` write — every file of `.git` the same bytes, the loose objects the
 * same content, the index the same entries and extensions, its stat data the files' own (git sees
 * nothing to refresh) — and git finds the repository clean and whole. The judgement of when the
 * fast path applies refuses what could make git write something else.
 */
import { execFileSync } from "node:child_process";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { inflateSync } from "node:zlib";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { initFromTemplate, initWithGit } from "./init-template.js";
import { initialCommitCovers, judgeGitSetup, writeInitialCommit } from "./initial-commit.js";
import { TEST_COMMIT_DATE } from "./run-git.js";
import { tempDir, type Tree, writeTree } from "./temp-repo.js";

/** git with no user-wide or system configuration, whatever the machine's (HOME an empty directory of the test's): the reference side of the comparison. */
function cleanGit(home: string, cwd: string, args: string[]): string {
  const env: NodeJS.ProcessEnv = { PATH: process.env["PATH"], HOME: home, GIT_CONFIG_NOSYSTEM: "1", LANG: "C" };
  env["GIT_AUTHOR_DATE"] = TEST_COMMIT_DATE;
  env["GIT_COMMITTER_DATE"] = TEST_COMMIT_DATE;
  return execFileSync("git", args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

interface Entry {
  kind: "file" | "dir";
  mode: number;
  bytes?: Buffer;
}

/** Every file and directory under `.git`, loose objects inflated. */
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
  stat: number[];
}

function readIndex(repo: string): { version: number; entries: IndexEntry[]; extensions: Buffer } {
  const b = readFileSync(join(repo, ".git/index"));
  expect(b.subarray(0, 4).toString("latin1")).toBe("DIRC");
  const count = b.readUInt32BE(8);
  const entries: IndexEntry[] = [];
  let at = 12;
  for (let i = 0; i < count; i++) {
    const flags = b.readUInt16BE(at + 60);
    const nameEnd = b.indexOf(0, at + 62);
    const name = b.subarray(at + 62, nameEnd).toString("utf8");
    const stat = [0, 4, 8, 12, 20, 28, 32, 36].map((o) => b.readUInt32BE(at + o));
    entries.push({ name, mode: b.readUInt32BE(at + 24), id: b.subarray(at + 40, at + 60).toString("hex"), flags, stat });
    at += (62 + (nameEnd - (at + 62)) + 8) & ~7;
  }
  return { version: b.readUInt32BE(4), entries, extensions: b.subarray(at, b.length - 20) };
}

/** The stat fields git keeps for a file (ctime, mtime, inode, uid, gid, size), as the index holds them. */
function statOf(repo: string, name: string): number[] {
  const st = lstatSync(join(repo, name), { bigint: true });
  const u = (v: bigint): number => Number(v & 0xffffffffn);
  return [
    st.ctimeNs / 1_000_000_000n,
    st.ctimeNs % 1_000_000_000n,
    st.mtimeNs / 1_000_000_000n,
    st.mtimeNs % 1_000_000_000n,
    st.ino,
    st.uid,
    st.gid,
    st.size,
  ].map(u);
}

const segment = fc
  .string({ minLength: 1, maxLength: 5, unit: fc.constantFrom("a", "b", "Z", "0", "_", "-", ".", " ", "é", "日", "+", "=") })
  .filter((s) => !s.startsWith(".") && !s.startsWith(" ") && !s.endsWith(".") && !s.endsWith(" "));
const path = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join("/"));
const content = fc.oneof(
  fc.string({ maxLength: 40, unit: fc.constantFrom("x", "\n", "\r\n", "é", " ", "\t", "#") }),
  fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
);
const tree = fc.dictionary(path, content, { minKeys: 1, maxKeys: 8 }).filter((t) => initialCommitCovers(t, "initial"));

describe("init template", () => {
  it("a copy of the template is what git init and the tests' config write, file for file", () => {
    const byGit = tempDir("nr-repo-");
    initWithGit(byGit);
    const copied = tempDir("nr-repo-");
    initFromTemplate(copied);
    expect(snapshot(copied)).toEqual(snapshot(byGit));
    const home = tempDir("nr-home-");
    expect(cleanGit(home, copied, ["config", "--local", "--list"])).toBe(cleanGit(home, byGit, ["config", "--local", "--list"]));
  });
});

describe("initial commit in process", () => {
  it("writes what git add -A and git commit -qm initial write, on generated trees", () => {
    const home = tempDir("nr-home-");
    fc.assert(
      fc.property(tree, (t: Tree) => {
        // The same start on both sides: the first test proves a copy of the template is git init's repository.
        const byGit = tempDir("nr-repo-");
        initFromTemplate(byGit);
        writeTree(byGit, t);
        cleanGit(home, byGit, ["add", "-A"]);
        cleanGit(home, byGit, ["commit", "-qm", "initial"]);
        const inProcess = tempDir("nr-repo-");
        initFromTemplate(inProcess);
        writeTree(inProcess, t);
        const id = writeInitialCommit(inProcess, t, "initial");

        expect(`${id}\n`).toBe(readFileSync(join(byGit, ".git/refs/heads/main"), "utf8"));
        expect(snapshot(inProcess)).toEqual(snapshot(byGit));
        const ours = readIndex(inProcess);
        const theirs = readIndex(byGit);
        expect(ours.version).toBe(theirs.version);
        expect(ours.entries.map(({ stat: _, ...e }) => e)).toEqual(theirs.entries.map(({ stat: _, ...e }) => e));
        expect(ours.extensions.equals(theirs.extensions)).toBe(true);
        for (const e of ours.entries) expect(e.stat).toEqual(statOf(inProcess, e.name));
        // git sees nothing to refresh and nothing changed.
        expect(cleanGit(home, inProcess, ["diff-files", "--name-only"])).toBe("");
        expect(cleanGit(home, inProcess, ["status", "--porcelain", "--untracked-files=all"])).toBe("");
      }),
      { numRuns: 30 },
    );
  });

  it("covers plain trees only: no .git* file, nothing git would refuse or rename, no file that is also a directory", () => {
    expect(initialCommitCovers({ "docs/a.noma": "x", "src/é 日.ts": "y" }, "initial")).toBe(true);
    expect(initialCommitCovers({}, "initial")).toBe(false);
    for (const bad of [
      ".gitignore",
      "a/.gitattributes",
      ".gitmodules",
      ".git/x",
      ".GIT/x",
      "git~1/x",
      "a/./b",
      "a//b",
      "a/../b",
      "/a",
      "a/",
      "a.",
      "a ",
      " a",
      ".hidden",
      "a\\b",
      "a\nb",
      "a*b",
    ]) {
      expect(initialCommitCovers({ [bad]: "x" }, "initial"), bad).toBe(false);
    }
    expect(initialCommitCovers({ a: "x", "a/b": "y" }, "initial")).toBe(false);
    expect(initialCommitCovers({ a: "x" }, "two\nlines")).toBe(false);
    expect(initialCommitCovers({ a: "x" }, " padded")).toBe(false);
  });

  it("applies only where git is set up plainly: no GIT_* variable a local add or commit reads, harmless configuration, no user-wide ignore or attributes file", () => {
    const none = (): boolean => false;
    const env = { HOME: "/home/u", PATH: "/usr/bin" };
    const listing = "user.name\nTest\0user.email\nt@example.invalid\0core.bare\nfalse\0credential.helper\nstore\0commit.gpgsign\nfalse\0";
    expect(judgeGitSetup(env, listing, none)).toBe(true);
    expect(judgeGitSetup({ ...env, GIT_SSL_CAINFO: "/etc/ssl/ca.crt", GIT_TERMINAL_PROMPT: "0" }, listing, none)).toBe(true);
    expect(judgeGitSetup({ ...env, GIT_DIR: "/x" }, listing, none)).toBe(false);
    expect(judgeGitSetup({ ...env, GIT_INDEX_FILE: "/x" }, listing, none)).toBe(false);
    expect(judgeGitSetup({ ...env, GIT_AUTHOR_NAME: "Other" }, listing, none)).toBe(false);
    expect(judgeGitSetup(env, `${listing}core.autocrlf\ntrue\0`, none)).toBe(false);
    expect(judgeGitSetup(env, `${listing}core.excludesfile\n/x\0`, none)).toBe(false);
    expect(judgeGitSetup(env, `${listing}index.version\n4\0`, none)).toBe(false);
    expect(judgeGitSetup(env, `${listing}feature.manyfiles\0`, none)).toBe(false);
    expect(judgeGitSetup(env, listing, (p) => p === "/home/u/.config/git/ignore")).toBe(false);
    expect(judgeGitSetup({ ...env, XDG_CONFIG_HOME: "/xdg" }, listing, (p) => p === "/xdg/git/attributes")).toBe(false);
  });
});
