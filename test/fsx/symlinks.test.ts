/**
 * Symbolic links pointing out of the repository are never followed: `check`
 * does not read (or print bytes of) a transcript, document or sidecar that
 * links outside; `patch` does not copy what a symlinked transcript points at
 * (nor read an outside sidecar); with `.notarai/.cache` linked to an outside
 * directory, `mark-reconciled` and `changed` write nothing there. Each refusal
 * names the path and where it points. Real symlinks in real repositories.
 */
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

const DOC = '::claim{id="c1" confidence=0.5}\nBody.\n::\n\n::evidence{id="e1" for="c1"}\nProof.\n::\n';
const SECRET = "TOP-SECRET-BYTES root:x:0:0\n";
const SPEC = 'schema_version: "0.7"\nintent: x\nbehaviors:\n  - name: a\n    given: b\n    then: c\nartifacts:\n  code:\n    - path: "src/**"\n';

function outsideFile(): string {
  const p = join(tempDir("nr-outside-"), "secret.txt");
  writeFileSync(p, SECRET);
  return p;
}

describe("check", () => {
  it("refuses a transcript that links outside the repository, naming it and its target, printing none of its bytes", () => {
    const secret = outsideFile();
    const repo = tempRepo({ "docs/plan.noma": DOC });
    symlinkSync(secret, join(repo, "docs/plan.noma.patches"));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "link"]);
    for (const args of [["check"], ["check", "docs/plan.noma"], ["check", "docs"]]) {
      const r = runCli([...args, "--format", "json"], { cwd: repo });
      expect(r.code, `${args.join(" ")}: ${r.stdout}${r.stderr}`).toBe(2);
      expect(r.stderr).toContain("docs/plan.noma.patches");
      expect(r.stderr).toContain(secret);
      expect(r.stderr).toMatch(/symbolic link .*outside the repository/);
      expect(r.stdout + r.stderr).not.toContain("TOP-SECRET");
    }
  });

  it("refuses a document and a sidecar that link outside", () => {
    const secret = outsideFile();
    const repo = tempRepo({ "a.noma": DOC });
    symlinkSync(secret, join(repo, "b.noma"));
    symlinkSync(secret, join(repo, "a.noma.capabilities.yml"));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "links"]);
    const r = runCli(["check"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/(a\.noma\.capabilities\.yml|b\.noma).*symbolic link/);
    expect(r.stdout + r.stderr).not.toContain("TOP-SECRET");
  });

  it("a symlink that stays inside the repository is read as usual", () => {
    const repo = tempRepo({ "docs/real.noma": DOC });
    symlinkSync("real.noma", join(repo, "docs/alias.noma"));
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "inner link"]);
    const r = runCli(["check"], { cwd: repo });
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});

describe("patch", () => {
  it("refuses a transcript that is a symbolic link: the outside file is neither copied nor changed", () => {
    const secret = outsideFile();
    const repo = tempRepo({ "d.noma": DOC });
    symlinkSync(secret, join(repo, "d.noma.patches"));
    const r = runCli(["patch", "d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}'], { cwd: repo });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain("d.noma.patches");
    expect(r.stderr).toContain(secret);
    expect(r.stdout + r.stderr).not.toContain("TOP-SECRET");
    expect(lstatSync(join(repo, "d.noma.patches")).isSymbolicLink()).toBe(true);
    expect(readFileSync(secret, "utf8")).toBe(SECRET);
    expect(readFileSync(join(repo, "d.noma"), "utf8")).toBe(DOC);
  });

  it("refuses a capability sidecar that links outside the repository", () => {
    const secret = outsideFile();
    const repo = tempRepo({ "d.noma": DOC });
    symlinkSync(secret, join(repo, "d.noma.capabilities.yml"));
    const r = runCli(["patch", "d.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}'], { cwd: repo });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/d\.noma\.capabilities\.yml.*symbolic link/);
    expect(r.stdout + r.stderr).not.toContain("TOP-SECRET");
    expect(existsSync(join(repo, "d.noma.patches"))).toBe(false);
  });

  it("refuses a document that links outside the repository (CLI and MCP)", async () => {
    const outside = join(tempDir("nr-outside-"), "x.noma");
    writeFileSync(outside, DOC);
    const repo = tempRepo({ "a.noma": DOC });
    symlinkSync(outside, join(repo, "link.noma"));
    const r = runCli(["patch", "link.noma", "--op", '{"op":"delete_block","id":"e1"}'], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/link\.noma.*outside the repository/);
    expect(readFileSync(outside, "utf8")).toBe(DOC);
    expect(existsSync(`${outside}.patches`)).toBe(false);
    const c = new McpClient(repo);
    expect(await c.fails("patch_block", { file: "link.noma", op: { op: "delete_block", id: "e1" } })).toMatch(/outside the repository/);
    expect(await c.fails("read_doc", { file: "link.noma" })).toMatch(/outside the repository/);
    // A transcript symlink beside a document inside: patch_block refuses it too.
    const secret = outsideFile();
    symlinkSync(secret, join(repo, "a.noma.patches"));
    const msg = await c.fails("patch_block", { file: "a.noma", op: { op: "delete_block", id: "e1" } });
    expect(msg).toMatch(/a\.noma\.patches.*symbolic link/);
    expect(msg).not.toContain("TOP-SECRET");
    await c.close();
    expect(readFileSync(secret, "utf8")).toBe(SECRET);
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC);
  });
});

describe("the cache directory", () => {
  it("linked outside: mark-reconciled and state snapshot refuse (exit 2), changed answers cold without writing, and nothing is written there", () => {
    const outside = tempDir("nr-outside-cache-");
    const repo = tempRepo({ ".notarai/a.spec.yaml": SPEC, "src/a.ts": "a\n" });
    mkdirSync(join(repo, ".notarai"), { recursive: true });
    symlinkSync(outside, join(repo, ".notarai/.cache"));
    const mark = runCli(["mark-reconciled", "src/a.ts", "--spec", ".notarai/a.spec.yaml"], { cwd: repo });
    expect(mark.code, mark.stdout + mark.stderr).toBe(2);
    expect(mark.stderr).toContain(".notarai/.cache");
    expect(mark.stderr).toContain(outside);
    expect(mark.stderr).toMatch(/symbolic link .*outside the repository/);
    // `changed` still answers (a cold cache: everything counts as changed), says why, and writes no memo there.
    const changed = runCli(["changed", "--spec", ".notarai/a.spec.yaml"], { cwd: repo });
    expect(changed.code, changed.stdout + changed.stderr).toBe(0);
    expect(changed.stdout).toBe("src/a.ts\n");
    expect(changed.stderr).toMatch(/\.notarai\/\.cache is a symbolic link to .*outside the repository.*refusing to write/s);
    expect(runCli(["state", "snapshot"], { cwd: repo }).code).toBe(2);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a dangling link to a directory outside that does not exist yet is outside too: nothing is created there", () => {
    const parent = tempDir("nr-outside-cache-");
    const missing = join(parent, "not-yet");
    const repo = tempRepo({ ".notarai/a.spec.yaml": SPEC, "src/a.ts": "a\n" });
    symlinkSync(missing, join(repo, ".notarai/.cache"));
    const mark = runCli(["mark-reconciled", "src/a.ts", "--spec", ".notarai/a.spec.yaml"], { cwd: repo });
    expect(mark.code, mark.stdout + mark.stderr).toBe(2);
    expect(mark.stderr).toMatch(/\.notarai\/\.cache is a symbolic link to .*not-yet, outside the repository/);
    expect(existsSync(missing)).toBe(false);
  });

  it("a cache DB planted outside through the link is never read", () => {
    const outside = tempDir("nr-outside-cache-");
    writeFileSync(join(outside, "notarai.db"), "SQLite format 3\0garbage that must not be read");
    const repo = tempRepo({ ".notarai/a.spec.yaml": SPEC, "src/a.ts": "a\n" });
    symlinkSync(outside, join(repo, ".notarai/.cache"));
    const r = runCli(["cache", "status", "--format", "json"], { cwd: repo });
    expect(r.stdout + r.stderr).toMatch(/symbolic link|outside the repository/);
  });
});
