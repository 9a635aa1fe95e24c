/**
 * The git layer in real repositories: merge-base (never two-dot), changed
 * files (committed, staged, unstaged, untracked, deleted, both sides of
 * renames), ref safety, chunked literal pathspecs, :(exclude) pathspecs,
 * binary detection, new-file diffs identical to git's, and shallow clones
 * (deepen, then fail with a fetch-depth hint).
 */
import { describe, expect, it } from "vitest";
import { chmodSync, existsSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import {
  changedFiles,
  diffNumstat,
  diffPatch,
  findMergeBase,
  GitRefError,
  newFileDiff,
  readWorktreeStatus,
  readWorktreeStatusAsync,
  resolveCommit,
} from "../../src/internal.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir, tempRepo, writeTree } from "../helpers/temp-repo.js";
import { runCli } from "../helpers/run-cli.js";
import { branch, checkout, commitAll, remove, write } from "../reconcile/helpers/repo-ops.js";

describe("findMergeBase", () => {
  it("diffs against the fork point: commits made on the base after the fork are not this branch's changes", () => {
    const root = tempRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    const fork = git(root, ["rev-parse", "HEAD"]).trim();
    branch(root, "feature");
    write(root, "a.txt", "a changed on feature\n");
    commitAll(root, "feature work");
    checkout(root, "main");
    write(root, "b.txt", "b changed on main after the fork\n");
    write(root, "c.txt", "new on main\n");
    commitAll(root, "main moves on");
    checkout(root, "feature");
    const mb = findMergeBase(root, "main");
    expect(mb.mergeBase).toBe(fork);
    expect(changedFiles(root, mb.mergeBase).map((c) => c.path)).toEqual(["a.txt"]);
    // A two-dot diff against the base tip would wrongly include b.txt and c.txt.
    expect(git(root, ["diff", "--name-only", "main"]).trim().split("\n").sort()).toEqual(["a.txt", "b.txt", "c.txt"]);
  });

  it("rejects refs that look like options, and refs that do not resolve", () => {
    const root = tempRepo({ "a.txt": "a" });
    for (const bad of ["-x", "--output=/tmp/pwned", "--all"]) {
      expect(() => findMergeBase(root, bad)).toThrow(GitRefError);
      expect(() => resolveCommit(root, bad)).toThrow(/would be read as options/);
    }
    expect(() => findMergeBase(root, "no-such-branch")).toThrowError(expect.objectContaining({ code: "unknown-ref" }));
    expect(() => findMergeBase(root, "")).toThrowError(expect.objectContaining({ code: "bad-ref" }));
    expect(existsSync("/tmp/pwned")).toBe(false);
  });

  it("reports unrelated histories", () => {
    const root = tempRepo({ "a.txt": "a" });
    git(root, ["checkout", "-q", "--orphan", "other"]);
    write(root, "z.txt", "z");
    commitAll(root, "orphan");
    expect(() => findMergeBase(root, "main")).toThrowError(expect.objectContaining({ code: "no-merge-base" }));
  });
});

describe("changedFiles", () => {
  it("includes committed, staged and unstaged changes, untracked and deleted files, and both sides of renames", () => {
    const root = tempRepo({
      "keep.txt": "k\n",
      "mod.txt": "m\n",
      "gone.txt": "g\n",
      "old/name.txt": "rename me\n".repeat(20),
      "wt-del.txt": "w\n",
      "staged.txt": "s\n",
    });
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    branch(root, "feature");
    mkdirSync(join(root, "new"));
    git(root, ["mv", "old/name.txt", "new/name.txt"]);
    remove(root, "gone.txt");
    write(root, "mod.txt", "m2\n");
    commitAll(root, "feature");
    write(root, "staged.txt", "s2\n");
    git(root, ["add", "staged.txt"]);
    remove(root, "wt-del.txt");
    write(root, "untracked dir/new file.txt", "u\n");
    write(root, ".gitignore", "*.log\n");
    write(root, "ignored.log", "i\n");
    const changes = changedFiles(root, base);
    expect(changes).toEqual([
      { path: ".gitignore", kind: "untracked" },
      { path: "gone.txt", kind: "deleted" },
      { path: "mod.txt", kind: "modified" },
      { path: "new/name.txt", kind: "renamed", from: "old/name.txt" },
      { path: "old/name.txt", kind: "deleted", to: "new/name.txt" },
      { path: "staged.txt", kind: "modified" },
      { path: "untracked dir/new file.txt", kind: "untracked" },
      { path: "wt-del.txt", kind: "deleted" },
    ]);
  });
});

describe("diffPatch / diffNumstat", () => {
  it("restricts the diff to a file set, in argv-sized chunks, with literal pathspecs", () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < 300; i++) tree[`dir/file-${String(i).padStart(3, "0")}.txt`] = `line ${i}\n`;
    tree["star*[x].txt"] = "glob chars\n";
    tree["starX.txt"] = "must not match the glob\n";
    const root = tempRepo(tree);
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    for (const p of Object.keys(tree)) write(root, p, `${tree[p]}changed\n`);
    const paths = Object.keys(tree).filter((p) => p !== "starX.txt");
    const whole = git(root, ["diff", "--no-ext-diff", "--no-color", base, "--", ...paths.map((p) => `:(literal)${p}`)]);
    const chunked = diffPatch(root, base, paths, { chunkChars: 200 });
    expect(chunked).toBe(whole);
    expect(chunked).toContain("star*[x].txt");
    expect(chunked).not.toContain("starX.txt");
    expect(diffNumstat(root, base, paths, { chunkChars: 100 })).toHaveLength(paths.length);
  });

  it("applies :(exclude) glob pathspecs", () => {
    const root = tempRepo({ "a.txt": "a\n", "Cargo.lock": "l\n", "b.lock": "b\n" });
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    for (const p of ["a.txt", "Cargo.lock", "b.lock"]) write(root, p, "changed\n");
    const d = diffPatch(root, base, ["a.txt", "Cargo.lock", "b.lock"], { exclude: ["*.lock"] });
    expect(d).toContain("a/a.txt");
    expect(d).not.toContain(".lock");
  });

  it("flags binary files by git's own detection", () => {
    const root = tempRepo({ "img.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]), "t.txt": "t\n" });
    const base = git(root, ["rev-parse", "HEAD"]).trim();
    write(root, "img.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 9, 9, 9]));
    write(root, "t.txt", "t2\n");
    const stats = diffNumstat(root, base, ["img.png", "t.txt"]);
    expect(stats.find((s) => s.path === "img.png")?.binary).toBe(true);
    expect(stats.find((s) => s.path === "t.txt")?.binary).toBe(false);
  });

  it("fails loudly when git fails (never an empty diff)", () => {
    const root = tempRepo({ "a.txt": "a" });
    expect(() => diffPatch(root, "0".repeat(40), ["a.txt"])).toThrow(/git diff/);
  });
});

describe("newFileDiff", () => {
  it("renders exactly what git prints for a new file (names with spaces, quotes, tabs, non-ASCII; no final newline; empty; executable)", () => {
    const root = tempRepo({ "seed.txt": "s" });
    const files: Record<string, Buffer> = {
      "plain.txt": Buffer.from("one\ntwo\n"),
      "no newline.txt": Buffer.from("a\nb"),
      'quote"and\\back.txt': Buffer.from("q\n"),
      "tab\there.txt": Buffer.from("t\n"),
      "é日本.md": Buffer.from("unicode\n"),
      "empty.txt": Buffer.alloc(0),
      "crlf.txt": Buffer.from("a\r\nb\r\n"),
    };
    writeTree(root, files);
    write(root, "run.sh", "#!/bin/sh\necho hi\n");
    git(root, ["update-index", "--chmod=+x", "--add", "run.sh"]);
    git(root, ["reset", "-q", "run.sh"]);
    chmodSync(join(root, "run.sh"), 0o755);
    const all = { ...files, "run.sh": Buffer.from("#!/bin/sh\necho hi\n") };
    git(root, ["add", "-N", "--", ...Object.keys(all)]);
    for (const [p, bytes] of Object.entries(all)) {
      const expected = git(root, [
        "-c",
        "core.quotePath=true",
        "diff",
        "--no-ext-diff",
        "--no-color",
        "--src-prefix=a/",
        "--dst-prefix=b/",
        "--",
        `:(literal)${p}`,
      ]).replace(/^index 0000000\.\.([0-9a-f]+)( \d+)?$/m, (_m, id: string) => `index 0000000..${id.slice(0, 7)}`);
      expect(newFileDiff(p, bytes, p === "run.sh")).toBe(expected);
    }
  });
});

describe("readWorktreeStatus", () => {
  it("gives clean tracked files their index blob and flags modified, deleted and untracked ones", () => {
    const root = tempRepo({ "clean.txt": "c\n", "mod.txt": "m\n", "del.txt": "d\n", "touched.txt": "t\n" });
    write(root, "mod.txt", "m2\n");
    remove(root, "del.txt");
    write(root, "new.txt", "n\n");
    utimesSync(join(root, "touched.txt"), new Date(), new Date(Date.now() + 5_000));
    const s = readWorktreeStatus(root);
    expect(s.get("clean.txt")).toMatchObject({ tracked: true, modified: false, deleted: false, blob: git(root, ["rev-parse", "HEAD:clean.txt"]).trim() });
    // Only timestamps changed: git may report it (stat differs); its hash is then computed from the bytes.
    expect(s.get("touched.txt")).toMatchObject({ tracked: true, deleted: false });
    expect(s.get("mod.txt")).toMatchObject({ modified: true });
    expect(s.get("del.txt")).toMatchObject({ deleted: true });
    expect(s.get("new.txt")).toMatchObject({ tracked: false, blob: null });
    expect(readWorktreeStatus(root, ["mod.txt", "new.txt", "clean.txt"])).toEqual(
      new Map([
        ["clean.txt", s.get("clean.txt")],
        ["mod.txt", s.get("mod.txt")],
        ["new.txt", s.get("new.txt")],
      ]),
    );
  });

  it("the async form agrees with the sync form", async () => {
    const root = tempRepo({ "a.txt": "a\n", "b.txt": "b\n" });
    write(root, "a.txt", "a2\n");
    write(root, "c.txt", "c\n");
    expect(await readWorktreeStatusAsync(root)).toEqual(readWorktreeStatus(root));
    expect(await readWorktreeStatusAsync(root, ["c.txt"])).toEqual(readWorktreeStatus(root, ["c.txt"]));
  });
});

describe("shallow clones", () => {
  /** The origin's history (built once for the file, test/helpers/repo-templates.ts): each test clones its own copy. */
  const templates = repoTemplates();
  const origin = (): string => templates.copy("origin", buildOrigin);

  function buildOrigin(): string {
    const o = tempRepo({ "f.txt": "0\n" });
    for (let i = 1; i <= 4; i++) {
      write(o, "f.txt", `${i}\n`);
      commitAll(o, `main ${i}`);
    }
    branch(o, "feature");
    for (let i = 1; i <= 5; i++) {
      write(o, `feat${i}.txt`, `${i}\n`);
      commitAll(o, `feature ${i}`);
    }
    checkout(o, "main");
    for (let i = 5; i <= 7; i++) {
      write(o, "f.txt", `${i}\n`);
      commitAll(o, `main ${i}`);
    }
    return o;
  }

  function shallowClone(o: string): string {
    const dir = join(tempDir(), "clone");
    git(o, ["config", "uploadpack.allowFilter", "true"]);
    git(process.cwd(), ["clone", "-q", "--depth=1", "--branch", "feature", `file://${o}`, dir]);
    git(dir, ["fetch", "-q", "--depth=1", "origin", "main:refs/remotes/origin/main"]);
    return dir;
  }

  it("deepens a shallow clone until the merge-base appears", () => {
    const o = origin();
    const dir = shallowClone(o);
    expect(git(dir, ["rev-parse", "--is-shallow-repository"]).trim()).toBe("true");
    const deepened: number[] = [];
    const mb = findMergeBase(dir, "origin/main", { deepenSteps: [2, 4, 8], onDeepen: (n) => deepened.push(n) });
    expect(mb.mergeBase).toBe(git(o, ["merge-base", "main", "feature"]).trim());
    expect(deepened.length).toBeGreaterThan(0);
    expect(changedFiles(dir, mb.mergeBase).map((c) => c.path)).toEqual(["feat1.txt", "feat2.txt", "feat3.txt", "feat4.txt", "feat5.txt"]);
  });

  it("fails with exit 2 and a fetch-depth hint when deepening cannot find it", () => {
    const o = origin();
    const dir = shallowClone(o);
    rmSync(o, { recursive: true, force: true });
    const r = runCli(["affected", "--base", "origin/main"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("fetch-depth: 0");
    expect(r.stdout).toBe("");
  });
});
