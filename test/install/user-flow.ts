/**
 * The README's "Use it in your repository" steps after the install, run in a user's project the
 * way a user runs them: `npx noma-reconcile init --hooks`, commits through the hook, the PR
 * check on a branch, and the MCP server started from exactly what `.mcp.json` holds.
 *
 * Written against behaviour, not the text of what init writes: the hook is whatever git runs,
 * the server whatever command/args/cwd/env the `.mcp.json` entry names.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { expect } from "vitest";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { BROKEN, VALID } from "../check/staged/fixtures.js";
import { type Clock, git, linksLeaving, ok, run, userEnv } from "./install-helpers.js";

/** What a package.json's bin, main, types and exports name: each must exist in the installed package. */
function entryPoints(pkgDir: string): string[] {
  const pkg = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as Record<string, unknown>;
  const paths = new Set<string>();
  const collect = (v: unknown): void => {
    if (typeof v === "string") paths.add(v);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) collect(x);
  };
  collect(pkg["bin"]);
  collect(pkg["main"]);
  collect(pkg["types"]);
  collect(pkg["exports"]);
  return [...paths];
}

/**
 * The installed package is complete and self-contained: its entry points, types, its vendored
 * dependencies (each beside its WebAssembly build) are there, it installed no other package,
 * and nothing links back out of the project.
 */
export function expectSelfContained(project: string): void {
  const pkgDir = join(project, "node_modules/noma-reconcile");
  for (const p of entryPoints(pkgDir)) expect(existsSync(join(pkgDir, p)), `${p} is in the installed package`).toBe(true);
  const files = ["dist/cli.cjs", "dist/types/index.d.ts", "dist/licenses.txt", "hooks/pre-commit", "fixtures/demo/README.md"];
  const vendored = ["yaml.cjs", "sql-wasm.cjs", "sql-wasm.wasm", "blake3.cjs", "blake3_js_bg.wasm", "zstd.cjs", "zstd.wasm"].map((f) => `dist/vendor/${f}`);
  for (const p of [...files, ...vendored]) {
    expect(existsSync(join(pkgDir, p)), `${p} is in the installed package`).toBe(true);
  }
  expect(readdirSync(join(project, "node_modules")).filter((d) => !d.startsWith("."))).toEqual(["noma-reconcile"]);
  expect(linksLeaving(join(project, "node_modules"), project)).toEqual([]);
}

/** Every step after the install. `clock` times them. */
export async function adoptAndUse(project: string, clock: Clock): Promise<void> {
  expectSelfContained(project);
  const npx = (args: string[], env: Record<string, string> = {}) => run("npx", ["noma-reconcile", ...args], project, env);

  // The library entry point imports (dist/index.js and its chunks).
  const lib = clock.time("import the library", () =>
    run("node", ["--input-type=module", "-e", "const m = await import('noma-reconcile'); console.log(typeof m.checkFiles)"], project),
  );
  expect(lib, lib.stderr).toMatchObject({ code: 0, stdout: "function\n" });

  // init --hooks writes the project's files and the hook.
  const init = clock.time("init --hooks", () => npx(["init", "--hooks"]));
  expect(init.code, init.stdout + init.stderr).toBe(0);
  for (const f of [".notarai/README.md", ".notarai/notarai.spec.json", ".notarai/system.spec.yaml", ".mcp.json"])
    expect(existsSync(join(project, f)), f).toBe(true);
  expect(readFileSync(join(project, ".gitignore"), "utf8")).toContain(".notarai/.cache/");
  const hook = join(project, git(project, ["rev-parse", "--git-path", "hooks/pre-commit"]).stdout.trim());
  accessSync(hook, constants.X_OK);

  // Committing init's files goes through the hook (it judges the example spec).
  clock.time("commit init's files", () => {
    ok("git", ["add", "-A"], project);
    ok("git", ["commit", "--quiet", "-m", "noma-reconcile init"], project);
  });

  // Adopting the existing files: one baseline (every governed file and spec reconciled, the snapshot written), committed.
  const baseline = clock.time("baseline: mark-reconciled --all", () => npx(["mark-reconciled", "--all"]));
  expect(baseline.code, baseline.stdout + baseline.stderr).toBe(0);
  expect(baseline.stdout).toContain(".notarai/reconciliation_state.json");
  clock.time("commit the baseline", () => {
    ok("git", ["add", "-A"], project);
    ok("git", ["commit", "--quiet", "-m", "noma-reconcile baseline"], project);
  });

  // On a branch: a valid document commits; an invalid one is blocked at its file and line.
  // New code under the example spec's src/** is drift until someone reconciles it.
  ok("git", ["checkout", "--quiet", "-b", "feature"], project);
  writeFileSync(join(project, "docs.noma"), VALID);
  mkdirSync(join(project, "src"));
  writeFileSync(join(project, "src/internal.js"), "export const answer = 42;\n");
  ok("git", ["add", "docs.noma", "src/internal.js"], project);
  const good = clock.time("commit, hook passes", () => git(project, ["commit", "-m", "A document"]));
  expect(good.code, good.stdout + good.stderr).toBe(0);
  expect(git(project, ["log", "-1", "--format=%s"]).stdout).toBe("A document\n");

  writeFileSync(join(project, "bad.noma"), BROKEN);
  ok("git", ["add", "bad.noma"], project);
  const head = git(project, ["rev-parse", "HEAD"]).stdout;
  const blocked = clock.time("commit, hook blocks", () => git(project, ["commit", "-m", "A broken document"]));
  expect(blocked.code, blocked.stdout + blocked.stderr).not.toBe(0);
  expect(blocked.stdout + blocked.stderr).toContain("bad.noma:3");
  expect(git(project, ["rev-parse", "HEAD"]).stdout).toBe(head);

  // The PR check on the branch (base: the default branch): clean, then failing once the broken document is committed past the hook.
  const clean = clock.time("ci, clean", () => npx(["ci"]));
  expect(clean.code, clean.stdout + clean.stderr).toBe(0);
  expect(clean.stdout).toContain("0 errors");
  const report = JSON.parse(npx(["ci", "--format", "json"]).stdout).result as {
    drift: { unreconciled: number; specs: Array<{ reconciled: string[]; unreconciled: Array<{ path: string }> }> };
  };
  expect(report.drift.unreconciled).toBe(1);
  expect(report.drift.specs.flatMap((s) => s.unreconciled.map((u) => u.path))).toEqual(["src/internal.js"]);
  ok("git", ["commit", "--quiet", "--no-verify", "-m", "A broken document, past the hook"], project);
  const failing = clock.time("ci, failing", () => npx(["ci"]));
  expect(failing.code, failing.stdout + failing.stderr).toBe(1);
  expect(failing.stdout).toContain("ERROR [broken-reference] bad.noma:3");

  // The bundled demo (fixtures/demo is in the package).
  const demo = clock.time("demo", () => npx(["demo"]));
  expect(demo.code, demo.stdout + demo.stderr).toBe(0);

  // The MCP server, started from exactly what .mcp.json says, as a client does (cwd: the project unless the entry names one).
  const entry = (
    JSON.parse(readFileSync(join(project, ".mcp.json"), "utf8")) as {
      mcpServers: Record<string, { command: string; args?: string[]; cwd?: string; env?: Record<string, string> }>;
    }
  ).mcpServers["noma-reconcile"]!;
  expect(typeof entry.command).toBe("string");
  const cwd = entry.cwd === undefined ? project : isAbsolute(entry.cwd) ? entry.cwd : resolve(project, entry.cwd);
  await clock.timeAsync("MCP server: start, initialize, 4 calls", async () => {
    const server = new McpClient(cwd, [entry.command, ...(entry.args ?? [])], { ...userEnv(), ...entry.env });
    const init = await server.initialize();
    expect(init["serverInfo"]).toMatchObject({ name: "noma-reconcile" });
    const list = await server.request("tools/list");
    const tools = (list.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["validate_doc", "get_changed_artifacts", "edit_file"]));
    // A document tool (the vendored YAML library loads for the frontmatter-free doc too).
    expect(await server.ok("validate_doc", { file: "bad.noma" })).toMatchObject({
      ok: false,
      diagnostics: [expect.objectContaining({ code: "broken-reference" })],
    });
    // The hash cache: sql.js and blake3-wasm from the installed package.
    // (The one governed file changed since the baseline: the branch's new code.)
    expect(await server.ok("get_changed_artifacts", { spec_path: ".notarai/system.spec.yaml" })).toEqual({ changed_artifacts: ["src/internal.js"] });
    // A workspace edit archives the old version, zstd-compressed (@bokuweb/zstd-wasm).
    expect(await server.ok("edit_file", { path: "README.md", contents: "# My project, edited by an agent\n" })).toMatchObject({
      success: true,
      archived: { archive: expect.stringMatching(/^archive\/\d{4}\/\d{2}\/README\.md\.tar\.zst$/), member: "README.md.~1~", version: 1 },
    });
    const closed = await server.close();
    expect(closed.code, closed.stderr).toBe(0);
  });
}
