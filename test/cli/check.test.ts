/**
 * `noma-reconcile check`, spawned as a process in real git repositories:
 * - with no paths it checks every tracked .noma document (and book manifest);
 * - paths, directories, subdirectory invocation, repo-relative output;
 * - exit codes 0 / 1 / 2; every output format; options passed through;
 * - containment of path arguments (files outside the repository: outside-files.test.ts); colour switches.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir, writeTree } from "../helpers/temp-repo.js";

/** Each test's repository: a copy of one built once per tree (test/helpers/repo-templates.ts). */
const tempRepo = repoTemplates().repo;

const VALID = "# Intro\n\nAll good.\n";
const BROKEN = '# Doc\n\n::evidence{id="e" for="nope"}\nx\n::\n';
const WARNS = '::risk{id="r"}\nno owner\n::\n';

describe("check: which files", () => {
  it("with no paths checks every tracked .noma file, not untracked ones", () => {
    const repo = tempRepo({ "a.noma": VALID, "docs/b.noma": BROKEN, "notes.md": "[[x]]" });
    writeTree(repo, { "c.noma": BROKEN });
    const r = runCli(["check"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('ERROR [broken-reference] docs/b.noma:3:1: for="nope" on ::evidence points at an id that does not exist. (lines 3-5)\n');
    expect(r.stderr).toContain("2 files checked: 1 error, 0 warnings.");
  });

  it("prints repo-relative paths when run from a subdirectory", () => {
    const repo = tempRepo({ "docs/b.noma": BROKEN, "docs/deep/x.txt": "" });
    const r = runCli(["check"], { cwd: join(repo, "docs/deep") });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("docs/b.noma:3:1:");
    const r2 = runCli(["check", "../b.noma"], { cwd: join(repo, "docs/deep") });
    expect(r2.stdout).toContain("docs/b.noma:3:1:");
  });

  it("a directory argument means the documents git knows under it", () => {
    const repo = tempRepo({ "docs/a.noma": VALID, "other/b.noma": BROKEN, ".gitignore": "docs/ignored.noma\n" });
    writeTree(repo, { "docs/new.noma": WARNS, "docs/ignored.noma": BROKEN });
    const r = runCli(["check", "docs", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout).result as { files: Array<{ file: string }> };
    expect(out.files.map((f) => f.file)).toEqual(["docs/a.noma", "docs/new.noma"]);
  });

  it("a clean file prints the all-clear and exits 0; warnings alone exit 0", () => {
    const repo = tempRepo({ "a.noma": VALID, "w.noma": WARNS });
    const ok = runCli(["check", "a.noma"], { cwd: repo });
    expect(ok).toMatchObject({ code: 0, stdout: "✓ No issues found.\n" });
    const warn = runCli(["check", "w.noma"], { cwd: repo });
    expect(warn.code).toBe(0);
    expect(warn.stdout).toBe("WARNING [risk-without-owner] w.noma:1:1: ::risk has no owner= attribute. (lines 1-3)\n");
  });

  it("checks book manifests for missing chapters", () => {
    const repo = tempRepo({ "book.noma.yml": "title: B\nchapters:\n  - 01-intro.noma\n  - 02-missing.noma\n", "01-intro.noma": VALID });
    const r = runCli(["check"], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('ERROR [book-chapter-missing] book.noma.yml:4:1: Chapter "02-missing.noma" does not exist (paths are relative to the manifest).\n');
  });

  it("resolves ::dataset src= against the document's directory, inside the repository", () => {
    const repo = tempRepo({
      "docs/data/x.csv": "a,b\n1,2\n",
      "docs/ok.noma": '::dataset{id="d" src="data/x.csv" format="csv"}\n::\n',
      "docs/missing.noma": '::dataset{id="d" src="data/y.csv"}\n::\n',
      "docs/escape.noma": '::dataset{id="d" src="../../../etc/passwd"}\n::\n',
    });
    const r = runCli(["check", "--format", "json"], { cwd: repo });
    const out = JSON.parse(r.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string }> }> };
    const byFile = Object.fromEntries(out.files.map((f) => [f.file, f.diagnostics.map((d) => d.code)]));
    expect(byFile).toEqual({ "docs/escape.noma": ["dataset-src-missing"], "docs/missing.noma": ["dataset-src-missing"], "docs/ok.noma": [] });
  });
});

describe("check: chapters of a book manifest, in their book", () => {
  const MANIFEST = "title: Guide\nchapters:\n  - 01-intro.noma\n  - 02-risks.noma\n";
  const INTRO = "# Intro\n\nRead [[risks]], then [[risks/mitigation]] and [[mitigation]].\n";
  const RISKS = "# Risks\n\n## Mitigation\n\nBack to [[intro]].\n";
  const BOOK = { "book/book.noma.yml": MANIFEST, "book/01-intro.noma": INTRO, "book/02-risks.noma": RISKS };

  it("links between chapters resolve with no paths, a directory, a chapter, from a subdirectory, and for the manifest", () => {
    const repo = tempRepo(BOOK);
    for (const [args, cwd] of [
      [[], repo],
      [["book"], repo],
      [["book/01-intro.noma"], repo],
      [["02-risks.noma"], join(repo, "book")],
      [["book/book.noma.yml"], repo],
    ] as const) {
      const r = runCli(["check", ...args], { cwd });
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 0, stdout: "✓ No issues found.\n" });
    }
  });

  it("a chapter's own errors show at its file and line; checking the manifest judges its chapters", () => {
    const repo = tempRepo({ ...BOOK, "book/02-risks.noma": `${RISKS}\nSee [[nowhere]].\n` });
    const expected = "ERROR [broken-reference] book/02-risks.noma:7:5: [[nowhere]] points at an id that does not exist in book book/book.noma.yml.\n";
    for (const args of [[], ["book"], ["book/02-risks.noma"], ["book/book.noma.yml"]]) {
      const r = runCli(["check", ...args], { cwd: repo });
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 1, stdout: expected });
    }
  });

  it("a chapter in two books resolves its links in each, and is told which book lacks a target", () => {
    const repo = tempRepo({ ...BOOK, "book/short.noma.yml": "chapters:\n  - 01-intro.noma\n" });
    const r = runCli(["check", "book/01-intro.noma", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result as { files: Array<{ file: string; diagnostics: Array<{ code: string; message: string }> }> };
    expect(out.files.map((f) => f.file)).toEqual(["book/01-intro.noma", "book/book.noma.yml", "book/short.noma.yml"]);
    expect(out.files[0]!.diagnostics.map((d) => d.message)).toEqual(
      ["[[risks]]", "[[risks/mitigation]]", "[[mitigation]]"].map(
        (l) =>
          `${l} points at an id that does not exist in book book/short.noma.yml (it does in book/book.noma.yml; a chapter's links must resolve in every book that lists it).`,
      ),
    );
  });

  it("outside a repository, and for a book outside the repository named from inside one", () => {
    const dir = tempDir();
    writeTree(dir, { ...BOOK, "book/02-risks.noma": `${RISKS}\nSee [[nowhere]].\n` });
    const expected = (prefix: string): string =>
      `ERROR [broken-reference] ${prefix}book/02-risks.noma:7:5: [[nowhere]] points at an id that does not exist in book ${prefix}book/book.noma.yml.\n`;
    for (const args of [["book"], ["book/01-intro.noma", "book/02-risks.noma"], ["book/book.noma.yml"]]) {
      const r = runCli(["check", ...args], { cwd: dir });
      expect({ args, stdout: r.stdout }).toEqual({ args, stdout: expected("") });
    }
    const repo = tempRepo({ "a.noma": VALID });
    const outside = runCli(["check", join(dir, "book/02-risks.noma"), join(dir, "book/01-intro.noma")], { cwd: repo });
    expect(outside.stdout).toBe(expected(`${dir}/`));
  });

  it("a manifest listing a missing chapter, or one that is not valid YAML, is reported once, at the manifest", () => {
    const missing = tempRepo({ ...BOOK, "book/book.noma.yml": `${MANIFEST}  - 03-gone.noma\n` });
    for (const args of [[], ["book/01-intro.noma", "book/02-risks.noma"]]) {
      const r = runCli(["check", ...args], { cwd: missing });
      expect({ args, stdout: r.stdout }).toEqual({
        args,
        stdout: 'ERROR [book-chapter-missing] book/book.noma.yml:5:1: Chapter "03-gone.noma" does not exist (paths are relative to the manifest).\n',
      });
    }
    const invalid = tempRepo({ ...BOOK, "book/book.noma.yml": "chapters: [01-intro.noma, 02-risks.noma\n" });
    const r = runCli(["check", "book/01-intro.noma"], { cwd: invalid });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines.filter((l) => l.includes("[book-manifest-invalid] book/book.noma.yml:"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("book/01-intro.noma:3:"))).toEqual(
      [
        ["6", "[[risks]]"],
        ["22", "[[risks/mitigation]]"],
        ["47", "[[mitigation]]"],
      ].map(
        ([col, link]) =>
          `ERROR [broken-reference] book/01-intro.noma:3:${col}: ${link} points at an id that does not exist (book/book.noma.yml, which may list this chapter, is not a valid book manifest: see the error there).`,
      ),
    );
  });
});

describe("check: capability sidecars (Annex A)", () => {
  it("validates <doc>.capabilities.yml: schema errors name the line; an unknown version grants nothing", () => {
    const repo = tempRepo({
      "a.noma": VALID,
      "a.noma.capabilities.yml": "nomaAgent:\n  version: 1\n  blocks:\n    claim:\n      ops: [replace_block, teleport]\n",
      "b.noma": VALID,
      "b.noma.capabilities.yml": "nomaAgent:\n  version: 2\n",
      "c.noma": VALID,
      "c.noma.capabilities.yml": "nomaAgent:\n  version: 1\n  blocks:\n    claim:\n      ops: [update_attribute]\n  ids:\n    rename: false\n",
    });
    const r = runCli(["check"], { cwd: repo });
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^ERROR \[capability-invalid\] a\.noma\.capabilities\.yml:5:1: nomaAgent\.blocks\.claim\.ops\.1: /);
    expect(lines[1]).toBe(
      "WARNING [capability-unknown-version] b.noma.capabilities.yml:2:1: nomaAgent.version 2 is not understood (this tool reads version 1); the descriptor grants nothing.",
    );
  });
});

describe("check: exit code 2", () => {
  it("for a symlink that escapes the repository", async () => {
    const { symlinkSync } = await import("node:fs");
    const repo = tempRepo({ "a.noma": VALID });
    const outside = tempDir();
    writeFileSync(join(outside, "x.noma"), BROKEN);
    symlinkSync(join(outside, "x.noma"), join(repo, "link.noma"));
    const r = runCli(["check", "link.noma"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("outside the repository");
  });

  it("for missing paths, unknown flags, bad option values, and no repository", () => {
    const repo = tempRepo({ "a.noma": VALID });
    expect(runCli(["check", "nope.noma"], { cwd: repo })).toMatchObject({ code: 2, stderr: expect.stringContaining("nope.noma: no such file or directory") });
    const flag = runCli(["check", "--frobnicate"], { cwd: repo });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("unknown option '--frobnicate' for check.");
    expect(flag.stderr).toContain("--help");
    expect(runCli(["check", "--format", "xml"], { cwd: repo })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--format must be one of text, json, github, sarif"),
    });
    expect(runCli(["check", "--stale-days", "soon"], { cwd: repo }).code).toBe(2);
    const plain = tempDir();
    expect(runCli(["check"], { cwd: plain })).toMatchObject({ code: 2, stderr: expect.stringContaining("not inside a git repository") });
  });
});

describe("check: formats", () => {
  const repo = (): string => tempRepo({ "b.noma": BROKEN, "w.noma": WARNS, "ok.noma": VALID });

  it("json: a versioned envelope with counts and every file", () => {
    const r = runCli(["check", "--format", "json"], { cwd: repo() });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({
      schema: "noma-reconcile/check@2",
      tool: { name: "noma-reconcile" },
      command: "check",
      ok: false,
      summary: { files: 3, errors: 1, warnings: 1, infos: 0 },
      warnings: [],
    });
    expect(out.result.files[0]).toEqual({
      file: "b.noma",
      diagnostics: [
        {
          severity: "error",
          code: "broken-reference",
          message: 'for="nope" on ::evidence points at an id that does not exist.',
          pos: { line: 3, column: 1 },
          nodeId: "e",
          endLine: 5,
        },
      ],
    });
  });

  it("github: escaped annotations and a Markdown step summary", () => {
    const dir = repo();
    const summary = join(tempDir(), "summary.md");
    const r = runCli(["check", "--format", "github"], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    expect(r.stdout.split("\n")[0]).toBe(
      '::error file=b.noma,line=3,endLine=5,col=1,title=[broken-reference]::for="nope" on ::evidence points at an id that does not exist.',
    );
    expect(r.stdout).toContain("::warning file=w.noma,line=1,endLine=3,col=1,title=[risk-without-owner]::");
    expect(readFileSync(summary, "utf8")).toContain("| error | `broken-reference` | `b.noma:3:1` (lines 3-5) |");
  });

  it("github: the step summary stays within GitHub's 1 MiB counted in bytes, with non-ASCII messages, rows whole", () => {
    // 1,600 findings whose messages are mostly Japanese: about 0.6 M characters, but 1.6 MB of UTF-8.
    const id = (i: number) => `参照${i}-${"日本語の識別子".repeat(40)}`;
    const doc = (d: number) => Array.from({ length: 100 }, (_, i) => `::evidence{id="e${i}" for="${id(d * 100 + i)}"}\nx\n::\n`).join("\n");
    const dir = tempRepo(Object.fromEntries(Array.from({ length: 16 }, (_, d) => [`d${d}.noma`, doc(d)])));
    const summary = join(tempDir(), "summary.md");
    const r = runCli(["check", "--format", "github"], { cwd: dir, env: { GITHUB_STEP_SUMMARY: summary } });
    expect(r.code).toBe(1);
    const bytes = readFileSync(summary);
    const text = bytes.toString("utf8");
    expect(text.length).toBeLessThan(1024 * 1024 - 4096); // so a limit counted in characters would have let all of it through
    expect(bytes.length).toBeLessThanOrEqual(1024 * 1024);
    expect(Buffer.from(text, "utf8").equals(bytes)).toBe(true); // valid UTF-8: no character cut in half
    expect(text).toContain("1600 errors, 0 warnings, 0 notes in 16 files.");
    const rows = text.split("\n").filter((l) => l.startsWith("| error |"));
    const more = /\n…and (\d+) more \(summary size limit reached\)\.\n$/.exec(text);
    expect(more).not.toBeNull();
    expect(rows.length + Number(more![1])).toBe(1600);
    expect(rows.length).toBeGreaterThan(900);
    for (const row of rows)
      expect(row).toMatch(
        /^\| error \| `broken-reference` \| `d\d+\.noma:\d+:1` \(lines \d+-\d+\) \| for="参照\d+-(日本語の識別子){40}" on ::evidence points at an id that does not exist\. \|$/,
      );
  });

  it("sarif: a 2.1.0 log with rules and repo-relative locations", () => {
    const r = runCli(["check", "--format", "sarif"], { cwd: repo() });
    const log = JSON.parse(r.stdout);
    expect(log.version).toBe("2.1.0");
    expect(log.runs[0].tool.driver.rules.map((x: { id: string }) => x.id)).toEqual(["broken-reference", "risk-without-owner"]);
    expect(log.runs[0].results[0]).toEqual({
      ruleId: "broken-reference",
      level: "error",
      message: { text: 'for="nope" on ::evidence points at an id that does not exist.' },
      locations: [{ physicalLocation: { artifactLocation: { uri: "b.noma" }, region: { startLine: 3, startColumn: 1, endLine: 5 } } }],
    });
  });

  it("sarif: a location is a URI reference, each path segment percent-encoded (spaces, #, %, :, non-ASCII)", () => {
    const names = ["my doc#1.noma", "100%.noma", "café/naïve ü.noma", "a:b?.noma", "日本/x+y&z.noma"];
    const dir = tempRepo(Object.fromEntries(names.map((n) => [n, BROKEN])));
    const r = runCli(["check", "--format", "sarif"], { cwd: dir });
    expect(r.code).toBe(1);
    const uris = (
      JSON.parse(r.stdout) as { runs: Array<{ results: Array<{ locations: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }> }
    ).runs[0]!.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation.uri);
    expect(uris.sort()).toEqual(
      ["100%25.noma", "a%3Ab%3F.noma", "caf%C3%A9/na%C3%AFve%20%C3%BC.noma", "my%20doc%231.noma", "%E6%97%A5%E6%9C%AC/x%2By%26z.noma"].sort(),
    );
    // Each decodes back to the file's repository path (and resolves under the root, not elsewhere).
    expect(uris.map((u) => decodeURIComponent(u)).sort()).toEqual([...names].sort());
    for (const u of uris) expect(new URL(u, "file:///repo/").pathname.startsWith("/repo/")).toBe(true);
  });
});

describe("check: options", () => {
  it("--ignore-rule, --profile and --stale-days reach the validator", () => {
    const dir = tempRepo({ "w.noma": WARNS, "m.noma": '::memory{id="m" type="fact"}\n::\n', "c.noma": '::citation{source="s" accessed="2020-01-01"}\n::\n' });
    expect(runCli(["check", "w.noma", "--ignore-rule", "risk-without-owner"], { cwd: dir }).stdout).toBe("✓ No issues found.\n");
    const unknown = runCli(["check", "w.noma", "--ignore-rule", "risk-without-owner", "--ignore-rule", "bogus"], { cwd: dir });
    expect(unknown.stdout).toContain("INFO [unknown-ignore-rule] w.noma:");
    expect(runCli(["check", "m.noma", "--profile", "research"], { cwd: dir }).stdout).toContain("[out-of-profile-directive]");
    expect(runCli(["check", "c.noma", "--stale-days", "100000"], { cwd: dir }).stdout).toBe("✓ No issues found.\n");
    expect(runCli(["check", "c.noma"], { cwd: dir }).stdout).toContain("[stale-citation]");
  });

  it("colour: FORCE_COLOR colours, NO_COLOR and --no-color do not", () => {
    const dir = tempRepo({ "w.noma": WARNS });
    expect(runCli(["check"], { cwd: dir, env: { NO_COLOR: "", FORCE_COLOR: "1" } }).stdout).toContain("\u001b[33mWARNING");
    expect(runCli(["check", "--no-color"], { cwd: dir, env: { NO_COLOR: "", FORCE_COLOR: "1" } }).stdout).not.toContain("\u001b[");
    expect(runCli(["check"], { cwd: dir, env: { NO_COLOR: "1" } }).stdout).not.toContain("\u001b[");
  });

  it("writes nothing: the work tree and index are unchanged", () => {
    const dir = tempRepo({ "a.noma": VALID, "b.noma": BROKEN });
    writeTree(dir, { "untracked.noma": VALID });
    const before = git(dir, ["status", "--porcelain", "--ignored", "--untracked-files=all"]);
    expect(runCli(["check"], { cwd: dir }).code).toBe(1);
    expect(runCli(["check", ".", "--format", "sarif"], { cwd: dir }).code).toBe(1);
    expect(git(dir, ["status", "--porcelain", "--ignored", "--untracked-files=all"])).toBe(before);
  });
});
