/**
 * Issue 32.1: a `.noma` that is not UTF-8 text — 4 KB of random bytes, a copy of a program
 * (`/usr/bin/ls`), a file starting with a UTF-16 byte-order mark — is an error everywhere,
 * with one code (`not-utf8-text`) and one message naming the first byte that is not text:
 * `check` (every format), `fmt` and `fmt --check` (which agree with check), the pre-commit
 * hook (a real `git commit` is blocked), `ci`, and the MCP `validate_doc` over stdio. A UTF-8
 * byte-order mark is text. All inputs are generated here.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { git, tempRepo, writeTree } from "../helpers/temp-repo.js";
import { commit, hookRepo } from "../check/staged/hook-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { boundedCli, firstNonTextOracle, seededBytes } from "./helpers.js";

/** The three inputs, and a document with a UTF-8 byte-order mark (text). */
function inputs(): Record<string, Buffer> {
  const program = existsSync("/usr/bin/ls") ? "/usr/bin/ls" : process.execPath;
  return {
    "docs/random.noma": seededBytes(4096, 32),
    "docs/ls.noma": readFileSync(program).subarray(0, 256 * 1024),
    "docs/utf16.noma": Buffer.from("\ufeff# Title\n\nText.\n", "utf16le"), // starts \xff\xfe
    "docs/bom.noma": Buffer.from("\ufeff# Title\n\nText.\n", "utf8"),
  };
}

const BAD = ["docs/ls.noma", "docs/random.noma", "docs/utf16.noma"];

interface Diag {
  severity: string;
  code: string;
  message: string;
  pos?: { line: number; column: number };
}
interface Files {
  files: Array<{ file: string; diagnostics: Diag[] }>;
}

/** What check says of each bad input: one error, the code, the offset the oracle finds. */
function expectRefused(files: Files["files"], tree: Record<string, Buffer>): void {
  for (const f of BAD) {
    const d = files.find((r) => r.file === f)?.diagnostics;
    expect(d, f).toHaveLength(1);
    expect(d![0]).toMatchObject({ severity: "error", code: "not-utf8-text" });
    const at = firstNonTextOracle(tree[f]!);
    expect(at, f).toBeGreaterThanOrEqual(0);
    const byte = tree[f]![at]!;
    expect(d![0]!.message, f).toBe(
      byte === 0
        ? `not UTF-8 text: byte 0x00 (NUL) at offset ${at}`
        : `not UTF-8 text: byte 0x${byte.toString(16).toUpperCase().padStart(2, "0")} at offset ${at} is not valid UTF-8${f === "docs/utf16.noma" ? " (the file starts with a UTF-16LE byte-order mark; Noma files are UTF-8: convert it, e.g. iconv -f UTF-16LE -t UTF-8)" : ""}`,
    );
  }
  expect(files.find((r) => r.file === "docs/bom.noma")?.diagnostics).toEqual([]);
}

describe("a document that is not UTF-8 text (32.1)", () => {
  it("check: an error in every format, naming the first byte that is not text; a UTF-8 BOM is fine", () => {
    const tree = inputs();
    const repo = tempRepo(tree);
    const json = boundedCli(["check", "--format", "json"], { cwd: repo });
    expect(json.code).toBe(1);
    const env = JSON.parse(json.stdout) as { ok: boolean; summary: { errors: number }; result: Files };
    expect(env.ok).toBe(false);
    expect(env.summary.errors).toBe(3);
    expectRefused(env.result.files, tree);

    const text = boundedCli(["check"], { cwd: repo });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("ERROR [not-utf8-text] docs/utf16.noma:1:1: not UTF-8 text: byte 0xFF at offset 0 is not valid UTF-8 (the file starts with");
    expect(text.stderr).toBe("4 files checked: 3 errors, 0 warnings.\n");

    const sarif = JSON.parse(boundedCli(["check", "--format", "sarif"], { cwd: repo }).stdout) as {
      runs: Array<{ results: Array<{ ruleId: string }>; tool: { driver: { rules: Array<{ id: string; shortDescription: { text: string } }> } } }>;
    };
    expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(["not-utf8-text", "not-utf8-text", "not-utf8-text"]);
    expect(sarif.runs[0]!.tool.driver.rules.find((r) => r.id === "not-utf8-text")?.shortDescription.text).toContain("not UTF-8 text");
    const github = boundedCli(["check", "--format", "github"], { cwd: repo });
    expect(github.stdout).toContain("::error file=docs/random.noma,line=");
  });

  it("fmt and fmt --check agree with check: an error (exit 1), never 'skipped … all formatted'", () => {
    const tree = inputs();
    const repo = tempRepo(tree);
    for (const args of [["fmt", "--check"], ["fmt"]]) {
      const r = boundedCli(args, { cwd: repo });
      expect(r.code, args.join(" ")).toBe(1);
      expect(
        r.stdout
          .split("\n")
          .filter((l) => l.startsWith("ERROR"))
          .map((l) => l.slice(0, l.indexOf(":"))),
      ).toEqual(BAD.map((f) => `ERROR [not-utf8-text] ${f}`));
      expect(r.stderr).not.toContain("skipped");
      expect(r.stderr).toContain("3 documents cannot be formatted (see the errors above)");
    }
    const json = boundedCli(["fmt", "--check", "--format", "json"], { cwd: repo });
    expect(json.code).toBe(1);
    const env = JSON.parse(json.stdout) as {
      ok: boolean;
      summary: { errors: number };
      result: { files: Array<{ file: string; status: string; code?: string }> };
    };
    expect(env.ok).toBe(false);
    expect(env.summary.errors).toBe(3);
    expect(env.result.files.map((f) => [f.file, f.status, f.code ?? null])).toEqual([
      ["docs/bom.noma", "unchanged", null],
      ["docs/ls.noma", "error", "not-utf8-text"],
      ["docs/random.noma", "error", "not-utf8-text"],
      ["docs/utf16.noma", "error", "not-utf8-text"],
    ]);
    for (const f of BAD) expect(readFileSync(join(repo, f)).equals(tree[f]!)).toBe(true); // nothing written
  });

  it("the pre-commit hook blocks a real git commit of each", () => {
    const tree = inputs();
    for (const f of BAD) {
      const repo = hookRepo({ "README.md": "x\n" });
      writeFileSync(join(repo, "x.noma"), tree[f]!);
      git(repo, ["add", "x.noma"]);
      const r = commit(repo, ["-m", "add x"]);
      expect(r.code, f).toBe(1);
      expect(r.output).toContain("ERROR [not-utf8-text] x.noma:");
      expect(r.output).toContain(`at offset ${firstNonTextOracle(tree[f]!)}`);
      expect(git(repo, ["rev-list", "--count", "HEAD"]).trim()).toBe("1");
    }
    const ok = hookRepo({ "README.md": "x\n" });
    writeFileSync(join(ok, "bom.noma"), tree["docs/bom.noma"]!);
    git(ok, ["add", "bom.noma"]);
    expect(commit(ok, ["-m", "a UTF-8 BOM is text"]).code).toBe(0);
  });

  it("ci: the PR that adds them fails, each named with its offset", () => {
    const tree = inputs();
    const repo = tempRepo({ "README.md": "x\n" });
    git(repo, ["checkout", "-qb", "feature"]);
    writeTree(repo, tree);
    git(repo, ["add", "-A"]);
    git(repo, ["commit", "-qm", "add them"]);
    const r = boundedCli(["ci", "--base", "main", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(1);
    const env = JSON.parse(r.stdout) as { result: Files & { checked: string[] } };
    expect(env.result.checked).toEqual(["docs/bom.noma", ...BAD]);
    expectRefused(env.result.files, tree);
    const text = boundedCli(["ci", "--base", "main"], { cwd: repo });
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("ERROR [not-utf8-text] docs/utf16.noma:1:1: not UTF-8 text: byte 0xFF at offset 0");
  });

  it("MCP validate_doc over stdio: not ok, the same diagnostic; read_doc refuses to decode it", async () => {
    const tree = inputs();
    const repo = tempRepo(tree);
    const c = new McpClient(repo);
    for (const f of BAD) {
      const r = await c.ok<{ ok: boolean; diagnostics: Diag[] }>("validate_doc", { file: f });
      expect(r.ok).toBe(false);
      expect(r.diagnostics).toHaveLength(1);
      expect(r.diagnostics[0]).toMatchObject({ severity: "error", code: "not-utf8-text" });
      expect(r.diagnostics[0]!.message).toContain(`at offset ${firstNonTextOracle(tree[f]!)}`);
      const refused = await c.fails("read_doc", { file: f });
      expect(refused.startsWith(`${f}: not UTF-8 text: byte 0x`)).toBe(true);
      expect(refused).toContain(`at offset ${firstNonTextOracle(tree[f]!)}`);
    }
    expect(await c.ok("validate_doc", { file: "docs/bom.noma" })).toEqual({ ok: true, diagnostics: [] });
    await c.close();
  });
});
