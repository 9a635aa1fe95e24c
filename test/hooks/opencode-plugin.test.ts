/**
 * OpenCode has no command hooks; `init --agent opencode` writes a plugin (`.opencode/plugins/
 * noma-reconcile.js`) and registers the MCP server in `opencode.json`. The plugin is loaded and
 * called here as OpenCode calls a plugin — its exported function given `{directory, worktree}`,
 * then `tool.execute.before(input, output)` with OpenCode's tool names and arguments (a throw
 * refuses the call) and `tool.execute.after` — in a project where the package is installed as
 * `npm i -D` leaves it. (OpenCode runs plugins under Bun; here Node runs the same module.)
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { installLocally } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const SPEC =
  'schema_version: "0.7"\nintent: "x"\nbehaviors:\n  - name: works\n    given: a call\n    then: it answers\nartifacts:\n  code:\n    - path: "src/**"\n';

interface Outcome {
  refused?: string;
  output?: string;
}

/** Load the plugin as OpenCode does and run one tool call through it (before, then after unless refused). */
function throughPlugin(project: string, tool: string, args: Record<string, unknown>): Outcome {
  const script = `
    const { NomaReconcileGate } = await import(${JSON.stringify(pathToFileURL(join(project, ".opencode/plugins/noma-reconcile.js")).href)});
    const hooks = await NomaReconcileGate({ directory: ${JSON.stringify(project)}, worktree: ${JSON.stringify(project)} });
    const input = { tool: ${JSON.stringify(tool)}, sessionID: "s1", callID: "c1" };
    try {
      await hooks["tool.execute.before"](input, { args: ${JSON.stringify(args)} });
    } catch (e) {
      console.log(JSON.stringify({ refused: e.message }));
      process.exit(0);
    }
    const output = { title: "", output: "done", metadata: {} };
    await hooks["tool.execute.after"](input, output);
    console.log(JSON.stringify({ output: output.output }));
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: project, encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Outcome;
}

describe("init --agent opencode", () => {
  it("writes the plugin and opencode.json's mcp entry; the plugin refuses a document's edit and names the spec after a governed write", () => {
    const project = tempRepo({
      "docs/plan.noma": '# Plan\n\n::claim{id="c1" confidence=0.5}\nIt works.\n::\n',
      "src/app.ts": "x\n",
      ".notarai/app.spec.yaml": SPEC,
      "opencode.json": '{\n  "$schema": "https://opencode.ai/config.json",\n  "model": "anthropic/claude-sonnet-4"\n}\n',
    });
    installLocally(project);
    const init = runCli(["init", "--agent", "opencode"], { cwd: project });
    expect(init.code, init.stdout + init.stderr).toBe(0);
    expect(init.stdout).toMatch(/^created +\.opencode\/plugins\/noma-reconcile\.js +\(OpenCode: the noma-reconcile gate before writes \(a plugin\)\)$/m);
    expect(JSON.parse(readFileSync(join(project, "opencode.json"), "utf8"))).toEqual({
      $schema: "https://opencode.ai/config.json",
      model: "anthropic/claude-sonnet-4",
      mcp: { "noma-reconcile": { type: "local", command: ["node", ".notarai/noma-reconcile.cjs", "mcp"] } },
    });
    expect(runCli(["init", "--agent", "opencode"], { cwd: project }).stdout).toMatch(/^unchanged +\.opencode\/plugins\/noma-reconcile\.js/m);

    const edit = throughPlugin(project, "edit", { filePath: join(project, "docs/plan.noma"), oldString: "0.5", newString: "0.8" });
    expect(edit.refused).toContain("docs/plan.noma is a Noma document");
    expect(edit.refused).toContain("noma-reconcile_patch_block");
    expect(edit.refused).toContain('"actor":{"kind":"agent","name":"opencode"}');
    const bash = throughPlugin(project, "bash", { command: "sed -i s/0.5/0.8/ docs/plan.noma" });
    expect(bash.refused).toContain("docs/plan.noma (sed -i)");
    writeFileSync(join(project, "src/app.ts"), "y\n");
    const write = throughPlugin(project, "write", { filePath: join(project, "src/app.ts"), content: "y\n" });
    expect(write.refused).toBeUndefined();
    expect(write.output).toMatch(/^done\n\nnoma-reconcile: src\/app\.ts is governed by \.notarai\/app\.spec\.yaml \(artifacts code: "src\/\*\*"\)/);
    expect(write.output).toContain("noma-reconcile_mark_reconciled");
    expect(throughPlugin(project, "read", { filePath: join(project, "docs/plan.noma") })).toEqual({ output: "done" });
  });

  it("a foreign plugin at its path is left alone: exit 2, the plugin printed", () => {
    const project = tempRepo({ ".opencode/plugins/noma-reconcile.js": "export const Mine = async () => ({});\n" });
    const r = runCli(["init", "--agent", "opencode"], { cwd: project });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^refused +\.opencode\/plugins\/noma-reconcile\.js +\(.*another plugin is there/m);
    expect(readFileSync(join(project, ".opencode/plugins/noma-reconcile.js"), "utf8")).toBe("export const Mine = async () => ({});\n");
  });
});
