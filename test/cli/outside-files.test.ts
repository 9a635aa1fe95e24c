/**
 * Issue 15 item 8: `check`, `ids`, `parse` and `render` read a file the user names even
 * when it lies outside the repository (or no repository is around): a user naming a file
 * means it. The path is printed as given. Containment stays for writes (`patch`) and for
 * a path inside the repository that a symlink leads out of.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const VALID = "# Intro\n\nAll good.\n";
const WARNS = '::risk{id="r"}\nno owner\n::\n';

function outsideDir(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(dir, rel, ".."), { recursive: true });
    writeFileSync(join(dir, rel), text);
  }
  return dir;
}

describe("check on files outside the repository", () => {
  it("checks an absolute path and prints it as given", () => {
    const repo = tempRepo({ "a.noma": VALID });
    const out = outsideDir({ "x.noma": WARNS, "ok.noma": VALID });
    const r = runCli(["check", join(out, "x.noma")], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`WARNING [risk-without-owner] ${join(out, "x.noma")}:1:1: ::risk has no owner= attribute. (lines 1-3)\n`);
    expect(runCli(["check", join(out, "ok.noma")], { cwd: repo })).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
  });

  it("checks a relative path, with the repository's own files, and reports errors with exit 1", () => {
    const repo = tempRepo({ "a.noma": WARNS });
    const out = outsideDir({ "bad.noma": '::evidence{id="e" for="nope"}\nx\n::\n' });
    const rel = relative(repo, join(out, "bad.noma"));
    const r = runCli(["check", rel, "a.noma", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(1);
    const files = JSON.parse(r.stdout).result.files.map((f: { file: string }) => f.file);
    expect(files.sort()).toEqual([rel, "a.noma"].sort());
  });

  it("checks a directory outside the repository: its documents, found on disk", () => {
    const repo = tempRepo({ "a.noma": VALID });
    const out = outsideDir({ "docs/x.noma": WARNS, "docs/sub/y.noma": VALID, "docs/.hidden/z.noma": WARNS, "docs/notes.md": "" });
    const r = runCli(["check", join(out, "docs"), "--format", "json"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(
      JSON.parse(r.stdout)
        .result.files.map((f: { file: string }) => f.file)
        .sort(),
    ).toEqual([`${join(out, "docs")}/sub/y.noma`, `${join(out, "docs")}/x.noma`]);
  });

  it("works with no repository at all, and a missing outside file is still a usage error", () => {
    const cwd = tempDir();
    const out = outsideDir({ "x.noma": WARNS });
    expect(runCli(["check", join(out, "x.noma")], { cwd })).toMatchObject({ code: 0, stdout: expect.stringContaining("risk-without-owner") });
    const missing = runCli(["check", join(out, "nope.noma")], { cwd });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file or directory");
  });

  it("still refuses a path inside the repository that a symlink leads out of", () => {
    const repo = tempRepo({ "a.noma": VALID });
    const out = outsideDir({ "x.noma": WARNS });
    symlinkSync(join(out, "x.noma"), join(repo, "link.noma"));
    const r = runCli(["check", "link.noma"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("outside the repository");
  });
});

describe("ids, parse, render on files outside the repository", () => {
  it("read the file and print as usual", () => {
    const repo = tempRepo({ "a.noma": VALID });
    const out = outsideDir({ "x.noma": '# Intro\n\n::claim{id="c"}\nx\n::\n' });
    const file = join(out, "x.noma");
    expect(runCli(["ids", file], { cwd: repo })).toMatchObject({ code: 0, stdout: "intro\nc\n" });
    expect(JSON.parse(runCli(["parse", file], { cwd: repo }).stdout).children[0]).toMatchObject({ type: "section", id: "intro" });
    expect(runCli(["render", file], { cwd: repo })).toMatchObject({ code: 0, stdout: '# Intro\n\n::claim{id="c"}\nx\n::\n' });
    expect(runCli(["ids", file], { cwd: tempDir() }).stdout).toBe("intro\nc\n");
  });

  it("a book manifest outside reads its chapters beside it, not above it", () => {
    const out = outsideDir({
      "book/book.noma.yml": "chapters:\n  - 01-a.noma\n  - ../secret.noma\n",
      "book/01-a.noma": "# A\n\n## Scope\n",
      "secret.noma": "# Secret\n",
    });
    const r = runCli(["ids", join(out, "book/book.noma.yml"), "--format", "json"], { cwd: tempDir() });
    expect(JSON.parse(r.stdout).result.canonical).toEqual(["a", "a/scope"]);
  });
});

describe("writes stay contained", () => {
  it("patch refuses a document outside the repository", () => {
    const repo = tempRepo({ "a.noma": VALID });
    const out = outsideDir({ "x.noma": '::note{id="n"}\n::\n' });
    const r = runCli(["patch", join(out, "x.noma"), "--op", '{"op":"update_attribute","id":"n","key":"k","value":1}'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("outside the repository");
  });
});
