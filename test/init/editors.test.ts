/**
 * `init` and the editor a repository is set up for: one `editor` line per editor it recognises
 * (.vscode/, .nvim.lua, .helix/, .zed/), the line that starts the language server there, or
 * that it is set up already; none where there is no editor's configuration; the same in
 * `--format json` under `result.editors` (valid against init's schema). Never an edit of the
 * editor's file. Through the real CLI.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { outputSchema } from "../../src/internal.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const editorLines = (stdout: string): string[] => stdout.split("\n").filter((l) => l.startsWith("editor "));

const VSCODE =
  'editor    VS Code (.vscode/): with a generic LSP client extension (zsol.vscode-glspc), add to .vscode/settings.json: "glspc.server.command": "npx", ' +
  '"glspc.server.commandArguments": ["noma-reconcile", "lsp", "--stdio"] (docs/lsp.md#vs-code)';
const NEOVIM =
  'editor    Neovim (.nvim.lua): add to .nvim.lua: vim.lsp.config("noma_reconcile", { cmd = { "npx", "noma-reconcile", "lsp", "--stdio" }, ' +
  'filetypes = { "noma", "yaml", "json" } }) vim.lsp.enable("noma_reconcile") (docs/lsp.md#neovim)';
const HELIX =
  'editor    Helix (.helix/): add to .helix/languages.toml: [language-server.noma-reconcile] command = "npx" args = ["noma-reconcile", "lsp", "--stdio"], ' +
  "and a [[language]] noma using it (docs/lsp.md#helix)";
const ZED = "editor    Zed (.zed/): Zed starts a server only through an extension, and there is no noma-reconcile extension yet (docs/lsp.md#zed)";

describe("init names the editor it finds", () => {
  it("no editor's configuration: no editor line", () => {
    const repo = tempRepo({ "README.md": "# r\n" });
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(editorLines(r.stdout)).toEqual([]);
  });

  const cases: Array<[string, (repo: string) => void, string]> = [
    ["VS Code", (repo) => mkdirSync(join(repo, ".vscode")), VSCODE],
    ["Neovim", (repo) => writeFileSync(join(repo, ".nvim.lua"), "vim.opt.tabstop = 2\n"), NEOVIM],
    ["Helix", (repo) => mkdirSync(join(repo, ".helix")), HELIX],
    ["Zed", (repo) => mkdirSync(join(repo, ".zed")), ZED],
  ];
  for (const [name, setUp, line] of cases)
    it(`${name}: the line that starts the language server there`, () => {
      const repo = tempRepo({ "README.md": "# r\n" });
      setUp(repo);
      const r = runCli(["init", "--dry-run"], { cwd: repo });
      expect(r.code).toBe(0);
      expect(editorLines(r.stdout)).toEqual([line.replace(/^editor {4}/, `${"editor".padEnd(13)} `)]);
    });

  it("an editor already set up: said so; the file is left as it was", () => {
    const repo = tempRepo({ "README.md": "# r\n" });
    const settings = '{\n  // ours\n  "glspc.server.commandArguments": ["noma-reconcile", "lsp", "--stdio"]\n}\n';
    mkdirSync(join(repo, ".vscode"));
    writeFileSync(join(repo, ".vscode/settings.json"), settings);
    writeFileSync(join(repo, ".nvim.lua"), 'vim.lsp.config("noma_reconcile", { cmd = { "npx", "noma-reconcile", "lsp", "--stdio" } })\n');
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(editorLines(r.stdout)).toEqual([
      "editor    VS Code (.vscode/): the language server is set up in .vscode/settings.json",
      "editor    Neovim (.nvim.lua): the language server is set up in .nvim.lua",
    ]);
    expect(readFileSync(join(repo, ".vscode/settings.json"), "utf8")).toBe(settings);
  });

  it("--format json: result.editors, valid against init's schema", () => {
    const repo = tempRepo({ "README.md": "# r\n" });
    mkdirSync(join(repo, ".helix"));
    mkdirSync(join(repo, ".zed"));
    const r = runCli(["init", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { result: { editors: unknown } };
    expect(z.safeParse(outputSchema("init"), out).success).toBe(true);
    expect(out.result.editors).toEqual([
      { editor: "helix", marker: ".helix/", file: ".helix/languages.toml", configured: false, advice: HELIX.replace(/^editor {4}Helix \(\.helix\/\): /, "") },
      { editor: "zed", marker: ".zed/", file: ".zed/settings.json", configured: false, advice: ZED.replace(/^editor {4}Zed \(\.zed\/\): /, "") },
    ]);
  });
});
