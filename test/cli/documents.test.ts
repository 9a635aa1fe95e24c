/**
 * `ids`, `parse` and `render`, spawned, on documents and on a book manifest;
 * `--help`, `--version`, unknown commands.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { OURS } from "../conformance/corpus.js";

const DOC = '---\naliases: [home]\n---\n# Intro\n\n::claim{id="c" aliases="main"}\nx\n::\n\n## Details\n';

describe("ids", () => {
  it("lists canonical ids with aliases (text) and the alias map (json)", () => {
    const repo = tempRepo({ "d.noma": DOC });
    expect(runCli(["ids", "d.noma"], { cwd: repo }).stdout).toBe("intro  (aliases: home)\nc  (aliases: main)\ndetails\n");
    const json = JSON.parse(runCli(["ids", "d.noma", "--format", "json"], { cwd: repo }).stdout).result;
    expect(json).toEqual({ canonical: ["intro", "c", "details"], aliases: { intro: ["home"], c: ["main"] }, aliasMap: { home: "intro", main: "c" } });
  });

  it("scopes a book's chapter section ids and keeps the unscoped ones as aliases", () => {
    const repo = tempRepo({
      "book/book.noma.yml": "title: Book\nchapters:\n  - 01-intro.noma\n  - file: 02-risks.noma\n",
      "book/01-intro.noma": "# Intro\n\n## Scope\n",
      "book/02-risks.noma": '# Risks\n\n## Scope\n\n::risk{id="r1" owner="a"}\n::\n',
    });
    const json = JSON.parse(runCli(["ids", "book/book.noma.yml", "--format", "json"], { cwd: repo }).stdout).result;
    expect(json.canonical).toEqual(["intro", "intro/scope", "risks", "risks/scope", "r1"]);
    expect(json.aliasMap).toMatchObject({ intro: "intro", scope: "intro/scope", risks: "risks" });
  });
});

describe("parse", () => {
  it("prints the tree with spans as JSON", () => {
    const repo = tempRepo({ "d.noma": DOC });
    const ast = JSON.parse(runCli(["parse", "d.noma"], { cwd: repo }).stdout);
    expect(ast.type).toBe("document");
    expect(ast.endLine).toBe(10);
    expect(ast.frontmatter).toMatchObject({ type: "frontmatter", pos: { line: 1, column: 1 }, endLine: 3 });
    expect(ast.children[0]).toMatchObject({ type: "section", id: "intro", pos: { line: 4, column: 1 }, endLine: 10 });
    expect(ast.children[0].children[0]).toMatchObject({
      type: "directive",
      name: "claim",
      id: "c",
      pos: { line: 6, column: 1 },
      endLine: 8,
      attrs: { id: "c", aliases: "main" },
    });
  });
});

describe("render", () => {
  it("--to noma writes the roundtrip form", () => {
    const repo = tempRepo({ "t.noma": readFileSync(join(OURS, "valid/table-width-mismatch/input.noma"), "utf8") });
    const r = runCli(["render", "t.noma"], { cwd: repo });
    expect(r.stdout).toBe(readFileSync(join(OURS, "valid/table-width-mismatch/expected.roundtrip.noma"), "utf8"));
  });

  it("--to json writes the structure without positions", () => {
    const repo = tempRepo({ "d.noma": "# A\n\n- x\n" });
    expect(JSON.parse(runCli(["render", "d.noma", "--to", "json"], { cwd: repo }).stdout)).toEqual({
      type: "document",
      frontmatter: null,
      children: [{ type: "section", depth: 1, title: "A", id: "a", aliases: [], attrs: {}, children: [{ type: "list", ordered: false, items: ["x"] }] }],
    });
  });

  it("exits 2 on a bad --to, a missing file, or a directory", () => {
    const repo = tempRepo({ "d.noma": "# A\n" });
    expect(runCli(["render", "d.noma", "--to", "html"], { cwd: repo }).code).toBe(2);
    expect(runCli(["render", "missing.noma"], { cwd: repo }).code).toBe(2);
    expect(runCli(["parse", "."], { cwd: repo }).code).toBe(2);
  });
});

describe("usage", () => {
  it("--help teaches: commands, examples and exit codes", () => {
    const top = runCli(["--help"], { cwd: process.cwd() });
    expect(top.code).toBe(0);
    for (const word of ["check", "verify", "render", "Exit codes"]) expect(top.stdout).toContain(word);
    const sub = runCli(["check", "--help"], { cwd: process.cwd() });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain("--ignore-rule <code>");
    expect(sub.stdout).toContain("Examples:");
  });

  it("--version prints the package version", () => {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
    expect(runCli(["--version"], { cwd: process.cwd() }).stdout).toContain(pkg.version);
  });

  it("an unknown command or no command exits 2 with help on stderr", () => {
    const r = runCli(["frobnicate"], { cwd: process.cwd() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'frobnicate'.");
    expect(r.stdout).toBe("");
    expect(runCli([], { cwd: process.cwd() }).code).toBe(2);
  });
});
