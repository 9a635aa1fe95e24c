/**
 * A transcript record's `doc_uri` names the document relative to the repository (see
 * docs/noma-decisions.md): the records a clone writes hold no local path, so a transcript
 * written in one clone verifies, checks and commits in another clone at a different path
 * (real `git clone`s, the real CLI, the real hook). Absolute file URIs — what other tools and
 * our earlier versions write — still verify, and records appended after them too.
 */
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { installHooks, patchDocument } from "../../src/internal.js";
import { patchInProcess } from "../helpers/patch-in-process.js";
import { CLI, runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { commit } from "../check/staged/hook-repo.js";

const CLAIM = '# Plan\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nSeen.\n::\n';
const op = (value: number) => JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value });

function docUris(transcript: string): string[] {
  return readFileSync(transcript, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => (JSON.parse(l) as { doc_uri: string }).doc_uri);
}

/** What a user has in a clone: the package's binary in node_modules/.bin (kept out of git) and our pre-commit hook. */
function equip(repo: string): string {
  mkdirSync(join(repo, "node_modules/.bin"), { recursive: true });
  symlinkSync(CLI, join(repo, "node_modules/.bin/noma-reconcile"));
  appendFileSync(join(repo, ".git/info/exclude"), "node_modules/\n");
  git(repo, ["config", "user.name", "Test"]);
  git(repo, ["config", "user.email", "test@example.invalid"]);
  expect(installHooks(repo, {}).installed).toHaveLength(1);
  return repo;
}

function clone(origin: string, where: string): string {
  mkdirSync(where, { recursive: true });
  git(where, ["clone", "-q", origin, "proj"]);
  return equip(join(where, "proj"));
}

describe("doc_uri: the document named relative to the repository", () => {
  it("patch, transcript accept and the MCP server's patch_block write the repository path, each segment percent-encoded, from any subdirectory", () => {
    const repo = tempRepo({ "docs/my doc#1.noma": CLAIM, "docs/sub/.keep": "" });
    const doc = "docs/my doc#1.noma";
    expect(runCli(["patch", doc, "--op", op(0.6)], { cwd: repo }).code).toBe(0);
    expect(runCli(["patch", "../my doc#1.noma", "--op", op(0.7)], { cwd: join(repo, "docs/sub") }).code).toBe(0);
    writeFileSync(join(repo, doc), readFileSync(join(repo, doc), "utf8").replace("A claim.", "A claim, edited."));
    expect(runCli(["transcript", "accept", doc, "--reason", "edited in the editor"], { cwd: repo }).code).toBe(0);
    const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "patch_block", arguments: { file: doc, op: JSON.parse(op(0.8)) } } };
    const mcp = runCli(["mcp"], { cwd: repo, input: `${JSON.stringify(call)}\n` });
    expect(mcp.code).toBe(0);
    expect(mcp.stdout).toContain('\\"ok\\":true');
    const transcript = join(repo, `${doc}.patches`);
    expect(docUris(transcript)).toEqual(["docs/my%20doc%231.noma", "docs/my%20doc%231.noma", "docs/my%20doc%231.noma", "docs/my%20doc%231.noma"]);
    expect(readFileSync(transcript, "utf8")).not.toContain(repo);
    // Resolved against the repository's top level as a directory URI, it is the document's file URI (§5.2).
    expect(new URL(docUris(transcript)[0]!, pathToFileURL(`${repo}/`)).href).toBe(pathToFileURL(join(repo, doc)).href);
    expect(runCli(["transcript", "verify", doc, "--strict"], { cwd: repo }).code).toBe(0);
  });

  it("outside any repository the records hold the absolute file URI: there is nothing to name it relative to", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "d.noma"), CLAIM);
    patchDocument(join(dir, "d.noma"), [JSON.parse(op(0.6))], { actor: { kind: "agent", name: "t" } });
    expect(docUris(join(dir, "d.noma.patches"))).toEqual([pathToFileURL(join(dir, "d.noma")).href]);
  });

  it("a transcript written in one clone verifies, checks, commits and passes the PR check in another clone at a different path", () => {
    const origin = tempRepo({ "docs/plan.noma": CLAIM });
    git(origin, ["config", "receive.denyCurrentBranch", "ignore"]);
    const alice = clone(origin, join(tempDir(), "home", "alice", "work"));
    git(alice, ["switch", "-qc", "feature"]);
    patchInProcess(alice, "docs/plan.noma", JSON.parse(op(0.6)));
    git(alice, ["add", "-A"]);
    expect(commit(alice, ["-m", "patched by alice"]).code).toBe(0);
    git(alice, ["push", "-q", "origin", "feature"]);

    const bob = clone(origin, join(tempDir(), "Users", "bob", "src", "elsewhere"));
    git(bob, ["switch", "-q", "feature"]);
    const verify = runCli(["transcript", "verify", "docs/plan.noma", "--strict"], { cwd: bob });
    expect(verify).toMatchObject({ code: 0, stdout: "✓ docs/plan.noma.patches: 1 record (1 applied), chain intact, document matches.\n" });
    expect(runCli(["check"], { cwd: bob })).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
    // Bob patches on: his records name the document exactly as Alice's do.
    patchInProcess(bob, "docs/plan.noma", JSON.parse(op(0.7)));
    git(bob, ["add", "-A"]);
    expect(commit(bob, ["-m", "patched by bob"]).code).toBe(0);
    const transcript = readFileSync(join(bob, "docs/plan.noma.patches"), "utf8");
    expect(docUris(join(bob, "docs/plan.noma.patches"))).toEqual(["docs/plan.noma", "docs/plan.noma"]);
    for (const local of [alice, bob, "/home/", "/Users/", "file:"]) expect(transcript).not.toContain(local);
    const ci = runCli(["ci", "--base", "main"], { cwd: bob });
    expect(ci.code, ci.stdout + ci.stderr).toBe(0);
    expect(ci.stdout).toContain("✓ No issues found.");
  });

  it("absolute file URIs (other tools, earlier versions) still verify, and so do records appended after them in the relative form", () => {
    // A transcript written elsewhere, as the reference and our earlier versions write it: an absolute file URI.
    const elsewhere = tempDir();
    writeFileSync(join(elsewhere, "plan.noma"), CLAIM);
    patchDocument(join(elsewhere, "plan.noma"), [JSON.parse(op(0.6))], { actor: { kind: "agent", name: "other-tool" } });
    const repo = equip(tempRepo({ "README.md": "x\n" }));
    mkdirSync(join(repo, "docs"));
    for (const f of ["plan.noma", "plan.noma.patches"]) copyFileSync(join(elsewhere, f), join(repo, "docs", f));
    git(repo, ["add", "-A"]);
    expect(commit(repo, ["-m", "a transcript from another machine"]).code).toBe(0);
    git(repo, ["switch", "-qc", "feature"]);
    patchInProcess(repo, "docs/plan.noma", JSON.parse(op(0.7)));
    git(repo, ["add", "-A"]);
    expect(commit(repo, ["-m", "patched here"]).code).toBe(0);
    expect(docUris(join(repo, "docs/plan.noma.patches"))).toEqual([pathToFileURL(join(elsewhere, "plan.noma")).href, "docs/plan.noma"]);
    expect(runCli(["transcript", "verify", "docs/plan.noma", "--strict"], { cwd: repo })).toMatchObject({
      code: 0,
      stdout: "✓ docs/plan.noma.patches: 2 records (2 applied), chain intact, document matches.\n",
    });
    const ci = runCli(["ci", "--base", "main"], { cwd: repo });
    expect(ci.code, ci.stdout + ci.stderr).toBe(0);
    expect(ci.stdout).toContain("✓ No issues found.");
  });
});
