/**
 * Issue 33.3: a committed `.noma` whose name is not valid UTF-8 — the issue's
 * `docs/bad\xff\xfe.noma`, holding a duplicate id — is judged by `check`, the pre-commit hook
 * and `ci`, and reported under git's own quoted rendering of the name (`"docs/bad\377\376.noma"`,
 * as `git status` shows it: readable and unambiguous) in text and JSON. That rendering is
 * accepted back as a path by `check` and by the MCP document tools.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { commit, hookRepo } from "../check/staged/hook-repo.js";
import { git, tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { boundedCli } from "./helpers.js";

const DUPLICATE = '::note{id="x"}\n::\n\n::tip{id="x"}\n::\n';
/** docs/bad<FF><FE>.noma, as bytes (a name no UTF-8 string spells). */
const NAME = Buffer.concat([Buffer.from("bad"), Buffer.from([0xff, 0xfe]), Buffer.from(".noma")]);
/** The name as git shows it (core.quotePath). */
const SHOWN = '"docs/bad\\377\\376.noma"';
const MESSAGE = 'Two or more nodes carry the same canonical id "x" (lines 1, 4).';

/** Write the file under its byte name: Node takes a Buffer path as the bytes it holds. */
function writeBadName(repo: string): void {
  writeFileSync(Buffer.concat([Buffer.from(join(repo, "docs"), "utf8"), Buffer.from("/"), NAME]), DUPLICATE);
}

describe("a document whose name is not UTF-8 (33.3)", () => {
  it("the test itself: git lists the name in the quoted form it is reported in", () => {
    const repo = tempRepo({ "docs/ok.noma": '::note{id="a"}\n::\n' });
    writeBadName(repo);
    expect(execFileSync("git", ["status", "--short", "--untracked-files=all"], { cwd: repo, encoding: "utf8" })).toBe(`?? ${SHOWN}\n`);
  });

  it("check: judged and reported under git's rendering (text, JSON); the rendering is accepted back as a path", () => {
    const repo = tempRepo({ "docs/ok.noma": '::note{id="a"}\n::\n' });
    writeBadName(repo);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "bad name"]);
    const text = boundedCli(["check"], { cwd: repo });
    expect(text.code).toBe(1);
    expect(text.stdout).toBe(`ERROR [duplicate-id] ${SHOWN}:4:1: ${MESSAGE} (lines 4-5)\n`);
    expect(text.stderr).toBe("2 files checked: 1 error, 0 warnings.\n");
    const json = boundedCli(["check", "--format", "json"], { cwd: repo });
    const files = (JSON.parse(json.stdout) as { result: { files: Array<{ file: string; diagnostics: Array<{ code: string }> }> } }).result.files;
    expect(files.map((f) => [f.file, f.diagnostics.map((d) => d.code)])).toEqual([
      [SHOWN, ["duplicate-id"]],
      ["docs/ok.noma", []],
    ]);
    // Given back as shown (the quotes are the shell's to strip: the argument holds them).
    const named = boundedCli(["check", SHOWN], { cwd: repo });
    expect(named.code).toBe(1);
    expect(named.stdout).toBe(text.stdout);
    expect(named.stderr).toBe("1 file checked: 1 error, 0 warnings.\n");
  });

  it("ci: the PR that adds it fails, the file named", () => {
    const repo = tempRepo({ "README.md": "x\n" });
    git(repo, ["checkout", "-qb", "feature"]);
    execFileSync("mkdir", ["-p", join(repo, "docs")]);
    writeBadName(repo);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "bad name"]);
    const r = boundedCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(1);
    const env = JSON.parse(r.stdout) as {
      result: { checked: string[]; files: Array<{ file: string; diagnostics: Array<{ code: string; message: string }> }> };
    };
    expect(env.result.checked).toEqual([SHOWN]);
    expect(env.result.files.map((f) => [f.file, f.diagnostics.map((d) => `${d.code}: ${d.message}`)])).toEqual([[SHOWN, [`duplicate-id: ${MESSAGE}`]]]);
    const text = boundedCli(["ci", "--base", "main"], { cwd: repo });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(`ERROR [duplicate-id] ${SHOWN}:4:1: ${MESSAGE}`);
  });

  it("the pre-commit hook blocks the commit", () => {
    const repo = hookRepo({ "README.md": "x\n" });
    execFileSync("mkdir", ["-p", join(repo, "docs")]);
    writeBadName(repo);
    git(repo, ["add", "-A"]);
    const r = commit(repo, ["-m", "bad name"]);
    expect(r.code).toBe(1);
    expect(r.output).toContain(`ERROR [duplicate-id] ${SHOWN}:4:1: ${MESSAGE}`);
    expect(git(repo, ["rev-list", "--count", "HEAD"]).trim()).toBe("1");
  });

  it("MCP validate_doc and read_doc take the quoted name", async () => {
    const repo = tempRepo({ "docs/ok.noma": '::note{id="a"}\n::\n' });
    writeBadName(repo);
    const c = new McpClient(repo);
    const v = await c.ok<{ ok: boolean; diagnostics: Array<{ code: string; message: string }> }>("validate_doc", { file: SHOWN });
    expect(v.ok).toBe(false);
    expect(v.diagnostics.map((d) => `${d.code}: ${d.message}`)).toEqual([`duplicate-id: ${MESSAGE}`]);
    const doc = await c.ok<{ sha256: string; blocks: Array<{ id?: string }> }>("read_doc", { file: SHOWN });
    expect(doc.sha256).toBe(createHash("sha256").update(DUPLICATE).digest("hex"));
    expect(doc.blocks.map((b) => b.id)).toEqual(["x", "x"]);
    await c.close();
  });
});
