/**
 * `init` warns — on stderr and in `--format json`, never as an error — when
 * what it sets up would find no program: nothing installed (one warning with
 * the install command), a configured path that does not exist, a configured
 * program for the hook but no package for the `.mcp.json` entry. No warning
 * with the repository's own install, nor about a `.mcp.json` entry the user
 * keeps as theirs.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { installLocally } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo } from "../helpers/temp-repo.js";

interface InitEnvelope {
  ok: boolean;
  warnings: string[];
  result: { program: { path: string | null; source: string } };
}

const NOT_INSTALLED =
  "noma-reconcile is not installed in this repository (no node_modules/.bin/noma-reconcile), so the pre-commit hook and the MCP server in .mcp.json cannot run it; install it: npm i -D noma-reconcile";

const warnings = (stderr: string): string[] => stderr.split("\n").filter((l) => l.startsWith("noma-reconcile: warning: "));

describe("init: the program is not installed", () => {
  it("nothing installed: one warning with the install command, exit 0 (text, json, dry run)", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const dry = runCli(["init", "--dry-run"], { cwd: repo });
    expect(dry.code).toBe(0);
    expect(warnings(dry.stderr)).toEqual([`noma-reconcile: warning: ${NOT_INSTALLED}`]);
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(warnings(r.stderr)).toEqual([`noma-reconcile: warning: ${NOT_INSTALLED}`]);
    const j = runCli(["init", "--format", "json"], { cwd: repo });
    expect(j.code).toBe(0);
    const env = JSON.parse(j.stdout) as InitEnvelope;
    expect(env.ok).toBe(true);
    expect(env.warnings).toEqual([NOT_INSTALLED]);
    expect(env.result.program).toEqual({ path: null, source: "local-install" });
  });

  it("the repository's own install: no warning, and the program it found", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    installLocally(repo);
    const j = runCli(["init", "--format", "json"], { cwd: repo });
    expect(j.code).toBe(0);
    expect(warnings(j.stderr)).toEqual([]);
    const env = JSON.parse(j.stdout) as InitEnvelope;
    expect(env.warnings).toEqual([]);
    expect(env.result.program).toEqual({ path: join(repo, "node_modules/.bin/noma-reconcile"), source: "local-install" });
  });

  it("a configured program for the hook, but no package for .mcp.json: the MCP warning only; a kept entry of the user's: none", () => {
    const repo = tempRepo({ "src/a.ts": "a\n", "tools/noma.cjs": "// stand-in\n" });
    git(repo, ["config", "noma-reconcile.bin", "tools/noma.cjs"]);
    const j = runCli(["init", "--format", "json"], { cwd: repo });
    const env = JSON.parse(j.stdout) as InitEnvelope;
    expect(env.result.program).toEqual({ path: join(repo, "tools/noma.cjs"), source: "git-config" });
    expect(env.warnings).toEqual([
      "the MCP server in .mcp.json cannot start: node finds no noma-reconcile package from the repository root (node_modules/noma-reconcile); install it: npm i -D noma-reconcile, or edit the noma-reconcile entry in .mcp.json",
    ]);
    writeFileSync(join(repo, ".mcp.json"), JSON.stringify({ mcpServers: { "noma-reconcile": { command: "node", args: ["tools/noma.cjs", "mcp"] } } }));
    const kept = runCli(["init", "--format", "json"], { cwd: repo });
    expect((JSON.parse(kept.stdout) as InitEnvelope).warnings).toEqual([]);
  });

  it("a configured path that does not exist (NOMA_RECONCILE_BIN, git config): a warning naming it", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    installLocally(repo);
    const env = runCli(["init"], { cwd: repo, env: { NOMA_RECONCILE_BIN: "/nowhere/noma" } });
    expect(env.code).toBe(0);
    expect(warnings(env.stderr)).toEqual([
      "noma-reconcile: warning: the pre-commit hook cannot run: /nowhere/noma (set by NOMA_RECONCILE_BIN) does not exist; fix that setting, or unset it and install: npm i -D noma-reconcile",
    ]);
    git(repo, ["config", "noma-reconcile.bin", "dist/cli.cjs"]);
    expect(warnings(runCli(["init"], { cwd: repo }).stderr)).toEqual([
      "noma-reconcile: warning: the pre-commit hook cannot run: dist/cli.cjs (set by git config noma-reconcile.bin) does not exist; fix that setting, or unset it and install: npm i -D noma-reconcile",
    ]);
  });
});
