/**
 * The README and docs/ stay true:
 * - every relative link in README.md and docs/**\/*.md resolves to a file of the repository, and
 *   every #anchor to a heading of its target (GitHub's slugs); no link leaves the repository;
 * - the README's command table names exactly the commands the CLI lists;
 * - docs/mcp.md lists exactly the tools the real server's tools/list gives, with their arguments;
 *   docs/documents.md every op of `schema patch-op` with its fields, and every diagnostic code;
 *   the generated blocks are what scripts/generate-docs.mjs makes of the current build;
 * - docs/configuration.md's examples parse with the real configuration readers, and its tables
 *   name every key those readers know;
 * - the README's five-minute tour runs as written: each ```sh block under "A five-minute tour",
 *   in order, with `sh -e` in one fresh repository where the package is installed as npm lays
 *   it out (`npx noma-reconcile` runs node_modules/.bin/noma-reconcile, the built CLI); each
 *   block's exit code and output strings as the `<!-- expect: exit N, "…" -->` comment before it
 *   says, and each line of a ```text block right after it found in its output (`…` matches
 *   anything); afterwards no commit holds the repository's local path or the user's home.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { AGENT_TYPES, CHECK_CODES, CONFIG_KEYS, parseConfig, parseRunConfig, ROLES, RULES, WORKSPACE_KEYS } from "../../src/internal.js";
import { committedFilesHolding } from "../helpers/committed-paths.js";
import { installLocally, PACKAGE_ROOT } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const ROOT = resolve(PACKAGE_ROOT);
const TOUR_HEADING = "A five-minute tour";
const COMMANDS_HEADING = "Commands";

// ---------------------------------------------------------------------------------------------
// A small Markdown reader: fences, ATX headings with GitHub's slugs, prose paragraphs.

interface Fence {
  /** 1-based line of the opening fence. */
  line: number;
  lang: string;
  body: string;
}

interface Heading {
  line: number;
  level: number;
  text: string;
}

type Element = { kind: "fence"; fence: Fence } | { kind: "heading"; heading: Heading } | { kind: "line"; line: number; text: string };

/** The file's lines as elements: fenced blocks whole, headings, and every other line outside a fence. */
function elements(md: string): Element[] {
  const lines = md.split(/\r?\n/);
  const out: Element[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/.exec(lines[i]!);
    if (open !== null) {
      const marker = open[1]!;
      const body: string[] = [];
      let j = i + 1;
      const close = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}\\s*$`);
      while (j < lines.length && !close.test(lines[j]!)) body.push(lines[j++]!);
      out.push({ kind: "fence", fence: { line: i + 1, lang: open[2]!, body: body.length > 0 ? `${body.join("\n")}\n` : "" } });
      i = j;
      continue;
    }
    const h = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(lines[i]!);
    if (h !== null) out.push({ kind: "heading", heading: { line: i + 1, level: h[1]!.length, text: h[2] ?? "" } });
    else out.push({ kind: "line", line: i + 1, text: lines[i]! });
  }
  return out;
}

/** GitHub's anchor for a heading: the rendered text, lower-cased, punctuation dropped, spaces as hyphens. */
function slug(headingText: string): string {
  const parts = headingText.split(/(`+)([^`]*?)\1/);
  let text = "";
  for (let i = 0; i < parts.length; i += 3) {
    text += parts[i]!.replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/<[^>]+>/g, "")
      .replace(/[*]+/g, "")
      .replace(/(^|\W)_+|_+(?=\W|$)/g, "$1");
    if (i + 2 < parts.length) text += parts[i + 2]!;
  }
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a file offers: heading slugs (duplicates get -1, -2, …) and explicit `<a id|name>`. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const e of elements(md)) {
    if (e.kind === "heading") {
      const base = slug(e.heading.text);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    } else if (e.kind === "line") for (const m of e.text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  }
  return out;
}

interface Link {
  line: number;
  target: string;
}

/** Links in prose (not in code): inline links and images, reference definitions, autolinks and bare URLs. */
function links(md: string): Link[] {
  const out: Link[] = [];
  let para: Array<{ line: number; text: string }> = [];
  const flush = () => {
    if (para.length === 0) return;
    // Code spans hold no links; keep the text's length so offsets still map to lines.
    const text = para
      .map((p) => p.text)
      .join("\n")
      .replace(/(`+)[\s\S]*?[^`]\1(?!`)|(`+)\2(?!`)/g, (m) => m.replace(/[^\n]/g, " "));
    const lineAt = (offset: number) => para[text.slice(0, offset).split("\n").length - 1]!.line;
    for (const m of text.matchAll(/!?\[(?:[^[\]\\]|\\.|\[[^[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)/g))
      out.push({ line: lineAt(m.index), target: m[1]!.replace(/^<|>$/g, "") });
    for (const m of text.matchAll(/^ {0,3}\[[^\]]+\]:\s*(\S+)/gm)) out.push({ line: lineAt(m.index), target: m[1]! });
    for (const m of text.matchAll(/<((?:https?|ftp|mailto):[^>\s]+)>|(?<![(<\w])(https?:\/\/[^\s)>]+)/g))
      out.push({ line: lineAt(m.index), target: m[1] ?? m[2]! });
    para = [];
  };
  for (const e of elements(md)) {
    if (e.kind === "line" && e.text.trim() !== "") para.push({ line: e.line, text: e.text });
    else flush();
  }
  flush();
  return out;
}

/** Files git knows in this work tree (tracked, or untracked and not ignored): what a clone of it would hold. */
function repositoryFiles(): Set<string> {
  const r = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ls-files failed: ${r.stderr}`);
  return new Set(r.stdout.split("\0").filter((p) => p !== "" && existsSync(join(ROOT, p))));
}

const FILES = repositoryFiles();
const DOC_FILES = [...FILES].filter((p) => p === "README.md" || (p.startsWith("docs/") && p.endsWith(".md"))).sort();

function read(rel: string): string {
  return readFileSync(join(ROOT, rel), "utf8");
}

/** The elements of the section under the heading `title` (up to the next heading of its level or above). */
function section(md: string, title: string): Element[] {
  const all = elements(md);
  const start = all.findIndex((e) => e.kind === "heading" && e.heading.text === title);
  if (start === -1) throw new Error(`no heading "${title}"`);
  const level = (all[start] as { heading: Heading }).heading.level;
  const end = all.findIndex((e, i) => i > start && e.kind === "heading" && e.heading.level <= level);
  return all.slice(start + 1, end === -1 ? undefined : end);
}

/** The cells of a Markdown table row (`\|` inside a cell is not a separator). */
function cells(row: string): string[] {
  return row
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The rows of the tables in `els` whose first cell is a code span: first cell's code spans → the row's cells. */
function codeRows(els: Element[]): Array<{ names: string[]; cells: string[] }> {
  return els
    .filter((e): e is Extract<Element, { kind: "line" }> => e.kind === "line" && /^\|\s*`/.test(e.text))
    .map((e) => {
      const c = cells(e.text);
      return { names: [...c[0]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!), cells: c };
    });
}

/** `a`, `b?` in a cell → names with whether each is optional. */
function fieldList(cell: string): Array<{ name: string; optional: boolean }> {
  return [...cell.matchAll(/`([^`]+)`/g)].map((m) => ({ name: m[1]!.replace(/\?$/, ""), optional: m[1]!.endsWith("?") }));
}

function schemaFields(schema: { properties?: Record<string, unknown>; required?: string[] }, skip: string[] = []): Array<{ name: string; optional: boolean }> {
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {})
    .filter((k) => !skip.includes(k))
    .map((name) => ({ name, optional: !required.has(name) }));
}

// ---------------------------------------------------------------------------------------------

describe("README and docs: links", () => {
  it("finds the README and the docs pages", () => {
    expect(DOC_FILES).toContain("README.md");
    expect(DOC_FILES.filter((f) => f.startsWith("docs/")).length).toBeGreaterThan(10);
  });

  it("every relative link resolves to a file of the repository, every #anchor to a heading; nothing links outside the repository", () => {
    const anchorCache = new Map<string, Set<string>>();
    const anchorsOf = (rel: string) => {
      let a = anchorCache.get(rel);
      if (a === undefined) anchorCache.set(rel, (a = anchors(read(rel))));
      return a;
    };
    const isDir = (rel: string) => rel === "" || [...FILES].some((f) => f.startsWith(`${rel}/`));
    const problems: string[] = [];
    let checked = 0;
    for (const file of DOC_FILES) {
      const text = read(file);
      if (text.includes("../shared/")) problems.push(`${file}: mentions ../shared/, which a clone does not have`);
      for (const { line, target } of links(text)) {
        checked++;
        const where = `${file}:${line}: ${target}`;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) {
          problems.push(`${where}: links outside the repository (cite specifications by name and section instead)`);
          continue;
        }
        const hash = target.indexOf("#");
        const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
        const fragment = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
        const abs = pathPart === "" ? join(ROOT, file) : pathPart.startsWith("/") ? join(ROOT, pathPart) : resolve(dirname(join(ROOT, file)), pathPart);
        const rel = relative(ROOT, abs).split(sep).join("/");
        if (rel.startsWith("..") || isAbsolute(rel)) {
          problems.push(`${where}: leads out of the repository`);
          continue;
        }
        const dir = !FILES.has(rel) && isDir(rel);
        if (!FILES.has(rel) && !dir) {
          problems.push(`${where}: no such file in the repository (${rel})`);
          continue;
        }
        if (fragment === null) continue;
        const page = dir ? (rel === "" ? "README.md" : `${rel}/README.md`) : rel;
        if (page.endsWith(".md") && FILES.has(page)) {
          if (!anchorsOf(page).has(fragment)) problems.push(`${where}: ${page} has no heading with the anchor #${fragment}`);
        } else if (!/^L\d+(-L\d+)?$/.test(fragment)) problems.push(`${where}: #${fragment} on a file that is not Markdown`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it("the link reader sees what GitHub sees (so the check above can fail)", () => {
    const md = [
      "# Top `x [y]`",
      "See [a](docs/a.md#top-x-y), ![i](img.png) and [wrapped",
      "text](b.md). `[not](code.md)` <https://example.com>",
      "```sh",
      "[not](fenced.md)",
      "```",
      "[ref]: c.md",
      "## Top `x [y]`",
      "### `run_list` and *emphasis*",
    ].join("\n");
    expect(links(md)).toEqual([
      { line: 2, target: "docs/a.md#top-x-y" },
      { line: 2, target: "img.png" },
      { line: 2, target: "b.md" },
      { line: 3, target: "https://example.com" },
      { line: 7, target: "c.md" },
    ]);
    expect([...anchors(md)]).toEqual(["top-x-y", "top-x-y-1", "run_list-and-emphasis"]);
    expect(slug("`init [--hooks] [--force] [--dry-run] [--format text|json]`")).toBe("init---hooks---force---dry-run---format-textjson");
  });
});

describe("README and docs: complete against the real CLI, server and library", () => {
  it("the README's command table names exactly the commands the CLI lists", () => {
    const help = runCli(["--help"], { cwd: ROOT });
    expect(help.code).toBe(0);
    // Every line of the help that reads "  <command> [args]   <description>" (however the help groups them).
    const commands = [
      ...new Set(
        help.stdout
          .split("\n")
          .map((l) => /^ {2,}([a-z][a-z-]+)(?: +[[<]\S*)*\s{2,}\S/.exec(l)?.[1])
          .filter((c): c is string => c !== undefined),
      ),
    ].sort();
    expect(commands.length).toBeGreaterThan(20);
    const documented = codeRows(section(read("README.md"), COMMANDS_HEADING))
      .flatMap((r) => r.names.map((n) => n.split(/\s/)[0]!))
      .sort();
    expect(documented).toEqual(commands);
  });

  it("docs/mcp.md lists every tool of the real server's tools/list, with its arguments", () => {
    const r = runCli(["mcp"], { cwd: ROOT, input: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}\n` });
    expect(r.code).toBe(0);
    const tools = (
      JSON.parse(r.stdout.split("\n")[0]!) as {
        result: { tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown>; required?: string[] } }> };
      }
    ).result.tools;
    expect(tools.length).toBeGreaterThan(15);
    const documented = Object.fromEntries(codeRows(section(read("docs/mcp.md"), "Tools")).map((row) => [row.names[0]!, fieldList(row.cells[1]!)]));
    expect(documented).toEqual(Object.fromEntries(tools.map((t) => [t.name, schemaFields(t.inputSchema)])));
  });

  it("docs/documents.md lists every op of `schema patch-op` with its fields, and every diagnostic code", () => {
    const r = runCli(["schema", "patch-op"], { cwd: ROOT });
    expect(r.code).toBe(0);
    const ops = (JSON.parse(r.stdout) as { anyOf: Array<{ properties: Record<string, { const?: string }>; required?: string[] }> }).anyOf;
    expect(ops.length).toBe(25);
    const doc = read("docs/documents.md");
    const opRows = codeRows(section(doc, "What a patch is"));
    expect(Object.fromEntries(opRows.map((row) => [row.names[0]!, fieldList(row.cells[1]!)]))).toEqual(
      Object.fromEntries(ops.map((o) => [o.properties["op"]!.const!, schemaFields(o, ["op"])])),
    );
    const codes = codeRows(section(doc, "Diagnostics")).map((row) => row.names[0]!);
    expect(codes.sort()).toEqual([...Object.keys(RULES), ...Object.keys(CHECK_CODES)].sort());
  });

  it("the generated blocks of docs/ are what scripts/generate-docs.mjs makes of this build", () => {
    const r = spawnSync(process.execPath, [join(ROOT, "scripts/generate-docs.mjs"), "--check"], { cwd: ROOT, encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });

  it("docs/configuration.md: the .notarai/config.yaml example parses clean and the table names exactly the known keys", () => {
    const els = section(read("docs/configuration.md"), "`.notarai/config.yaml`");
    const yaml = els.find((e): e is Extract<Element, { kind: "fence" }> => e.kind === "fence" && e.fence.lang === "yaml")!.fence.body;
    expect(parseConfig(yaml, ".notarai/config.yaml").problems).toEqual([]);
    const keys = codeRows(els).map((row) => row.names[0]!);
    expect(keys.sort()).toEqual([...CONFIG_KEYS.filter((k) => k !== "workspace"), ...WORKSPACE_KEYS.map((k) => `workspace.${k}`)].sort());
  });

  it("docs/configuration.md: the .norma/config.json example parses clean and every key in the table is one the reader knows", () => {
    const els = section(read("docs/configuration.md"), "`.norma/config.json`");
    const json = els.find((e): e is Extract<Element, { kind: "fence" }> => e.kind === "fence" && e.fence.lang === "json")!.fence.body;
    const root = tempDir();
    expect(parseRunConfig(json, root).problems).toEqual([]);
    const rows = codeRows(els);
    const keys = rows.flatMap((row) => row.names);
    // Top-level keys, as the reader names them when it meets an unknown one.
    const known = /known keys: ([^)]*)\)/.exec(parseRunConfig(`{"x-unknown": 1}`, root).problems.join("\n"))![1]!.split(", ");
    expect([...new Set(keys.map((k) => k.split(".")[0]!))].sort()).toEqual(known.sort());
    expect(keys.filter((k) => /^agents\.[a-z]+$/.test(k)).map((k) => k.slice(7))).toEqual([...ROLES]);
    const typeRow = rows.find((row) => row.names.includes("agents.<role>.type"))!;
    expect(
      fieldList(typeRow.cells[1]!)
        .map((f) => f.name)
        .sort(),
    ).toEqual([...AGENT_TYPES].sort());
    // Every budget and agent field documented is accepted by the reader (an unknown one is an error).
    const values: Record<string, [string, unknown]> = {
      cmd: ["exec", ["node"]],
      env: ["exec", ["HOME"]],
      timeout_ms: ["exec", 1000],
      model: ["claude", "m"],
      path: ["claude", "."],
      args: ["claude", ["--x"]],
      permissions: ["acp", { write: "deny", execute: "allow" }],
    };
    for (const key of keys) {
      const budget = /^budgets\.(\w+)$/.exec(key)?.[1];
      const field = /^agents\.<role>\.(\w+)$/.exec(key)?.[1];
      if (budget !== undefined) expect(parseRunConfig(JSON.stringify({ budgets: { [budget]: 1 } }), root).problems, key).toEqual([]);
      if (field !== undefined && field !== "type") {
        const [type, value] = values[field] ?? ["exec", null];
        const agent = { type, ...((type === "exec" || type === "acp") && field !== "cmd" ? { cmd: ["node"] } : {}), [field]: value };
        expect(parseRunConfig(JSON.stringify({ agents: { act: agent } }), root).problems, key).toEqual([]);
      }
    }
    expect(parseRunConfig(JSON.stringify({ budgets: { max_iteration: 1 } }), root).problems).toEqual([
      '.norma/config.json: budgets.max_iteration: unknown key (did you mean "max_iterations"?)',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------

interface TourBlock {
  line: number;
  script: string;
  exit: number;
  contains: string[];
  /** Lines of a ```text block right after the script: each must match a line of its output. */
  output: string[];
}

/** The tour's ```sh blocks in order, each with the expectations of its `<!-- expect: … -->` comment. */
function tourBlocks(readme: string): TourBlock[] {
  const blocks: TourBlock[] = [];
  let pending: { line: number; exit: number; contains: string[] } | null = null;
  let last: TourBlock | null = null;
  for (const e of section(readme, TOUR_HEADING)) {
    if (e.kind === "line") {
      const m = /^<!--\s*expect:\s*exit\s+(\d+)\s*((?:,\s*"(?:[^"\\]|\\.)*"\s*)*)-->\s*$/.exec(e.text);
      if (m !== null) {
        if (pending !== null) throw new Error(`README.md:${pending.line}: an expect comment with no sh block after it`);
        pending = { line: e.line, exit: Number(m[1]), contains: [...m[2]!.matchAll(/"(?:[^"\\]|\\.)*"/g)].map((s) => JSON.parse(s[0]) as string) };
      } else if (/^<!--\s*expect/.test(e.text)) throw new Error(`README.md:${e.line}: expected <!-- expect: exit N, "…" --> but found ${e.text}`);
      if (e.text.trim() !== "") last = null;
    } else if (e.kind === "fence" && e.fence.lang === "sh") {
      if (pending === null) throw new Error(`README.md:${e.fence.line}: a sh block of the tour has no <!-- expect: exit N, "…" --> comment before it`);
      last = { line: e.fence.line, script: e.fence.body, exit: pending.exit, contains: pending.contains, output: [] };
      blocks.push(last);
      pending = null;
    } else if (e.kind === "fence" && e.fence.lang === "text" && last !== null) {
      last.output = e.fence.body.split("\n").filter((l) => l.trim() !== "");
      last = null;
    } else last = null;
  }
  if (pending !== null) throw new Error(`README.md:${pending.line}: an expect comment with no sh block after it`);
  return blocks;
}

/** A user's environment: none of the test run's npm, git, GitHub or noma-reconcile variables; `npx noma-reconcile` as npm would run it. */
function tourEnv(repo: string): NodeJS.ProcessEnv {
  const stubs = tempDir("nr-npx-");
  writeFileSync(
    join(stubs, "npx"),
    `#!/bin/sh\n[ "$1" = noma-reconcile ] || { echo "npx: this test runs only noma-reconcile, not $1" >&2; exit 127; }\nshift\nexec '${repo}/node_modules/.bin/noma-reconcile' "$@"\n`,
    { mode: 0o755 },
  );
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(npm_|GIT_|GITHUB_|NOMA_RECONCILE_|NORMA_|INIT_CWD$)/i.test(k)),
  ) as NodeJS.ProcessEnv;
  const home = tempDir("nr-home-");
  mkdirSync(join(home, ".config"), { recursive: true });
  writeFileSync(join(home, ".gitconfig"), "");
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    GIT_CONFIG_NOSYSTEM: "1",
    PATH: [stubs, dirname(process.execPath), process.env["PATH"] ?? ""].join(":"),
    NO_COLOR: "1",
  };
}

function lineMatcher(expected: string): RegExp {
  return new RegExp(
    `^${expected
      .split("…")
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
}

describe("README: the five-minute tour", () => {
  it("has a block for each stop: init, a spec, the hook, a patch, the PR check, a run, the MCP server", () => {
    const blocks = tourBlocks(read("README.md"));
    const all = blocks.map((b) => b.script).join("\n");
    expect(blocks.length).toBeGreaterThanOrEqual(7);
    for (const step of [
      "noma-reconcile init --hooks",
      ".notarai/system.spec.yaml",
      "git commit",
      "noma-reconcile patch",
      "noma-reconcile ci",
      "noma-reconcile run",
      "noma-reconcile mcp",
    ])
      expect(all).toContain(step);
  });

  it("runs as written in a fresh repository, block by block", () => {
    const blocks = tourBlocks(read("README.md"));
    const repo = tempRepo();
    installLocally(repo);
    const env = tourEnv(repo);
    for (const block of blocks) {
      const r = spawnSync("sh", ["-e", "-c", block.script], { cwd: repo, env, encoding: "utf8", timeout: 120_000 });
      const output = `${r.stdout}${r.stderr}`;
      const where = `README.md:${block.line}: the tour's block\n${block.script}\nprinted\n${output}`;
      expect(r.status, where).toBe(block.exit);
      for (const s of block.contains) expect(output, where).toContain(s);
      const lines = output.split(/\r?\n/).map((l) => l.trimEnd());
      for (const expected of block.output)
        expect(
          lines.some((l) => lineMatcher(expected.trimEnd()).test(l)),
          `${where}\nno line like: ${expected}`,
        ).toBe(true);
    }
    // Nothing the tour committed names its local path (the transcript's doc_uri is repository-relative).
    expect(committedFilesHolding(repo, repo)).toEqual([]);
    expect(committedFilesHolding(repo, env["HOME"]!)).toEqual([]);
    const head = spawnSync("git", ["rev-parse", "HEAD"], { cwd: repo, encoding: "utf8" }).stdout.trim();
    expect(committedFilesHolding(repo, '"doc_uri":"docs/refunds.noma"')).toContain(`${head}:docs/refunds.noma.patches`);
    // In the work tree, only the run's agent requests (input.json: absolute paths, as the norma protocol specifies) and the
    // `.git` file git writes in the run's worktree (its gitdir) hold it, and git ignores them.
    const holding = spawnSync("grep", ["-rlF", "--exclude-dir=node_modules", "--exclude-dir=.git", "-e", repo, "."], { cwd: repo, encoding: "utf8" })
      .stdout.split("\n")
      .filter((l) => l !== "")
      .map((l) => l.replace(/^\.\//, ""));
    expect(holding.length).toBeGreaterThan(0);
    for (const f of holding) expect(f).toMatch(/^\.norma\/(runs\/[^/]+\/steps\/\d{3}-[a-z]+\/input\.json|worktrees\/[^/]+\/\.git)$/);
    const ignored = spawnSync("git", ["check-ignore", ...holding], { cwd: repo, encoding: "utf8" })
      .stdout.split("\n")
      .filter((l) => l !== "");
    expect(ignored.sort()).toEqual([...holding].sort());
    expect(spawnSync("git", ["ls-files", "--", ...holding], { cwd: repo, encoding: "utf8" }).stdout).toBe("");
  }, 300_000);
});
