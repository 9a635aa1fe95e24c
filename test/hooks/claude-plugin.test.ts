/**
 * This repository as a Claude Code plugin (`.claude-plugin/plugin.json`, a marketplace entry,
 * `hooks/hooks.json`, `skills/noma-reconcile/SKILL.md`): every file parses, every path it names
 * exists, and every command it registers runs — the MCP server starts and lists the tools the
 * skill names, the hook refuses a document's Edit naming the plugin's own tool names — from a
 * project where the package is installed as `npm i -D` leaves it, with `${CLAUDE_PLUGIN_ROOT}`
 * expanded as Claude Code expands it. The plugin's launcher is the text init's code writes.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { AGENT_HOOKS, launcherScript, PLUGIN_LAUNCHER_PATH } from "../../src/internal.js";
import { installLocally, PACKAGE_ROOT } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";
import { McpClient } from "../mcp/helpers/mcp-client.js";

const json = (path: string): any => JSON.parse(readFileSync(join(PACKAGE_ROOT, path), "utf8"));
const PLUGIN_ROOT = PACKAGE_ROOT.replace(/\/$/, "");
const expand = (s: string): string => s.replaceAll("${CLAUDE_PLUGIN_ROOT}", PLUGIN_ROOT);

describe("the Claude Code plugin in this repository", () => {
  it("plugin.json, marketplace.json, hooks.json and the skill parse; names and versions agree; the launcher is init's text", () => {
    const plugin = json(".claude-plugin/plugin.json");
    const pkg = json("package.json");
    expect(plugin).toMatchObject({ name: "noma-reconcile", version: pkg.version, license: pkg.license });
    const market = json(".claude-plugin/marketplace.json");
    expect(market).toMatchObject({ name: expect.any(String), owner: { name: expect.any(String) } });
    expect(market.plugins).toEqual([expect.objectContaining({ name: plugin.name, source: "./", version: pkg.version })]);
    // The marketplace's source is a plugin: its manifest is there.
    expect(existsSync(join(PACKAGE_ROOT, market.plugins[0].source, ".claude-plugin/plugin.json"))).toBe(true);
    expect(readFileSync(join(PACKAGE_ROOT, PLUGIN_LAUNCHER_PATH), "utf8")).toBe(launcherScript("plugin"));
    // The hooks: Claude Code's events and matchers as init registers them, the command through the plugin's launcher.
    const hooks = json("hooks/hooks.json").hooks as Record<string, Array<{ matcher: string; hooks: Array<{ type: string; command: string }> }>>;
    const command = `node "\${CLAUDE_PLUGIN_ROOT}/${PLUGIN_LAUNCHER_PATH}" agent-hook`;
    expect(hooks).toEqual(
      Object.fromEntries(AGENT_HOOKS.claude.plan.hooks.map((h) => [h.event, [{ matcher: h.matcher, hooks: [{ type: "command", command }] }]])),
    );
    const skill = readFileSync(join(PACKAGE_ROOT, "skills/noma-reconcile/SKILL.md"), "utf8");
    const front = /^---\n([\s\S]*?)\n---\n/.exec(skill);
    expect(front).not.toBeNull();
    const meta = parseYaml(front![1]!) as Record<string, unknown>;
    expect(meta).toEqual({ name: "noma-reconcile", description: expect.stringMatching(/patch ops .* base_sha256/) });
    expect((meta["description"] as string).length).toBeLessThanOrEqual(1024);
  });

  it("its MCP server starts from a project and lists every tool the skill names; its hook refuses a document's Edit with the plugin's tool names", async () => {
    const project = tempRepo({ "docs/plan.noma": '# Plan\n\n::claim{id="c1" confidence=0.5}\nIt works.\n::\n' });
    installLocally(project);
    const server = json(".claude-plugin/plugin.json").mcpServers["noma-reconcile"] as { command: string; args: string[] };
    for (const a of server.args.filter((x) => x.includes("${CLAUDE_PLUGIN_ROOT}"))) expect(existsSync(expand(a)), a).toBe(true);
    const c = new McpClient(project, [server.command, ...server.args.map(expand)], { CLAUDE_PROJECT_DIR: project });
    await c.initialize();
    const tools = ((await c.request("tools/list")).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect((await c.close()).code).toBe(0);
    const skill = readFileSync(join(PACKAGE_ROOT, "skills/noma-reconcile/SKILL.md"), "utf8");
    // Every call the skill shows (`tool {…}`) is a tool of the server, and so is every tool it teaches.
    const shown = [...new Set([...skill.matchAll(/`([a-z]+(?:_[a-z]+)+) \{/g)].map((m) => m[1]!))];
    expect(shown).toEqual(expect.arrayContaining(["read_doc", "validate_doc", "list_affected_specs", "get_spec_diff", "mark_reconciled"]));
    const taught = [
      "read_doc",
      "list_ids",
      "patch_block",
      "validate_doc",
      "list_affected_specs",
      "get_spec_diff",
      "get_changed_artifacts",
      "mark_reconciled",
      "snapshot_state",
    ];
    for (const t of [...shown, ...taught]) {
      expect(tools, t).toContain(t);
      expect(skill, t).toContain(`\`${t}`);
    }

    const command = expand(json("hooks/hooks.json").hooks.PreToolUse[0].hooks[0].command as string);
    const input = JSON.stringify({
      hook_event_name: "PreToolUse",
      tool_name: "Edit",
      cwd: project,
      tool_input: { file_path: join(project, "docs/plan.noma"), old_string: "0.5", new_string: "0.8" },
    });
    const r = spawnSync("sh", ["-c", command], { cwd: project, input, encoding: "utf8", env: { ...process.env, CLAUDE_PROJECT_DIR: project } });
    expect(r.status, r.stderr).toBe(0);
    const reason = JSON.parse(r.stdout).hookSpecificOutput.permissionDecisionReason as string;
    expect(reason).toContain("mcp__plugin_noma-reconcile_noma-reconcile__patch_block");
    expect(reason).not.toContain("mcp__noma-reconcile__");
    // agent-hook is a command of the CLI the plugin runs.
    expect(runCli(["agent-hook", "--help"], { cwd: project }).code).toBe(0);
  });
});
