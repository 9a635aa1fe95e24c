/**
 * `init --agent NAME`: the coding agent's gate registered in the agent's own settings, over
 * real files with other hooks — every key, permission and hook kept (the file's own bytes
 * too: the gate is inserted, nothing is rewritten), idempotent, a user's own registration of
 * the gate respected, and a file it cannot edit safely (comments, a symbolic link, TOML it
 * cannot extend) left untouched with the entry printed and exit 2.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const GATE = 'node "$CLAUDE_PROJECT_DIR/.notarai/noma-reconcile.cjs" agent-hook';

const USER_SETTINGS = `{
  "permissions": {
    "allow": ["Bash(npm test)", "Read(./docs/**)"],
    "deny": ["Read(./.env)"]
  },
  "env": { "NODE_ENV": "development" },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{ "type": "command", "command": "echo pre >> \\"$CLAUDE_PROJECT_DIR/hook.log\\"", "timeout": 5 }]
      }
    ],
    "Stop": [{ "hooks": [{ "type": "command", "command": "echo stop" }] }]
  },
  "statusLine": { "type": "command", "command": "echo ok" }
}
`;

/** Lines of `before`, each found in `after`, in order (the gate is inserted between them; the entry it follows gains a comma). */
function keepsEveryLine(before: string, after: string): void {
  const lines = after.split("\n");
  let at = 0;
  for (const l of before.split("\n")) {
    const found = lines.findIndex((x, i) => i >= at && (x === l || x === `${l},`));
    expect(found, `line ${JSON.stringify(l)} kept in order`).toBeGreaterThanOrEqual(at);
    at = found + 1;
  }
}

describe("init --agent claude", () => {
  it("merges the gate into a settings.json with other keys, permissions and hooks; a second run changes nothing; the user's hook still runs", () => {
    const repo = tempRepo({ ".claude/settings.json": USER_SETTINGS, "src/a.ts": "a\n" });
    const r = runCli(["init", "--agent", "claude"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^updated +\.claude\/settings\.json +\(\+ the noma-reconcile gate \(PreToolUse, PostToolUse\) for Claude Code; everything else kept\)$/m,
    );
    const after = readFileSync(join(repo, ".claude/settings.json"), "utf8");
    keepsEveryLine(USER_SETTINGS, after);
    const original = JSON.parse(USER_SETTINGS);
    expect(JSON.parse(after)).toEqual({
      ...original,
      hooks: {
        PreToolUse: [...original.hooks.PreToolUse, { matcher: "Write|Edit|MultiEdit|Bash", hooks: [{ type: "command", command: GATE }] }],
        Stop: original.hooks.Stop,
        PostToolUse: [{ matcher: "Write|Edit|MultiEdit", hooks: [{ type: "command", command: GATE }] }],
      },
    });
    const again = runCli(["init", "--agent", "claude"], { cwd: repo });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^unchanged +\.claude\/settings\.json +\(Claude Code runs the noma-reconcile gate\)$/m);
    expect(readFileSync(join(repo, ".claude/settings.json"), "utf8")).toBe(after);
    // Claude Code runs every matching group: the user's hook is still one of them.
    const userHook = JSON.parse(after).hooks.PreToolUse[0].hooks[0].command as string;
    spawnSync("sh", ["-c", userHook], { cwd: repo, env: { ...process.env, CLAUDE_PROJECT_DIR: repo } });
    expect(readFileSync(join(repo, "hook.log"), "utf8")).toBe("pre\n");
  });

  it("creates .claude/settings.json where there is none; a dry run writes nothing; --format json lists the agent's file", () => {
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const dry = runCli(["init", "--agent", "claude", "--dry-run", "--format", "json"], { cwd: repo });
    expect(dry.code, dry.stderr).toBe(0);
    expect(JSON.parse(dry.stdout).result.agents).toEqual([
      { agent: "claude", path: ".claude/settings.json", action: "create", detail: "Claude Code: the noma-reconcile gate (PreToolUse, PostToolUse)" },
    ]);
    expect(existsSync(join(repo, ".claude"))).toBe(false);
    expect(runCli(["init", "--agent", "claude"], { cwd: repo }).code).toBe(0);
    expect(JSON.parse(readFileSync(join(repo, ".claude/settings.json"), "utf8"))).toEqual({
      hooks: {
        PreToolUse: [{ matcher: "Write|Edit|MultiEdit|Bash", hooks: [{ type: "command", command: GATE }] }],
        PostToolUse: [{ matcher: "Write|Edit|MultiEdit", hooks: [{ type: "command", command: GATE }] }],
      },
    });
  });

  it("a gate the user registered in another form counts: only the missing event is added", () => {
    const own = { hooks: { PreToolUse: [{ matcher: "Write|Edit", hooks: [{ type: "command", command: "npx --no noma-reconcile agent-hook" }] }] } };
    const repo = tempRepo({ ".claude/settings.json": `${JSON.stringify(own, null, 2)}\n` });
    const r = runCli(["init", "--agent", "claude"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^updated +\.claude\/settings\.json +\(\+ the noma-reconcile gate \(PostToolUse\) for Claude Code; everything else kept\)$/m);
    expect(JSON.parse(readFileSync(join(repo, ".claude/settings.json"), "utf8")).hooks.PreToolUse).toEqual(own.hooks.PreToolUse);
  });

  it("a file it cannot edit safely (comments, a key twice, a symbolic link) is left untouched: exit 2, the entry printed", () => {
    for (const [text, why] of [
      ['// ours\n{ "hooks": {} }\n', /not strict JSON/],
      ['{ "env": {}, "env": { "A": "1" } }\n', /the key "env" appears twice in one object/],
      ['{ "hooks": { "PreToolUse": {} } }\n', /"hooks\.PreToolUse" is not a list/],
    ] as const) {
      const repo = tempRepo({ ".claude/settings.json": text });
      const r = runCli(["init", "--agent", "claude"], { cwd: repo });
      expect(r.code, text).toBe(2);
      expect(r.stdout).toMatch(why);
      expect(r.stdout).toMatch(/^refused +\.claude\/settings\.json +\(\.claude\/settings\.json left untouched: .*; add the entry below yourself\):$/m);
      expect(r.stdout).toContain(`"command": ${JSON.stringify(GATE)}`);
      expect(r.stderr).toMatch(/1 agent settings file left untouched \(Claude Code\): add the entry printed above yourself/);
      expect(readFileSync(join(repo, ".claude/settings.json"), "utf8")).toBe(text);
      // Everything else was set up.
      expect(existsSync(join(repo, ".mcp.json"))).toBe(true);
    }
    const repo = tempRepo({ "src/a.ts": "a\n" });
    const elsewhere = join(tempDir(), "settings.json");
    writeFileSync(elsewhere, "{}\n");
    mkdirSync(join(repo, ".claude"));
    symlinkSync(elsewhere, join(repo, ".claude/settings.json"));
    const r = runCli(["init", "--agent", "claude", "--format", "json"], { cwd: repo });
    expect(r.code).toBe(2);
    const [agent] = JSON.parse(r.stdout).result.agents;
    expect(agent).toMatchObject({ agent: "claude", action: "unsafe", snippet: expect.stringContaining(GATE.replaceAll('"', '\\"')) });
    expect(readFileSync(elsewhere, "utf8")).toBe("{}\n");
  });

  it("an unknown agent is a usage error naming the ones there are", () => {
    const r = runCli(["init", "--agent", "cursor"], { cwd: tempRepo({ "a.txt": "a\n" }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--agent must be one of claude, gemini, codex, opencode; got "cursor"/);
  });
});

describe("init --agent gemini, --agent codex", () => {
  it("Gemini CLI: BeforeTool and AfterTool hooks and its mcpServers entry in .gemini/settings.json, other settings kept", () => {
    const repo = tempRepo({ ".gemini/settings.json": '{\n  "theme": "GitHub",\n  "mcpServers": {\n    "github": { "command": "gh-mcp" }\n  }\n}\n' });
    const r = runCli(["init", "--agent", "gemini"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const gate = 'node "$GEMINI_PROJECT_DIR/.notarai/noma-reconcile.cjs" agent-hook';
    expect(JSON.parse(readFileSync(join(repo, ".gemini/settings.json"), "utf8"))).toEqual({
      theme: "GitHub",
      mcpServers: { github: { command: "gh-mcp" }, "noma-reconcile": { command: "node", args: [".notarai/noma-reconcile.cjs", "mcp"] } },
      hooks: {
        BeforeTool: [{ matcher: "write_file|replace|run_shell_command", hooks: [{ type: "command", command: gate, name: "noma-reconcile-gate" }] }],
        AfterTool: [{ matcher: "write_file|replace", hooks: [{ type: "command", command: gate, name: "noma-reconcile-reconcile" }] }],
      },
    });
    expect(runCli(["init", "--agent", "gemini"], { cwd: repo }).stdout).toMatch(/^unchanged +\.gemini\/settings\.json/m);
  });

  it("Codex: .codex/hooks.json, and [mcp_servers.noma-reconcile] appended to config.toml (its other tables kept); an inline mcp_servers is left alone", () => {
    const toml = '# my Codex settings\nmodel = "o4"\n\n[mcp_servers.github]\ncommand = "gh-mcp"\n';
    const repo = tempRepo({ ".codex/config.toml": toml });
    const r = runCli(["init", "--agent", "codex"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, ".codex/config.toml"), "utf8")).toBe(
      `${toml}\n[mcp_servers.noma-reconcile]\ncommand = "node"\nargs = [".notarai/noma-reconcile.cjs", "mcp"]\n`,
    );
    const gate = 'node "$(git rev-parse --show-toplevel)/.notarai/noma-reconcile.cjs" agent-hook';
    expect(JSON.parse(readFileSync(join(repo, ".codex/hooks.json"), "utf8"))).toEqual({
      hooks: {
        PreToolUse: [{ matcher: "Bash|apply_patch", hooks: [{ type: "command", command: gate }] }],
        PostToolUse: [{ matcher: "apply_patch", hooks: [{ type: "command", command: gate }] }],
      },
    });
    const again = runCli(["init", "--agent", "codex"], { cwd: repo });
    expect(again.stdout).toMatch(/^unchanged +\.codex\/config\.toml/m);
    expect(again.stdout).toMatch(/^unchanged +\.codex\/hooks\.json/m);

    const inline = 'mcp_servers = { github = { command = "gh-mcp" } }\n';
    const other = tempRepo({ ".codex/config.toml": inline });
    const refused = runCli(["init", "--agent", "codex"], { cwd: other });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(/^refused +\.codex\/config\.toml +\(\.codex\/config\.toml left untouched: .*inline.*; add the table below yourself\):$/m);
    expect(refused.stdout).toContain("    [mcp_servers.noma-reconcile]");
    expect(readFileSync(join(other, ".codex/config.toml"), "utf8")).toBe(inline);
    expect(existsSync(join(other, ".codex/hooks.json"))).toBe(true);
  });
});
