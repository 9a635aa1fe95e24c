/**
 * Install path (a): `npm pack` of this repository, then in a fresh project of the user's own
 * `npm i -D <pack directory>/noma-reconcile-<version>.tgz` (the tarball left where it was
 * packed, as the README says). The tarball is all the project gets: nothing links back to this
 * source tree.
 *
 * The package ships only what runs (issue 32, item 3): its runtime dependencies are bundled into
 * dist/ (dist/vendor/ holds the one WebAssembly build of each that loads, beside its loader), so
 * it has no dependencies to install; its size is held to a budget; installed with npm offline
 * and the registry unreachable, every command runs, and the library's types check in a
 * consumer with `skipLibCheck` off. Then the README's steps (user-flow.ts), which commit no package.
 */
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLAIM, SPEC } from "../check/staged/fixtures.js";
import { Clock, copySource, expectOk, INSTALL_TIMEOUT_MS, NPM_FLAGS, ok, ROOT, type Run, run, runAsync, userEnv, userProject } from "./install-helpers.js";
import { adoptAndUse } from "./user-flow.js";

const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };

/**
 * The budget (docs/install.md): 1.33 MB packed, 4.4 MB unpacked and 525 files when it was set
 * (before: 16.3 MB, 42.5 MB and 1,898 files, with every build of sql.js in node_modules/); the
 * unpacked budget raised from 6 to 6.5 MB when `changed`, `diff` and `affected` became cached
 * command bodies (+705 KB; the ES chunks lost 600 KB of whitespace in the same change), and
 * from 6.5 to 7 MB (and the packed one from 2 to 2.1 MB) when the less frequent one-shot
 * commands got one shared cached body, dist/bodies/commands.cjs (+874 KB unpacked; one body per
 * command would have been +3.1 MB): 2.03 MB packed, 6.91 MB unpacked and 610 files then; and to
 * 2.7 MB packed and 9.4 MB unpacked when the run loop, its records, the servers and the workspace
 * commands got one more shared cached body, dist/bodies/services.cjs (+1.83 MB), and check's fixes
 * a body of their own, dist/bodies/check-fixes.cjs (+395 KB): 2.62 MB packed, 9.15 MB unpacked and 613 files then.
 */
const BUDGET = { packedBytes: 2_700_000, unpackedBytes: 9_400_000, files: 700 };
/** What dist/vendor/ holds: each runtime dependency as one file, beside the one WebAssembly build it loads. */
const VENDORED = ["blake3.cjs", "blake3_js_bg.wasm", "sql-wasm.cjs", "sql-wasm.wasm", "yaml.cjs", "zstd.cjs", "zstd.wasm"];
/** npm with no way to reach a registry: offline, and the registry an address nothing listens on. */
const NO_REGISTRY = { npm_config_registry: "http://127.0.0.1:9/", npm_config_offline: "true" };
const OFFLINE_FLAGS = ["--offline", "--no-audit", "--no-fund"];

interface PackInfo {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  bundled: string[];
  files: Array<{ path: string; size: number }>;
}

let tarball: string;
let info: PackInfo;
/** Where this file's source copy, tarball and projects live (removed after the file). */
let scratch: string;

/**
 * A fresh user project whose `npm i -D <tarball> …` was started as soon as the tarball was packed (the installs run side by side);
 * the types test's is a copy of the every-command test's, whose install is the same command.
 */
interface Install {
  project: string;
  args: string[];
  done: Promise<Run & { ms: number }>;
}
const installs: Partial<Record<"everyCommand" | "types" | "readme", Install>> = {};

/** The project `installs[key]` prepared, once its install has finished with exit 0 (the install timed on `clock`). */
async function installed(key: keyof typeof installs, clock: Clock, label: string): Promise<{ project: string; installed: Run }> {
  const { project, args, done } = installs[key]!;
  const r = expectOk(await done, "npm", args, project);
  clock.lap(`${label} (side by side with the other installs, before this test)`, r.ms);
  return { project, installed: r };
}

/** A copy of a user's project as it is (links kept as they are: npm's node_modules/.bin links are relative). */
function copyProject(from: string, to: string): void {
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}

/** A fresh project with the tarball installed, npm unable to reach any registry. */
async function installedProject(clock: Clock, key: "everyCommand" | "types"): Promise<string> {
  const { project, installed: r } = await installed(key, clock, "npm i -D <tarball> --offline, registry unreachable");
  expect(r.stdout + r.stderr).not.toMatch(/ERR!/);
  expect(r.stdout).toMatch(/added 1 package/);
  return project;
}

describe("install from a packed tarball", () => {
  afterAll(() => {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  });

  beforeAll(async () => {
    scratch = realpathSync(mkdtempSync(join(tmpdir(), "nr-packed-")));
    const source = join(scratch, "source");
    const packs = join(scratch, "packs");
    mkdirSync(source);
    mkdirSync(packs);
    copySource(source);
    const packArgs = ["pack", "--json", "--pack-destination", packs, ...NPM_FLAGS];
    const packing = runAsync("npm", packArgs, source);
    packing.catch(() => undefined); // awaited below; the user projects are made while it runs
    // One fresh user project (git init, npm init -y, one commit), copied for each install.
    const fresh = join(scratch, "user-project");
    mkdirSync(fresh);
    userProject(fresh);
    const projects = (["everyCommand", "readme"] as const).map((key) => {
      const project = join(scratch, `user-${key}`);
      copyProject(fresh, project);
      return [key, project] as const;
    });
    const packed = expectOk(await packing, "npm", packArgs, source);
    console.log(`npm pack (prepare: build with types): ${(packed.ms / 1000).toFixed(1)} s`);
    const [first] = JSON.parse(packed.stdout) as PackInfo[];
    if (first === undefined) throw new Error(`npm pack printed no package: ${packed.stdout}`);
    info = first;
    expect(info.filename).toBe(`noma-reconcile-${version}.tgz`);
    tarball = join(packs, info.filename);
    // The types test's project: the same install (offline, the registry unreachable) as the every-command test's, copied as that
    // install left it, before either test starts.
    const typesProject = join(scratch, "user-types");
    for (const [key, project] of projects) {
      // The README path installs from where npm pack wrote it with npm's usual flags; the others offline, the registry unreachable.
      const args = key === "readme" ? ["i", "-D", tarball, ...NPM_FLAGS] : ["i", "-D", tarball, ...OFFLINE_FLAGS];
      const done = runAsync("npm", args, project, key === "readme" ? {} : NO_REGISTRY).then((r) => {
        if (key === "everyCommand" && r.code === 0) copyProject(project, typesProject);
        return r;
      });
      done.catch(() => undefined); // awaited by the test that uses the project
      installs[key] = { project, args, done };
      if (key === "everyCommand") installs.types = { project: typesProject, args, done };
    }
  }, INSTALL_TIMEOUT_MS);

  it("ships only what runs: no dependencies, one WebAssembly build of each, within its size budget", () => {
    console.log(`package: ${info.size} bytes packed, ${info.unpackedSize} unpacked, ${info.entryCount} files`);
    expect(info.size).toBeLessThanOrEqual(BUDGET.packedBytes);
    expect(info.unpackedSize).toBeLessThanOrEqual(BUDGET.unpackedBytes);
    expect(info.entryCount).toBeLessThanOrEqual(BUDGET.files);
    const paths = info.files.map((f) => f.path);
    expect(info.bundled).toEqual([]);
    expect(paths.filter((p) => p.includes("node_modules/"))).toEqual([]);
    expect(paths.filter((p) => p.endsWith(".wasm")).sort()).toEqual(["dist/vendor/blake3_js_bg.wasm", "dist/vendor/sql-wasm.wasm", "dist/vendor/zstd.wasm"]);
    expect(paths.filter((p) => p.startsWith("dist/vendor/")).sort()).toEqual(VENDORED.map((f) => `dist/vendor/${f}`));
    expect(paths).toContain("dist/licenses.txt");
    expect(paths).not.toContain("dist/inputs.json");
    expect(paths).not.toContain("dist/build-stamp.json"); // written by the pack's prepare (scripts/build-stamp.mjs), not shipped
    const manifest = JSON.parse(ok("tar", ["-xzOf", tarball, "package/package.json"], ROOT).stdout) as Record<string, unknown>;
    expect(manifest).not.toHaveProperty("dependencies");
    expect(manifest).not.toHaveProperty("bundleDependencies");
    expect(manifest).not.toHaveProperty("bundledDependencies");
    // The licence of every bundled package ships with it.
    const licences = ok("tar", ["-xzOf", tarball, "package/dist/licenses.txt"], ROOT).stdout;
    for (const name of ["sql.js", "blake3-wasm", "@bokuweb/zstd-wasm", "zod", "yaml", "smol-toml", "modern-tar", "cac"])
      expect(licences).toMatch(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} \\d+\\.\\d+\\.\\d+ \\(`, "m"));
  });

  it(
    "installed offline with the registry unreachable, every command runs",
    async () => {
      const clock = new Clock();
      const project = await installedProject(clock, "everyCommand");
      const bin = join(project, "node_modules/.bin/noma-reconcile");
      /** The commands run, to be compared with every command `--help` lists. */
      const ran = new Set<string>(["serve", "mcp"]);
      const cli = (args: string[], code = 0) => {
        ran.add(args[0]!);
        const r = run(bin, args, project, NO_REGISTRY);
        expect(r.code, `noma-reconcile ${args.join(" ")}\n${r.stdout}${r.stderr}`).toBe(code);
        // Results on stdout, summaries and logs on stderr: `out` is both, for a line that may be in either.
        return { ...r, out: r.stdout + r.stderr };
      };
      const commit = (message: string) => {
        ok("git", ["add", "-A"], project);
        ok("git", ["commit", "--quiet", "--no-verify", "-m", message], project);
      };
      clock.time("documents: init, check, fmt, patch, transcript, ids, parse, render, schema, verify, agent-hook", () => {
        cli(["init"]);
        mkdirSync(join(project, "docs"));
        mkdirSync(join(project, "src"));
        writeFileSync(join(project, "docs/plan.noma"), CLAIM);
        writeFileSync(join(project, "src/api.js"), "export const answer = 42;\n");
        writeFileSync(join(project, ".notarai/api.spec.yaml"), SPEC);
        commit("A plan, an API and its spec");
        expect(cli(["check"]).out).toContain("No issues found.");
        expect(cli(["fmt", "--check"]).out).toContain("all formatted");
        const patched = cli(["patch", "docs/plan.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.9}']);
        expect(patched.out).toContain("transcript: 1 record appended to docs/plan.noma.patches");
        expect(readFileSync(join(project, "docs/plan.noma"), "utf8")).toContain('::claim{id="c1" confidence=0.9}');
        expect(cli(["transcript", "verify", "docs/plan.noma"]).out).toContain("chain intact, document matches");
        expect(cli(["ids", "docs/plan.noma"]).stdout).toBe("plan\nc1\ne1\n");
        expect(JSON.parse(cli(["parse", "docs/plan.noma"]).stdout)).toMatchObject({ type: "document" });
        expect(cli(["render", "docs/plan.noma"]).stdout).toBe(CLAIM.replace("confidence=0.5", "confidence=0.9"));
        expect(JSON.parse(cli(["schema", "transcript"]).stdout)).toMatchObject({ $schema: "https://json-schema.org/draft/2020-12/schema" });
        // A conformance corpus of one fixture (Annex C layout).
        const fixture = join(ROOT, "fixtures/conformance/valid/agent-memory-types");
        cpSync(fixture, join(project, "corpus/valid/agent-memory-types"), { recursive: true });
        expect(cli(["verify", "corpus"]).out).toContain("1 fixture, 1 passed");
        // The coding agent's gate, as an agent's hook runs it: a shell edit of the document is refused, with the op to send.
        ran.add("agent-hook");
        const toolCall = { hook_event_name: "PreToolUse", tool_name: "Bash", cwd: project, tool_input: { command: "sed -i 's/0.9/1/' docs/plan.noma" } };
        const gate = run(bin, ["agent-hook"], project, { ...NO_REGISTRY, CLAUDE_PROJECT_DIR: project }, JSON.stringify(toolCall));
        expect({ code: gate.code, stderr: gate.stderr }).toEqual({ code: 0, stderr: "" });
        expect(JSON.parse(gate.stdout).hookSpecificOutput).toMatchObject({
          permissionDecision: "deny",
          permissionDecisionReason: expect.stringContaining("docs/plan.noma (sed -i)"),
        });
        commit("Patched");
      });

      clock.time("reconciliation: specs, governs, coverage, mark-reconciled, state, cache, affected, diff, changed, ci", () => {
        expect(cli(["specs", "validate"]).out).toContain("2 spec files checked: 0 invalid files, 0 problems.");
        expect(cli(["governs", "src/api.js"]).out).toContain("src/api.js: .notarai/api.spec.yaml (code, via src/**)");
        expect(cli(["coverage"]).out).toMatch(/\d+ tracked files: \d+ governed/);
        expect(cli(["mark-reconciled", "--all"]).out).toContain("Wrote .notarai/reconciliation_state.json");
        expect(cli(["state", "show"]).out).toContain("written by: noma-reconcile");
        expect(cli(["cache", "status"]).out).toContain("status: ok");
        commit("Baseline");
        ok("git", ["checkout", "--quiet", "-b", "feature"], project);
        writeFileSync(join(project, "src/api.js"), "export const answer = 43;\n");
        commit("A change nobody reconciled");
        expect(cli(["affected", "--base", "main"]).out).toContain("1 changed file since the merge-base with main; 2 affected specs.");
        expect(cli(["diff", "--spec", ".notarai/api.spec.yaml", "--base", "main"]).out).toContain("1 file to reconcile: src/api.js");
        expect(cli(["changed", "--spec", ".notarai/api.spec.yaml"]).stdout).toBe("src/api.js\n");
        expect(cli(["ci", "--base", "main"]).out).toContain("Drift: 2 unreconciled governed files across 2 affected specs");
        expect(cli(["state", "snapshot"]).out).toContain("Wrote .notarai/reconciliation_state.json");
      });

      clock.time("runs: run, runs list, runs show; cache clear; demo", () => {
        // No agents configured: the built-in check runs, finds the drift, and the run fails (exit 1).
        expect(cli(["run", "--spec", ".notarai/api.spec.yaml"], 1).out).toContain("FAIL: AC1: 1 open drift file (src/api.js)");
        expect(cli(["runs", "list"]).out).toMatch(/failed +FAIL/);
        // reconcile without a token or agents: the run fails, nothing is published (exit 1).
        expect(cli(["reconcile", "--spec", ".notarai/api.spec.yaml"], 1).out).toContain("nothing published");
        expect(cli(["runs", "show"]).out).toContain("AC1: no unreconciled drift for .notarai/api.spec.yaml");
        expect(cli(["cache", "clear"]).stdout).toBe("Cleared the reconciliation cache: every governed change counts as unreconciled again.\n");
        expect(cli(["demo"]).out).toContain('src/billing/refund.ts  via "src/billing/**" (code; modified; hash-differs)');
      });

      await clock.timeAsync("workspace: serve (an edit over HTTP), ledger, archive; mcp", async () => {
        const server = spawn(bin, ["serve", "--http", "--port", "0", "--format", "json"], { cwd: project, env: userEnv(NO_REGISTRY) });
        const exited = new Promise<number | null>((resolve) => server.on("close", resolve));
        const first = await new Promise<string>((resolve, reject) => {
          let out = "";
          server.stdout.setEncoding("utf8");
          server.stdout.on("data", (d: string) => {
            out += d;
            if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
          });
          server.on("close", (code) => reject(new Error(`serve exited ${code} before listening`)));
        });
        const { url, token } = (JSON.parse(first) as { result: { url: string; token: string } }).result;
        const edit = await fetch(`${url}/edit_file`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({ path: "src/api.js", contents: "export const answer = 44;\n" }),
        });
        expect(edit.status).toBe(200);
        expect(await edit.json()).toMatchObject({ success: true, archived: { version: 1 } });
        server.kill("SIGTERM");
        expect(await exited).toBe(0);
        expect(cli(["ledger", "verify"]).out).toContain("2 lines, seq and hash chain intact"); // the edit's intent and outcome
        expect(cli(["archive", "list"]).out).toContain("src/api.js.~1~");
        expect(cli(["archive", "restore", "src/api.js"]).out).toContain("restored src/api.js");
        expect(readFileSync(join(project, "src/api.js"), "utf8")).toBe("export const answer = 43;\n");
        // The MCP server over stdio: initialize, then a tool that loads sql.js and BLAKE3.
        const rpc = (id: number, method: string, params: object) => JSON.stringify({ jsonrpc: "2.0", id, method, params });
        const mcp = run(
          bin,
          ["mcp"],
          project,
          NO_REGISTRY,
          `${rpc(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } })}\n${rpc(2, "tools/call", { name: "get_changed_artifacts", arguments: { spec_path: ".notarai/api.spec.yaml" } })}\n`,
        );
        expect(mcp.code, mcp.stderr).toBe(0);
        const answers = mcp.stdout
          .trim()
          .split("\n")
          .map((l) => JSON.parse(l) as { id: number; result: { structuredContent?: unknown } });
        // The same answer as the CLI's (the cache was cleared: every artifact of the spec).
        const viaCli = cli(["changed", "--spec", ".notarai/api.spec.yaml"]).stdout.trim().split("\n");
        expect(viaCli).toEqual(["docs/plan.noma", "src/api.js"]);
        expect(answers.find((a) => a.id === 2)?.result.structuredContent).toEqual({ changed_artifacts: viaCli });

        // The language server over stdio (Content-Length framing): initialize, a document opened and
        // its diagnostics published, then shutdown and exit (exit code 0 after shutdown, as LSP says).
        ran.add("lsp");
        const frame = (m: object): string => {
          const body = JSON.stringify(m);
          return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
        };
        const lsp = spawn(bin, ["lsp", "--stdio"], { cwd: project, env: userEnv(NO_REGISTRY) });
        const lspExited = new Promise<number | null>((resolve) => lsp.on("close", resolve));
        let lspOut = "";
        lsp.stdout.setEncoding("utf8");
        const published = new Promise<void>((resolve) =>
          lsp.stdout.on("data", (d: string) => {
            lspOut += d;
            if (lspOut.includes('"method":"textDocument/publishDiagnostics"')) resolve();
          }),
        );
        const uri = pathToFileURL(join(project, "docs/plan.noma")).href;
        lsp.stdin.write(
          frame({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: pathToFileURL(project).href, capabilities: {} } }),
        );
        lsp.stdin.write(frame({ jsonrpc: "2.0", method: "initialized", params: {} }));
        const text = readFileSync(join(project, "docs/plan.noma"), "utf8");
        lsp.stdin.write(frame({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { textDocument: { uri, languageId: "noma", version: 1, text } } }));
        await published;
        lsp.stdin.write(frame({ jsonrpc: "2.0", id: 2, method: "shutdown" }));
        lsp.stdin.write(frame({ jsonrpc: "2.0", method: "exit" }));
        expect(await lspExited).toBe(0);
        expect(lspOut).toContain('"id":1,"result":{"capabilities":');
        expect(lspOut).toContain(`"uri":${JSON.stringify(uri)}`);
      });
      // Every command the CLI has was run.
      const listed = [...cli(["--help"]).stdout.matchAll(/^ {2}([a-z][a-z-]*) /gm)].map((m) => m[1]!);
      expect(listed.length).toBeGreaterThan(20);
      expect([...ran].filter((c) => c !== "--help").sort()).toEqual([...listed].sort());
      console.log(clock.summary("every command of the installed package"));
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "installed offline, the library's types check in a consumer with skipLibCheck off (no dependency but the consumer's own @types/node)",
    async () => {
      const clock = new Clock();
      const project = await installedProject(clock, "types");
      // The consumer's own @types/node (and what it needs), as any project for Node has.
      for (const pkg of ["@types/node", "undici-types"]) cpSync(join(ROOT, "node_modules", pkg), join(project, "node_modules", pkg), { recursive: true });
      expect(existsSync(join(project, "node_modules/zod"))).toBe(false);
      writeFileSync(
        join(project, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: "NodeNext",
            moduleResolution: "NodeNext",
            target: "ES2022",
            noEmit: true,
            skipLibCheck: false,
            types: ["node"],
          },
          include: ["consumer.ts"],
        }),
      );
      writeFileSync(
        join(project, "consumer.ts"),
        [
          'import { PatchOpSchema, TOOL_NAME, checkFiles } from "noma-reconcile";',
          'const parsed = PatchOpSchema.safeParse({ op: "update_attribute", id: "c1", key: "k", value: 1 });',
          "const ok: boolean = parsed.success;",
          "// @ts-expect-error: a schema's answer is typed (an `any` here would make this line an error of its own)",
          "const wrong: number = parsed.success;",
          "console.log(ok, wrong, typeof checkFiles, TOOL_NAME);",
          "",
        ].join("\n"),
      );
      // TypeScript 5.9 (the package `typescript`): the JavaScript compiler most projects still build with; then TypeScript 7,
      // the native compiler `npm i -D typescript` gives a new project (the package `typescript-7`; docs/design/build.md).
      const tsc = clock.time("tsc 5.9 --noEmit (skipLibCheck off)", () =>
        run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "."], project),
      );
      expect(tsc, tsc.stdout + tsc.stderr).toMatchObject({ code: 0, stdout: "" });
      const tsc7 = clock.time("tsc 7 --noEmit (skipLibCheck off)", () =>
        run(process.execPath, [join(ROOT, "node_modules/typescript-7/bin/tsc"), "-p", "."], project),
      );
      expect(tsc7, tsc7.stdout + tsc7.stderr).toMatchObject({ code: 0, stdout: "" });
      console.log(clock.summary("the installed package's types"));
    },
    INSTALL_TIMEOUT_MS,
  );

  it(
    "npm i -D <pack dir>/noma-reconcile-<v>.tgz in a fresh project → init --hooks, commits through the hook (no package committed), ci, the MCP server",
    async () => {
      const clock = new Clock();
      // As the README says: the tarball installed from where npm pack wrote it, not copied into the project.
      const { project, installed: npmInstall } = await installed("readme", clock, "npm i -D <pack dir>/<tarball>");
      expect(npmInstall.stdout + npmInstall.stderr).not.toMatch(/ERR!/);
      expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).devDependencies["noma-reconcile"]).toBe(`file:${relative(project, tarball)}`);

      await adoptAndUse(project, clock);
      // The README's `git add -A` steps committed no package: nothing but the user's files and init's.
      const committed = ok("git", ["ls-files"], project)
        .stdout.split("\n")
        .filter((l) => l !== "");
      expect(committed.filter((f) => f.endsWith(".tgz") || f.startsWith("node_modules/"))).toEqual([]);
      expect(committed).toEqual(expect.arrayContaining(["package.json", ".notarai/system.spec.yaml", ".mcp.json"]));
      console.log(clock.summary("install from a packed tarball"));
    },
    INSTALL_TIMEOUT_MS,
  );
});
