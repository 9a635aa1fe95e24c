/**
 * `noma-reconcile init`, spawned as a real process in real repositories:
 * a fresh repository, an idempotent re-run, a dry run, an existing `.mcp.json`
 * with other servers, an unparseable one (untouched), --force, --hooks.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { specSchemaJson } from "../../src/governance/spec-json-schema.js";
import { validateSpecText } from "../../src/governance/validate-spec-text.js";
import { MCP_SERVER_ENTRY } from "../../src/init/notarai-files.js";
import { BROKEN, VALID } from "../check/staged/fixtures.js";
import { commit } from "../check/staged/hook-repo.js";
import { installLocally } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { git, tempDir } from "../helpers/temp-repo.js";

/** Each test's repository: a copy of one built once per tree (test/helpers/repo-templates.ts). */
const tempRepo = repoTemplates().repo;

const ENTRY = { ...MCP_SERVER_ENTRY, args: [...MCP_SERVER_ENTRY.args] };
const VERSION = (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string }).version;

function files(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(p.slice(root.length + 1), readFileSync(p, "utf8"));
    }
  };
  walk(root);
  return out;
}

describe("init", () => {
  it("sets up a fresh repository: README with version line, spec schema, example spec, .gitignore, .mcp.json", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const r = runCli(["init"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^created +\.notarai\/README\.md/m);
    expect(r.stdout).toMatch(/^created +\.notarai\/notarai\.spec\.json/m);
    expect(r.stdout).toMatch(/^created +\.notarai\/system\.spec\.yaml/m);
    expect(r.stdout).toMatch(/^created +\.gitignore/m);
    expect(r.stdout).toMatch(/^created +\.mcp\.json/m);

    expect(readFileSync(join(repo, ".notarai/README.md"), "utf8").split("\n")[0]).toBe(`# noma-reconcile -- ${VERSION}`);
    expect(JSON.parse(readFileSync(join(repo, ".notarai/notarai.spec.json"), "utf8"))).toEqual(specSchemaJson());
    const spec = readFileSync(join(repo, ".notarai/system.spec.yaml"), "utf8");
    expect(validateSpecText(".notarai/system.spec.yaml", spec).problems).toEqual([]);
    expect(readFileSync(join(repo, ".gitignore"), "utf8")).toMatch(/^\.notarai\/\.cache\/$/m);
    expect(JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8"))).toEqual({ mcpServers: { "noma-reconcile": ENTRY } });
    // The example is a valid spec for the CLI too, and it is the system spec.
    const v = runCli(["specs", "validate", "--format", "json"], { cwd: repo });
    expect(v.code, v.stdout).toBe(0);
    expect((JSON.parse(v.stdout) as { result: { system_spec: string } }).result.system_spec).toBe(".notarai/system.spec.yaml");
    // The cache directory is ignored by git.
    mkdirSync(join(repo, ".notarai/.cache"), { recursive: true });
    writeFileSync(join(repo, ".notarai/.cache/notarai.db"), "x");
    expect(git(repo, ["status", "--porcelain", "--untracked-files=all"])).not.toContain(".cache");
  });

  it("is idempotent: a second run changes nothing and says so", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    expect(runCli(["init"], { cwd: repo }).code).toBe(0);
    const before = files(repo);
    const mtimes = [...before.keys()].map((p) => statSync(join(repo, p)).mtimeMs);
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split("\n")
        .every((l) => l.startsWith("unchanged")),
    ).toBe(true);
    expect(r.stderr).toMatch(/already initialized, nothing to do/);
    expect(files(repo)).toEqual(before);
    expect([...before.keys()].map((p) => statSync(join(repo, p)).mtimeMs)).toEqual(mtimes);
  });

  it("--dry-run prints the plan and writes nothing (text and json)", () => {
    const repo = tempRepo({ "src/a.ts": "a\n", ".mcp.json": '{"mcpServers":{}}\n' });
    const before = files(repo);
    const r = runCli(["init", "--dry-run"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^would create +\.notarai\/README\.md/m);
    expect(r.stdout).toMatch(/^would update +\.mcp\.json/m);
    expect(r.stderr).toMatch(/dry run, nothing written: 6 files to write/);
    const j = runCli(["init", "--dry-run", "--format", "json"], { cwd: repo });
    expect(j.code).toBe(0);
    const env = JSON.parse(j.stdout) as { schema: string; ok: boolean; result: { dry_run: boolean; files: Array<{ path: string; action: string }> } };
    expect(env.schema).toBe("noma-reconcile/init@2");
    expect(env.result.dry_run).toBe(true);
    expect(env.result.files.map((f) => [f.path, f.action])).toEqual([
      [".notarai/README.md", "create"],
      [".notarai/notarai.spec.json", "create"],
      [".notarai/system.spec.yaml", "create"],
      [".notarai/noma-reconcile.cjs", "create"],
      [".gitignore", "create"],
      [".mcp.json", "update"],
    ]);
    expect(files(repo)).toEqual(before);
    expect(existsSync(join(repo, ".notarai"))).toBe(false);
  });

  it("keeps the other servers, keys, order and indentation of an existing .mcp.json", () => {
    const existing = `{\n    "mcpServers": {\n        "github": {\n            "command": "gh-mcp",\n            "env": {"TOKEN": "x"}\n        }\n    },\n    "other": [1, 2]\n}\n`;
    const repo = tempRepo({ ".mcp.json": existing });
    expect(runCli(["init"], { cwd: repo }).code).toBe(0);
    const text = readFileSync(join(repo, ".mcp.json"), "utf8");
    expect(JSON.parse(text)).toEqual({ mcpServers: { github: { command: "gh-mcp", env: { TOKEN: "x" } }, "noma-reconcile": ENTRY }, other: [1, 2] });
    expect(text).toMatch(/^ {4}"mcpServers": \{$/m);
    expect(text.endsWith("}\n")).toBe(true);
  });

  it("never overwrites an unparseable .mcp.json: exit 2 naming file and position, nothing written at all", () => {
    const broken = '{\n  "mcpServers": {\n    "github": { "command": "gh" },\n  }\n}\n';
    const repo = tempRepo({ ".mcp.json": broken, "src/a.ts": "a\n" });
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.mcp\.json:4:3: not valid JSON \(expected a property name in double quotes, found "}"\)/);
    expect(r.stderr).toMatch(/left untouched/);
    expect(readFileSync(join(repo, ".mcp.json"), "utf8")).toBe(broken);
    expect(existsSync(join(repo, ".notarai/README.md"))).toBe(false);
    expect(existsSync(join(repo, ".gitignore"))).toBe(false);
    // Not an object / mcpServers not an object: errors too.
    writeFileSync(join(repo, ".mcp.json"), "[1]\n");
    expect(runCli(["init"], { cwd: repo }).stderr).toMatch(/\.mcp\.json: the top level must be a JSON object/);
    writeFileSync(join(repo, ".mcp.json"), '{"mcpServers": []}\n');
    expect(runCli(["init"], { cwd: repo }).stderr).toMatch(/"mcpServers" must be an object/);
    expect(readFileSync(join(repo, ".mcp.json"), "utf8")).toBe('{"mcpServers": []}\n');
  });

  it("keeps a different noma-reconcile entry and a foreign README unless --force", () => {
    const custom = { command: "node", args: ["/dev/noma-reconcile/dist/cli.js", "mcp"] };
    const repo = tempRepo({ ".mcp.json": JSON.stringify({ mcpServers: { "noma-reconcile": custom } }, null, 2), ".notarai/README.md": "# Our notes\n" });
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^kept +\.mcp\.json +\(has a different noma-reconcile entry \(not written by noma-reconcile\); --force replaces it/m);
    expect(r.stdout).toMatch(/^kept +\.notarai\/README\.md/m);
    expect(r.stderr).toMatch(/2 kept \(--force replaces\)/);
    expect(JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")).mcpServers["noma-reconcile"]).toEqual(custom);
    expect(readFileSync(join(repo, ".notarai/README.md"), "utf8")).toBe("# Our notes\n");
    const f = runCli(["init", "--force"], { cwd: repo });
    expect(f.code).toBe(0);
    expect(f.stdout).toMatch(
      /^updated +\.mcp\.json +\(a different noma-reconcile entry replaced \(--force\); it was \{"command":"node","args":\["\/dev\/noma-reconcile\/dist\/cli\.js","mcp"\]\}\)/m,
    );
    expect(JSON.parse(readFileSync(join(repo, ".mcp.json"), "utf8")).mcpServers["noma-reconcile"]).toEqual(ENTRY);
    expect(readFileSync(join(repo, ".notarai/README.md"), "utf8")).toMatch(/^# noma-reconcile -- /);
    expect(readFileSync(join(repo, ".notarai/README.md.bak"), "utf8")).toBe("# Our notes\n");
  });

  it("updates the README and schema written by an older version; keeps those of a newer one", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    expect(runCli(["init"], { cwd: repo }).code).toBe(0);
    writeFileSync(join(repo, ".notarai/README.md"), "# noma-reconcile -- 0.0.1\nold\n");
    writeFileSync(join(repo, ".notarai/notarai.spec.json"), JSON.stringify({ description: "Generated by noma-reconcile 0.0.1 from its zod schemas." }));
    const r = runCli(["init"], { cwd: repo });
    expect(r.stdout).toMatch(/^updated +\.notarai\/README\.md +\(0\.0\.1 → /m);
    expect(r.stdout).toMatch(/^updated +\.notarai\/notarai\.spec\.json +\(0\.0\.1 → /m);
    writeFileSync(join(repo, ".notarai/README.md"), "# noma-reconcile -- 99.0.0\n");
    expect(runCli(["init"], { cwd: repo }).stdout).toMatch(/^kept +\.notarai\/README\.md +\(written by a newer noma-reconcile \(99\.0\.0\)/m);
  });

  it("writes no example spec when the repository already has one; recognises an existing ignore rule", () => {
    const repo = tempRepo({
      ".notarai/api.spec.yaml": 'schema_version: "0.7"\nintent: x\nbehaviors: []\nartifacts: {}\n',
      ".gitignore": "node_modules\r\n/.notarai/.cache\r\n",
    });
    const r = runCli(["init"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("system.spec.yaml");
    expect(existsSync(join(repo, ".notarai/system.spec.yaml"))).toBe(false);
    expect(r.stdout).toMatch(/^unchanged +\.gitignore/m);
    expect(readFileSync(join(repo, ".gitignore"), "utf8")).toBe("node_modules\r\n/.notarai/.cache\r\n");
  });

  it("appends to a .gitignore without a final newline, keeping its line ends", () => {
    const repo = tempRepo({ ".gitignore": "dist\r\nnode_modules" });
    expect(runCli(["init"], { cwd: repo }).code).toBe(0);
    expect(readFileSync(join(repo, ".gitignore"), "utf8")).toBe("dist\r\nnode_modules\r\n# noma-reconcile: the local hash cache\r\n.notarai/.cache/\r\n");
  });

  it("works from a subdirectory (writes at the top level) and refuses outside a repository", () => {
    const repo = tempRepo({ "src/deep/a.ts": "a\n" });
    expect(runCli(["init"], { cwd: join(repo, "src/deep") }).code).toBe(0);
    expect(existsSync(join(repo, ".mcp.json"))).toBe(true);
    expect(existsSync(join(repo, "src/deep/.mcp.json"))).toBe(false);
    const dir = tempDir();
    const r = runCli(["init"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not inside a git repository/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("rejects an unknown --format", () => {
    const repo = tempRepo({});
    expect(runCli(["init", "--format", "sarif"], { cwd: repo }).code).toBe(2);
  });
});

describe("init --hooks", () => {
  it("installs the pre-commit hook (dry run first), idempotently", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const hook = join(repo, ".git/hooks/pre-commit");
    const dry = runCli(["init", "--hooks", "--dry-run"], { cwd: repo });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^would install pre-commit hook/m);
    expect(existsSync(hook)).toBe(false);
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^installed +pre-commit hook +\(\.git\/hooks\)/m);
    expect(readFileSync(hook, "utf8")).toContain("noma-reconcile");
    expect(statSync(hook).mode & 0o111).not.toBe(0);
    const again = runCli(["init", "--hooks", "--format", "json"], { cwd: repo });
    expect(again.code).toBe(0);
    const env = JSON.parse(again.stdout) as { result: { hooks: { installed: string[]; unchanged: string[]; refused: unknown[] } } };
    expect(env.result.hooks).toMatchObject({ installed: [], unchanged: ["pre-commit"], refused: [] });
  });

  it("refuses a foreign hook without --force (exit 2, the hook kept); --force keeps it as .before-noma-reconcile (chained)", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const hook = join(repo, ".git/hooks/pre-commit");
    mkdirSync(join(repo, ".git/hooks"), { recursive: true });
    writeFileSync(hook, "#!/bin/sh\necho mine\n", { mode: 0o755 });
    const r = runCli(["init", "--hooks"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^refused +pre-commit hook/m);
    expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\necho mine\n");
    // Everything else was still set up.
    expect(existsSync(join(repo, ".mcp.json"))).toBe(true);
    const f = runCli(["init", "--hooks", "--force"], { cwd: repo });
    expect(f.code).toBe(0);
    expect(readFileSync(`${hook}.before-noma-reconcile`, "utf8")).toBe("#!/bin/sh\necho mine\n");
    expect(readFileSync(hook, "utf8")).toContain("noma-reconcile");
  });

  it("a hook replaced with --force still runs, first, on every commit: its failure blocks the commit, skipping ours does not skip it; a second foreign hook is refused", () => {
    const repo = tempRepo({ "a.noma": VALID });
    installLocally(repo);
    const hook = join(repo, ".git/hooks/pre-commit");
    const log = join(tempDir(), "mine.log");
    const mine = `#!/bin/sh\necho "mine $#" >> '${log}'\n[ ! -f stop-mine ] || { echo "mine: blocked" >&2; exit 3; }\n`;
    writeFileSync(hook, mine, { mode: 0o755 });
    const f = runCli(["init", "--hooks", "--force"], { cwd: repo });
    expect(f.code, f.stderr).toBe(0);
    expect(readFileSync(`${hook}.before-noma-reconcile`, "utf8")).toBe(mine);
    expect(statSync(`${hook}.before-noma-reconcile`).mode & 0o111).not.toBe(0);

    // Theirs runs, then ours: a broken document is blocked by ours after theirs passed.
    writeFileSync(join(repo, "b.noma"), BROKEN);
    git(repo, ["add", "b.noma"]);
    const blocked = commit(repo, ["-m", "broken"]);
    expect(blocked.code).toBe(1);
    expect(blocked.output).toContain("broken-reference");
    expect(readFileSync(log, "utf8")).toBe("mine 0\n");
    writeFileSync(join(repo, "b.noma"), VALID);
    git(repo, ["add", "b.noma"]);
    expect(commit(repo, ["-m", "valid"]).code).toBe(0);
    expect(readFileSync(log, "utf8")).toBe("mine 0\nmine 0\n");

    // Theirs fails: the commit is blocked, also when ours is skipped.
    writeFileSync(join(repo, "stop-mine"), "");
    writeFileSync(join(repo, "c.noma"), VALID);
    git(repo, ["add", "c.noma"]);
    for (const env of [{}, { NOMA_RECONCILE_SKIP: "1" }]) {
      const stopped = commit(repo, ["-m", "c"], env);
      expect(stopped.code).toBe(1); // git reports any hook failure as 1
      expect(stopped.output).toContain("mine: blocked");
    }

    // Another foreign hook in our place: the kept one is never overwritten.
    writeFileSync(hook, "#!/bin/sh\necho other\n", { mode: 0o755 });
    const again = runCli(["init", "--hooks", "--force"], { cwd: repo });
    expect(again.code).toBe(2);
    expect(again.stdout).toMatch(/^refused +pre-commit hook .*pre-commit\.before-noma-reconcile exists already/m);
    expect(readFileSync(`${hook}.before-noma-reconcile`, "utf8")).toBe(mine);
    expect(readFileSync(hook, "utf8")).toBe("#!/bin/sh\necho other\n");
  });
});
