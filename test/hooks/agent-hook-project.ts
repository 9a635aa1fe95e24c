/**
 * A project as a Claude Code user has it after `npm i -D noma-reconcile` and
 * `noma-reconcile init --agent claude`, and the gate driven exactly as Claude Code drives a
 * command hook: the command from `.claude/settings.json` run by a shell, the tool call as JSON
 * on stdin (absolute `file_path`, `cwd` the project), `CLAUDE_PROJECT_DIR` set, the working
 * directory the project. (Gemini CLI and Codex run theirs the same way.)
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { installLocally } from "../helpers/local-install.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempRepo, type Tree } from "../helpers/temp-repo.js";

export interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout parsed, or null when it is empty. */
  json: Record<string, any> | null;
}

export interface AgentProject {
  root: string;
  /** The hook command the agent's settings register for `event`. */
  command(event: string): string;
  /** Run the registered command for `event` with `toolInput` for `toolName`, as the agent does. */
  hook(event: string, toolName: string, toolInput: Record<string, unknown>, options?: { env?: Record<string, string>; raw?: string }): HookRun;
}

const SETTINGS: Record<string, { file: string; projectVar: string }> = {
  claude: { file: ".claude/settings.json", projectVar: "CLAUDE_PROJECT_DIR" },
  gemini: { file: ".gemini/settings.json", projectVar: "GEMINI_PROJECT_DIR" },
  codex: { file: ".codex/hooks.json", projectVar: "" },
};

/** Projects built once per test file (per tree, agent and install) and copied for each test: init writes no absolute path. */
const templates = repoTemplates();

/** A committed repository with `tree`, the package installed as npm lays it out, and `init --agent <agent>` run. */
export function agentProject(tree: Tree, agent: "claude" | "gemini" | "codex" = "claude", options: { install?: boolean } = {}): AgentProject {
  const key = JSON.stringify([Object.entries(tree).map(([k, v]) => [k, typeof v === "string" ? v : v.toString("base64")]), agent, options.install !== false]);
  const root = templates.copy(key, () => {
    const built = tempRepo(tree);
    if (options.install !== false) installLocally(built);
    const init = runCli(["init", "--agent", agent], { cwd: built });
    expect(init.code, init.stdout + init.stderr).toBe(0);
    git(built, ["add", "-A"]);
    git(built, ["commit", "-qm", "init"]);
    return built;
  });
  const { file, projectVar } = SETTINGS[agent]!;
  const settings = JSON.parse(readFileSync(join(root, file), "utf8")) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  const command = (event: string): string => {
    const group = settings.hooks[event]?.find((g) => g.hooks.some((h) => h.command.includes("agent-hook")));
    if (group === undefined) throw new Error(`${file} registers no agent-hook for ${event}`);
    return group.hooks.find((h) => h.command.includes("agent-hook"))!.command;
  };
  return {
    root,
    command,
    hook(event, toolName, toolInput, opts = {}) {
      const payload =
        opts.raw ??
        JSON.stringify({
          session_id: "test-session",
          transcript_path: join(root, ".transcript.jsonl"),
          cwd: root,
          // Claude Code's own fields besides the tool call (the gate reads none of them).
          ...(agent === "claude" ? { permission_mode: "default", tool_use_id: "toolu_01TestGate" } : {}),
          hook_event_name: event,
          tool_name: toolName,
          tool_input: toolInput,
          ...(event === "PostToolUse" || event === "AfterTool" ? { tool_response: { success: true } } : {}),
        });
      const env: NodeJS.ProcessEnv = { ...process.env, ...(projectVar !== "" ? { [projectVar]: root } : {}), ...opts.env };
      delete env["NOMA_RECONCILE_SKIP"];
      if (opts.env?.["NOMA_RECONCILE_SKIP"] !== undefined) env["NOMA_RECONCILE_SKIP"] = opts.env["NOMA_RECONCILE_SKIP"];
      const r = spawnSync("sh", ["-c", command(event)], { cwd: root, input: payload, env, encoding: "utf8", timeout: 60_000 });
      if (r.error) throw r.error;
      const out = r.stdout.trim();
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: out.length > 0 ? (JSON.parse(out) as Record<string, any>) : null };
    },
  };
}

/** The refusal's reason (Claude Code and Codex shape), asserting the shape. */
export function denyReason(r: HookRun, event = "PreToolUse"): string {
  expect(r.code, r.stderr).toBe(0);
  expect(r.json?.["hookSpecificOutput"]).toMatchObject({ hookEventName: event, permissionDecision: "deny" });
  return r.json!["hookSpecificOutput"]["permissionDecisionReason"] as string;
}

/** The tool is let through, silently. */
export function expectAllowed(r: HookRun): void {
  expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 0, stdout: "", stderr: "" });
}

/** The `patch_block` arguments a refusal offers (the line after "send this with …:"). */
export function offeredPatch(reason: string): {
  file: string;
  op?: Record<string, unknown>;
  ops?: Record<string, unknown>[];
  base_sha256: string;
  actor: unknown;
} {
  const lines = reason.split("\n");
  const at = lines.findIndex((l) => l.includes("send this with mcp__noma-reconcile__patch_block:"));
  expect(at, reason).toBeGreaterThan(-1);
  return JSON.parse(lines[at + 1]!);
}

/** The `noma-reconcile patch …` command line a refusal offers (the line after "or from a shell:"). */
export function offeredCommand(reason: string): string {
  const lines = reason.split("\n");
  const at = lines.indexOf("or from a shell:");
  expect(at, reason).toBeGreaterThan(-1);
  return lines[at + 1]!;
}

export { git };
