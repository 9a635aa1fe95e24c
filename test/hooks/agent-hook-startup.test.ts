/**
 * What the coding agent's gate loads (it runs on every tool call of an agent): for a tool
 * call on any other file, the bin and the gate's own file (dist/agent-hook.cjs) and nothing
 * else — no ES module, no chunk, no parser, no YAML library, no zod, no package from
 * node_modules; the document step (dist/commands/agent-hook-command.js) loads for a call that
 * writes a document. Loads are observed, not guessed: a preloaded script lists every CommonJS
 * module at exit, a module loader hook every ES module; which of our sources each output
 * holds, the build says (dist/inputs.json). Its speed is measured in bench/agent-hook.bench.mjs.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const DIST = join(CLI, "..");
const INPUTS = JSON.parse(readFileSync(join(DIST, "inputs.json"), "utf8")) as Record<string, string[]>;

/** Run the gate with `input` on stdin; every module it loaded (CommonJS and ES), as paths relative to dist/ where they are ours. */
function traced(cwd: string, input: string): { code: number | null; stdout: string; loaded: string[] } {
  const dir = tempDir("nr-trace-");
  const out = join(dir, "loaded.txt");
  writeFileSync(out, "");
  const cjs = join(dir, "cjs-trace.cjs");
  writeFileSync(cjs, `process.on("exit", () => require("node:fs").appendFileSync(${JSON.stringify(out)}, Object.keys(require.cache).join("\\n") + "\\n"));\n`);
  const loader = `import { appendFileSync } from "node:fs";\nexport async function load(url, context, next) { appendFileSync(${JSON.stringify(out)}, url + "\\n"); return next(url, context); }`;
  const esm = join(dir, "esm-trace.mjs");
  writeFileSync(esm, `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loader)}`)});\n`);
  const r = spawnSync(process.execPath, ["--require", cjs, "--import", pathToFileURL(esm).href, CLI, "agent-hook"], {
    cwd,
    input,
    encoding: "utf8",
    env: { ...process.env, CLAUDE_PROJECT_DIR: cwd },
  });
  const loaded = readFileSync(out, "utf8")
    .split("\n")
    .filter((l) => l.length > 0)
    .map((l) => (l.startsWith("file:") ? new URL(l).pathname : l))
    .filter((p) => p.startsWith("/") && p !== cjs && p !== esm)
    .map((p) => (p.startsWith(`${DIST}/`) ? p.slice(DIST.length + 1) : p));
  return { code: r.status, stdout: r.stdout, loaded: [...new Set(loaded)].sort() };
}

const call = (root: string, tool: string, toolInput: object): string =>
  JSON.stringify({ hook_event_name: "PreToolUse", tool_name: tool, cwd: root, tool_input: toolInput });

describe("start-up cost of the coding agent's gate", () => {
  it("a Write of a code file loads the bin and the gate's own file, nothing else", () => {
    const root = tempRepo({ "src/app.ts": "x\n", "docs/plan.noma": "# Plan\n" });
    const r = traced(root, call(root, "Write", { file_path: join(root, "src/app.ts"), content: "y\n" }));
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.loaded).toEqual(["agent-hook.cjs", "cli.cjs"]);
    const bash = traced(root, call(root, "Bash", { command: "npm test > test.log 2>&1 && cat docs/plan.noma" }));
    expect(bash.loaded).toEqual(["agent-hook.cjs", "cli.cjs"]);
  });

  it("the gate's file holds no parser, validator, patch engine, YAML or specs; a document's write loads the document step", () => {
    const held = INPUTS["agent-hook.cjs"] ?? [];
    expect(held).toContain("src/hooks/agent-gate.ts");
    expect(
      held.filter((p) =>
        /^src\/(noma|yaml|validate|patch|editing|transcript|reconcile|cache|check)\/|^src\/spec\/(load-specs|validate-spec|spec-schema)|^src\/config\/(load-config|config-schema)\.ts/.test(
          p,
        ),
      ),
    ).toEqual([]);
    expect(readFileSync(join(DIST, "agent-hook.cjs"), "utf8")).not.toMatch(/require\("(yaml|zod[^"]*|sql\.js|blake3-wasm)"\)/);
    const root = tempRepo({ "docs/plan.noma": '# Plan\n\n::claim{id="c1"}\nx\n::\n' });
    const r = traced(root, call(root, "Edit", { file_path: join(root, "docs/plan.noma"), old_string: "x", new_string: "y" }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(r.loaded).toContain("commands/agent-hook-command.js");
  });
});
