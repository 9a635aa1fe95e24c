/**
 * The one-shot coding CLI backends (codex, claude, gemini, opencode) through
 * the real CLI: stand-in executables under each tool's name on PATH record
 * their argv, working directory and environment, write the role's files into
 * the step directory and print a scripted answer in that tool's output
 * format. The exact command lines and prompts are asserted.
 */
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { delimiter, join } from "node:path";
import { describe, expect, it } from "vitest";
import { rolePrompt } from "../../src/runs/agents/role-prompt.js";
import { roleTools } from "../../src/runs/agent-step.js";
import { readNormaState } from "../../src/runs/norma-db.js";
import { CLI } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-repo.js";
import { cli, readJson, runIds, runRepoAsync, SPEC } from "./helpers/run-repo.js";

/**
 * The stand-in: records {tool, argv, cwd, env} as one JSON line in $STANDIN_LOG; as a check
 * agent writes verdict.json (FAIL on iteration 1 when STANDIN_FAIL_FIRST is set, else PASS) and
 * scorecard.md; prints the AgentResponse the way the tool would (codex: fenced text; claude:
 * {result}; gemini: {response}; opencode: JSONL events, the answer split over two text parts).
 * With STANDIN_TOUCH it also writes that repository file itself (as a CLI's own edit tool would).
 */
const STANDIN = `#!/usr/bin/env node
const { appendFileSync, writeFileSync } = require("node:fs");
const { basename, join } = require("node:path");
const tool = basename(process.argv[1]);
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("NORMA_") || k === "OPENCODE_CONFIG_CONTENT"));
appendFileSync(process.env.STANDIN_LOG, JSON.stringify({ tool, argv: process.argv.slice(2), cwd: process.cwd(), env }) + "\\n");
const dir = process.env.NORMA_STEP_DIR;
const role = process.env.NORMA_ROLE;
const files = [];
if (role === "check") {
  const pass = !(process.env.STANDIN_FAIL_FIRST && process.env.NORMA_ITERATION === "1");
  writeFileSync(join(dir, "verdict.json"), JSON.stringify({ version: 1, verdict: pass ? "PASS" : "FAIL", criteria: [{ id: "AC1", text: "t", pass, evidence: "scorecard.md" }] }));
  writeFileSync(join(dir, "scorecard.md"), "# " + (pass ? "PASS" : "FAIL") + "\\n");
  files.push("verdict.json", "scorecard.md");
}
if (role === "plan") { writeFileSync(join(dir, "plan.md"), "# plan\\n"); files.push("plan.md"); }
if (process.env.STANDIN_TOUCH) writeFileSync(join(process.env.NORMA_REPO_ROOT, process.env.STANDIN_TOUCH), role + " was here\\n");
if (process.env.STANDIN_PROSE === tool) { process.stdout.write("I looked at the repository and everything seems fine!\\n"); process.exit(0); }
const answer = JSON.stringify({ version: 1, status: "ok", summary: tool + " did " + role, files, next_actions: [], errors: [] });
if (tool === "codex") process.stdout.write("\`\`\`json\\n" + answer + "\\n\`\`\`\\n");
else if (tool === "claude") process.stdout.write(JSON.stringify({ type: "result", subtype: "success", is_error: false, result: answer, session_id: "s" }) + "\\n");
else if (tool === "gemini") process.stdout.write(JSON.stringify({ response: answer, stats: { models: {} } }) + "\\n");
else if (tool === "opencode") {
  const ev = (type, extra) => process.stdout.write(JSON.stringify({ type, timestamp: Date.now(), sessionID: "ses_1", ...extra }) + "\\n");
  ev("step_start", { part: { type: "step-start" } });
  ev("text", { part: { type: "text", text: "Thinking about it." } });
  ev("step_finish", { part: { type: "step-finish", reason: "tool-calls" } });
  ev("step_start", { part: { type: "step-start" } });
  ev("text", { part: { type: "text", text: answer.slice(0, 20) } });
  ev("text", { part: { type: "text", text: answer.slice(20) } });
  ev("step_finish", { part: { type: "step-finish", reason: "stop" } });
}
process.stderr.write(tool + ": progress on stderr\\n");
`;

interface Call {
  tool: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

function standins(): { bin: string; log: string } {
  const d = tempDir("nr-standins-");
  const bin = join(d, "bin");
  mkdirSync(bin);
  for (const tool of ["codex", "claude", "gemini", "opencode"]) {
    writeFileSync(join(bin, tool), STANDIN);
    chmodSync(join(bin, tool), 0o755);
  }
  return { bin, log: join(d, "calls.jsonl") };
}

function calls(log: string): Call[] {
  return readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Call);
}

const MCP = [process.execPath, realpathSync(CLI), "mcp"];

describe("coding CLI backends", () => {
  it("plan: codex, do: gemini, check: claude (in docs/), act: opencode — exact command lines, prompts, environment", async () => {
    const { bin, log } = standins();
    const root = realpathSync(
      await runRepoAsync({
        config: {
          agents: {
            plan: { type: "codex", model: "gpt-5-codex" },
            do: { type: "gemini", model: "gemini-2.5-pro", args: ["--debug"] },
            check: { type: "claude", model: "sonnet", path: "docs" },
            act: { type: "opencode", model: "anthropic/claude-sonnet-4" },
          },
        },
      }),
    );
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"], {
      PATH: `${bin}${delimiter}${process.env["PATH"]}`,
      STANDIN_LOG: log,
      STANDIN_FAIL_FIRST: "1",
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).result;
    expect(out.steps.map((s: { role: string; status: string; summary: string }) => `${s.role}:${s.status}:${s.summary}`)).toEqual([
      "plan:ok:codex did plan",
      "do:ok:gemini did do",
      "check:ok:claude did check",
      "act:ok:opencode did act",
      "plan:ok:codex did plan",
      "do:ok:gemini did do",
      "check:ok:claude did check",
    ]);
    const id = runIds(root)[0]!;
    const seen = calls(log);
    expect(seen.map((c) => c.tool)).toEqual(["codex", "gemini", "claude", "opencode", "codex", "gemini", "claude"]);
    const steps = ["001-plan", "002-do", "003-check", "004-act", "005-plan", "006-do", "007-check"];
    seen.forEach((c, i) => {
      const stepRel = `.norma/runs/${id}/steps/${steps[i]}`;
      const request = readJson(root, `${stepRel}/input.json`);
      const stepDir: string = request.paths.step_dir;
      expect(stepDir.startsWith(`${join(root, stepRel)}.tmp-`)).toBe(true);
      const prompt = rolePrompt(request, { mcp: true });
      // Each step's agent gets the server for that step: only its role's tools (mcp --step), the
      // tools rooted in the run's worktree, the run records read from the main checkout.
      const wt = join(root, ".norma/worktrees", id);
      const mcp = [...MCP, "--step", `${id}/${steps[i]}`, "--root", wt, "--runs-root", root];
      expect(request.context.mcp_server).toEqual({ command: mcp[0], args: mcp.slice(1), tools: roleTools(request.step.role) });
      expect(JSON.parse(c.env["NORMA_MCP_COMMAND"]!)).toEqual(mcp);
      // The prompt policy (norma §11–§13), stated in words the test can see.
      const writer = request.step.role === "do" || request.step.role === "act";
      expect(prompt).toContain(
        writer
          ? `Step directory (where you write your files; repository files change only through the workspace tools): ${stepDir}`
          : `Step directory (the ONLY place you may write files): ${stepDir}`,
      );
      expect(prompt).toContain(
        writer ? "the workspace tools edit_file and apply_patch change repository files" : "The noma-reconcile MCP server is available, with read-only tools",
      );
      expect(prompt).toContain("print ONLY the AgentResponse JSON object on stdout");
      expect(prompt).toContain("Keep every path in `files` relative to the step directory");
      expect(c.env).toMatchObject({
        NORMA_RUN_ID: id,
        NORMA_ROLE: request.step.role,
        NORMA_STEP_DIR: stepDir,
        NORMA_REPO_ROOT: wt,
        NORMA_ITERATION: String(request.step.iteration),
      });
      switch (c.tool) {
        case "codex":
          expect(prompt).toContain("Your role is PLAN");
          expect(c.cwd).toBe(wt);
          expect(c.argv).toEqual([
            "exec",
            "--model",
            "gpt-5-codex",
            "--sandbox",
            "workspace-write",
            // The step directory is outside the run's worktree: the sandbox lets the agent write there too.
            "--add-dir",
            stepDir,
            "--ephemeral",
            "-c",
            `mcp_servers.noma-reconcile.command=${JSON.stringify(mcp[0])}`,
            "-c",
            `mcp_servers.noma-reconcile.args=${JSON.stringify(mcp.slice(1))}`,
            prompt,
          ]);
          break;
        case "gemini":
          expect(prompt).toContain("Your role is DO");
          expect(c.cwd).toBe(wt);
          expect(c.argv).toEqual([
            "--debug",
            "--model",
            "gemini-2.5-pro",
            "--output-format",
            "json",
            "--approval-mode",
            "auto_edit",
            "--include-directories",
            stepDir,
            "--prompt",
            prompt,
          ]);
          break;
        case "claude":
          expect(prompt).toContain("Write verdict.json");
          expect(prompt).toContain("Write scorecard.md");
          // path: docs → it runs there, and is given the step directory (outside docs/) as an extra directory.
          expect(c.cwd).toBe(join(wt, "docs"));
          expect(c.argv).toEqual([
            "-p",
            prompt,
            "--output-format",
            "json",
            "--permission-mode",
            "acceptEdits",
            "--mcp-config",
            JSON.stringify({ mcpServers: { "noma-reconcile": { type: "stdio", command: mcp[0], args: mcp.slice(1) } } }),
            "--strict-mcp-config",
            "--allowedTools",
            // A check agent: the read-only tools only.
            [
              "list_affected_specs",
              "get_spec_diff",
              "get_changed_artifacts",
              "read_doc",
              "list_ids",
              "validate_doc",
              "read_file",
              "list_files",
              "read_text_file",
              "read_media_file",
              "read_multiple_files",
              "list_directory",
              "list_directory_with_sizes",
              "directory_tree",
              "search_files",
              "search_text",
              "get_file_info",
              "list_allowed_directories",
              "run_list",
              "run_status",
            ]
              .map((t) => `mcp__noma-reconcile__${t}`)
              .join(","),
            "--add-dir",
            stepDir,
            "--model",
            "sonnet",
          ]);
          break;
        case "opencode":
          expect(prompt).toContain("Propose code or text changes as patch.diff");
          expect(c.cwd).toBe(wt);
          expect(c.argv).toEqual(["run", "--model", "anthropic/claude-sonnet-4", "--format", "json", prompt]);
          expect(JSON.parse(c.env["OPENCODE_CONFIG_CONTENT"]!)).toEqual({ mcp: { "noma-reconcile": { type: "local", command: mcp, enabled: true } } });
          break;
      }
    });
    // What each tool printed is kept as it was; output.json holds the AgentResponse taken out of it.
    const opencodeOut = readFileSync(join(root, `.norma/runs/${id}/steps/004-act/logs/stdout.txt`), "utf8");
    expect(opencodeOut.split("\n").filter((l) => l.length > 0)).toHaveLength(7);
    expect(readJson(root, `.norma/runs/${id}/steps/004-act/output.json`)).toEqual({
      version: 1,
      status: "ok",
      summary: "opencode did act",
      files: [],
      next_actions: [],
      errors: [],
    });
    expect(readFileSync(join(root, `.norma/runs/${id}/steps/003-check/logs/stderr.txt`), "utf8")).toBe("claude: progress on stderr\n");
  });

  it("claude as the do agent may also call the workspace tools that edit files and run commands; a file it writes itself is recorded", async () => {
    const { bin, log } = standins();
    const root = realpathSync(await runRepoAsync({ config: { agents: { do: { type: "claude" } } } }));
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"], {
      PATH: `${bin}${delimiter}${process.env["PATH"]}`,
      STANDIN_LOG: log,
      STANDIN_TOUCH: "notes.txt",
    });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const id = runIds(root)[0]!;
    const [c] = calls(log);
    const mcp = [...MCP, "--step", `${id}/002-do`, "--root", join(root, ".norma/worktrees", id), "--runs-root", root];
    const at = (flag: string) => c!.argv[c!.argv.indexOf(flag) + 1];
    expect(JSON.parse(at("--mcp-config")!)).toEqual({ mcpServers: { "noma-reconcile": { type: "stdio", command: mcp[0], args: mcp.slice(1) } } });
    expect(at("--allowedTools")).toBe(
      [
        "list_affected_specs",
        "get_spec_diff",
        "get_changed_artifacts",
        "read_doc",
        "list_ids",
        "validate_doc",
        "read_file",
        "list_files",
        "edit_file",
        "apply_patch",
        "run_command",
        "run_tests",
        "build_workspace",
        "read_text_file",
        "read_media_file",
        "read_multiple_files",
        "list_directory",
        "list_directory_with_sizes",
        "directory_tree",
        "search_files",
        "search_text",
        "get_file_info",
        "list_allowed_directories",
        "write_file",
        "append_file",
        "create_directory",
        "move_file",
        "run_list",
        "run_status",
      ]
        .map((t) => `mcp__noma-reconcile__${t}`)
        .join(","),
    );
    // Claude Code edits with tools of its own too: git status before and after the step shows what it changed.
    const ev = (await readNormaState(root))!.events(id).find((e) => e.type === "worktree_changed")!;
    expect(ev.message).toBe("the do agent changed 1 file in the work tree: notes.txt (not through the workspace tools: notes.txt)");
    expect(JSON.parse(ev.data_json!)).toEqual({ step_index: 2, role: "do", files: ["notes.txt"], workspace_tools: [], direct: ["notes.txt"] });
  });

  it.each(["codex", "claude", "gemini", "opencode"])("%s printing prose instead of the AgentResponse is a protocol_error; its stdout is kept", async (tool) => {
    const { bin, log } = standins();
    const root = await runRepoAsync({ config: { agents: { plan: { type: tool } } } });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"], {
      PATH: `${bin}${delimiter}${process.env["PATH"]}`,
      STANDIN_LOG: log,
      STANDIN_PROSE: tool,
    });
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    const expected = {
      codex: "protocol_error: stdout (AgentResponse) is not valid JSON",
      claude: "protocol_error: claude printed no JSON result object (--output-format json)",
      gemini: "protocol_error: gemini printed no JSON object (--output-format json)",
      opencode: "protocol_error: opencode printed no text event (--format json)",
    }[tool]!;
    expect(out.reason).toContain(`step 1 (plan) failed: ${expected}`);
    const id = runIds(root)[0]!;
    expect(readFileSync(join(root, `.norma/runs/${id}/steps/001-plan/logs/stdout.txt`), "utf8")).toBe(
      "I looked at the repository and everything seems fine!\n",
    );
    expect(readJson(root, `.norma/runs/${id}/steps/001-plan/output.json`)).toMatchObject({
      version: 1,
      status: "fail",
      errors: [expect.stringContaining("protocol_error")],
    });
  });

  it.each([
    ["claude", "Claude Code"],
    ["gemini", "the Gemini CLI"],
    ["opencode", "OpenCode"],
  ])("a missing %s binary is named before anything runs", async (tool, product) => {
    const root = await runRepoAsync({ config: { agents: { check: { type: tool } } } });
    const r = cli(root, ["run", "--spec", SPEC], { PATH: "/usr/bin:/bin" });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `noma-reconcile: cannot start the run:\n  agents.check: the ${tool} binary was not found on PATH; install ${product} or choose another agent type in .norma/config.json\n`,
    );
    expect(runIds(root)).toEqual([]);
  });
});
