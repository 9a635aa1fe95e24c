/**
 * The `acp` agent type through the real CLI (`run`, dist/cli.cjs) in real git repositories: a
 * scripted ACP agent written with the SDK's agent side (helpers/acp-agent.mjs) reads, writes
 * through the client, runs commands in its terminals and asks permissions; the loop serves it
 * with the workspace tools under the role's rules, every request in the evidence ledger, and
 * parses its final message into the step's AgentResponse.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readNormaState } from "../../src/runs/norma-db.js";
import { checkoutFingerprint, cli, readJson, runIds, runRepoAsync, SPEC, stepDirs, worktreeOf } from "./helpers/run-repo.js";

const ACP_AGENT = fileURLToPath(new URL("./helpers/acp-agent.mjs", import.meta.url));
const DRIFT = { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" };
const FIXED = "export const greet = (n: string) => `hello ${n}`; // fixed over ACP\n";
const WORKSPACE = {
  ".notarai/config.yaml": "workspace:\n  ledger: evidence/tools.log\n  archive: evidence/archive\n",
  "tools/allowed_commands.toml": '[[command]]\nargv = ["git", "rev-parse", "--is-inside-work-tree"]\n',
};

function acpAgent(behavior: string, extra: object = {}): object {
  return { type: "acp", cmd: ["node", ACP_AGENT, `agents/${behavior}`], timeout_ms: 60_000, ...extra };
}

interface LedgerLine {
  action: string;
  path: string;
  details: Record<string, unknown> & { via: string; outcome: string; code?: string; acp?: string; run?: { run_id: string; step: number; role: string } };
}

function ledger(root: string): LedgerLine[] {
  return readFileSync(join(root, "evidence/tools.log"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as LedgerLine);
}

async function events(root: string, id: string): Promise<Array<{ type: string; message: string; data: any }>> {
  const state = (await readNormaState(root))!;
  return state.events(id).map((e) => ({ type: e.type, message: e.message, data: e.data_json !== null ? JSON.parse(e.data_json) : null }));
}

describe("run with an ACP agent", () => {
  it("an act agent fixes the drift through the client; plan only reads; every request is in the ledger; the run passes", async () => {
    const root = await runRepoAsync({
      extra: WORKSPACE,
      drift: DRIFT,
      config: { agents: { plan: acpAgent("plan.json"), act: acpAgent("act.json") } },
      behaviors: {
        "plan.json": {
          actions: [
            { read: "${cwd}/src/app.ts" },
            { write: "${cwd}/src/app.ts", content: "sabotage\n" },
            { terminal: { command: "git", args: ["rev-parse", "--is-inside-work-tree"] } },
            { write: "${step_dir}/plan.md", content: "# Plan\n\nSay hello again.\n" },
          ],
          summary: "planned over ACP",
        },
        "act.json": {
          byIteration: {
            "1": {
              actions: [
                { read: "${prev}/verdict.json" },
                { read: "${cwd}/src/app.ts", line: 1, limit: 1 },
                { say: "I will edit src/app.ts." },
                { tool: "edit src/app.ts" },
                { permission: { kind: "edit", title: "edit src/app.ts", locations: ["${cwd}/src/app.ts"] } },
                { permission: { kind: "edit", title: "edit /etc/hosts", locations: ["/etc/hosts"] } },
                { permission: { kind: "edit", title: "edit .git/config", locations: ["${cwd}/.git/config"] } },
                { permission: { kind: "execute", title: "run git" } },
                { write: "${cwd}/src/app.ts", content: FIXED },
                { write: "${cwd}/.git/hooks/pre-commit", content: "#!/bin/sh\n" },
                { write: "${step_dir}/../../norma.md", content: "overwritten\n" },
                { terminal: { command: "git", args: ["rev-parse", "--is-inside-work-tree"] } },
                { terminal: { command: "rm", args: ["-rf", "src"] } },
                { terminal: { command: "git", args: ["rev-parse", "--is-inside-work-tree"], cwd: "/tmp" } },
                // The user's checkout: outside the run's worktree.
                { write: "${checkout}/src/app.ts", content: "escaped\n" },
                {
                  write: "${step_dir}/reconciled.json",
                  content: JSON.stringify([{ spec: ".notarai/app.spec.yaml", path: "src/app.ts", note: "greets with hello again" }]),
                },
              ],
              summary: "AC1: fixed the greeting over ACP",
            },
          },
        },
      },
    });
    const checkout = checkoutFingerprint(root);
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).result).toMatchObject({ status: "passed", verdict: "PASS", iteration: 2 });
    const id = runIds(root)[0]!;
    // The agent worked in the run's worktree; the user's checkout is as it was.
    const wt = worktreeOf(root, id);
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toBe(FIXED);
    expect(checkoutFingerprint(root)).toEqual(checkout);
    expect(existsSync(join(root, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(root, `.norma/runs/${id}/norma.md`), "utf8")).not.toBe("overwritten\n");
    expect(stepDirs(root, id)).toEqual(["001-plan", "002-do", "003-check", "004-act", "005-plan", "006-do", "007-check"]);
    const steps = `.norma/runs/${id}/steps`;

    // The plan agent: the client offered files and terminals, the session ran in the work tree with our
    // MCP server for the step; it read, but its repository write and its command were refused.
    const plan = readJson(root, `${steps}/001-plan/files/acp.json`);
    expect(plan.capabilities).toMatchObject({ fs: { readTextFile: true, writeTextFile: true }, terminal: true });
    expect(plan.session.cwd).toBe(wt);
    expect(plan.session.mcpServers).toHaveLength(1);
    expect(plan.session.mcpServers[0]).toMatchObject({ name: "noma-reconcile", command: process.execPath, env: [] });
    expect(plan.session.mcpServers[0].args.slice(-7)).toEqual(["mcp", "--step", `${id}/001-plan`, "--root", wt, "--runs-root", root]);
    expect(plan.results[0]).toEqual({ ok: { content: DRIFT["src/app.ts"] } });
    expect(plan.results[1].error).toMatchObject({
      code: -32000,
      message: expect.stringContaining("src/app.ts: a plan agent changes no repository file; write your files in the step directory"),
      data: { code: "not_for_role" },
    });
    expect(plan.results[2].error).toMatchObject({ message: "a plan agent runs no command (only do and act agents may)", data: { code: "not_for_role" } });
    expect(plan.results[3]).toEqual({ ok: {} });
    expect(readFileSync(join(root, `${steps}/001-plan/plan.md`), "utf8")).toBe("# Plan\n\nSay hello again.\n");
    // Its final message, after talk and a tool call, is the step's AgentResponse.
    expect(readJson(root, `${steps}/001-plan/output.json`)).toEqual({
      version: 1,
      status: "ok",
      summary: "planned over ACP",
      files: ["plan.md", "files/acp.json"],
      next_actions: [],
      errors: [],
    });
    expect(readFileSync(join(root, `${steps}/001-plan/logs/stdout.txt`), "utf8")).toMatch(
      /^Let me record what I did\.\n\n\{"version":1,"status":"ok","summary":"planned over ACP"/,
    );
    const convo = readFileSync(join(root, `${steps}/001-plan/logs/acp.jsonl`), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(convo[0]).toMatchObject({ from: "client", message: { method: "initialize", params: { clientInfo: { name: "noma-reconcile" } } } });
    expect(convo.map((c) => c.message.method).filter((m) => m !== undefined)).toEqual(
      expect.arrayContaining(["initialize", "session/new", "session/prompt", "fs/read_text_file", "fs/write_text_file", "terminal/create", "session/update"]),
    );

    // The act agent read the last check's verdict through the client, and one line of src/app.ts.
    const act = readJson(root, `${steps}/004-act/files/acp.json`);
    expect(act.session.mcpServers[0].args.slice(-7)).toEqual(["mcp", "--step", `${id}/004-act`, "--root", wt, "--runs-root", root]);
    expect(JSON.parse(act.results[0].ok.content)).toMatchObject({ verdict: "FAIL" });
    expect(act.results[1]).toEqual({ ok: { content: DRIFT["src/app.ts"] } });
    // Permissions by the default policy: writes inside the work tree allowed (once), outside or into .git denied; execute allowed.
    expect(act.results[2]).toEqual({ ok: { outcome: { outcome: "selected", optionId: "opt-allow_once" } } });
    expect(act.results[3]).toEqual({ ok: { outcome: { outcome: "selected", optionId: "opt-reject_once" } } });
    expect(act.results[4]).toEqual({ ok: { outcome: { outcome: "selected", optionId: "opt-reject_once" } } });
    expect(act.results[5]).toEqual({ ok: { outcome: { outcome: "selected", optionId: "opt-allow_once" } } });
    expect(act.results[6]).toEqual({ ok: {} });
    expect(act.results[7].error).toMatchObject({ message: expect.stringContaining(".git/ is never read or written"), data: { code: "protected_path" } });
    expect(act.results[8].error).toMatchObject({
      message: expect.stringContaining("inside the run directory, where an agent writes only in its own step directory"),
      data: { code: "protected_path" },
    });
    expect(act.results[9]).toEqual({
      ok: { exit: { exitCode: 0, signal: null }, output: { output: "true\n", truncated: false, exitStatus: { exitCode: 0, signal: null } } },
    });
    expect(act.results[10].error).toMatchObject({ message: expect.stringContaining("rm -rf src: not on the allowlist"), data: { code: "not_allowlisted" } });
    expect(act.results[11].error).toMatchObject({
      message: expect.stringContaining('cwd "/tmp": commands run from the work tree\'s root'),
      data: { code: "invalid_arguments" },
    });
    // A write into the user's checkout (outside the run's worktree) is refused.
    expect(act.results[12].error).toMatchObject({
      message: `${JSON.stringify(join(root, "src/app.ts"))}: resolves outside the repository; nothing was read or written`,
      data: { code: "outside_workspace" },
    });
    expect(existsSync(join(wt, "src"))).toBe(true);

    // The loop: the act agent's edit is a work-tree change through the workspace tools; the ACP session is an event.
    const ev = await events(root, id);
    const changed = ev.filter((e) => e.type === "worktree_changed");
    expect(changed).toEqual([
      {
        type: "worktree_changed",
        message: "the act agent changed 1 file in the work tree: src/app.ts",
        data: { step_index: 4, role: "act", files: ["src/app.ts"], workspace_tools: ["src/app.ts"], direct: [] },
      },
    ]);
    const sessions = ev.filter((e) => e.type === "acp_session");
    expect(sessions.map((e) => e.data.step_index)).toEqual([1, 4, 5]);
    expect(sessions[1]!.message).toBe(
      "act agent scripted-acp-agent 1.0.0 over ACP: end_turn; 2 reads, 3 writes, 1 command, 5 refused; 2 permissions allowed, 2 denied (edit /etc/hosts; edit .git/config)",
    );
    expect(sessions[1]!.data).toMatchObject({ agent: "scripted-acp-agent 1.0.0", session_id: "session-1", stop_reason: "end_turn", log: "logs/acp.jsonl" });
    expect(readJson(root, `${steps}/004-act/output.json`)).toMatchObject({
      status: "ok",
      summary: "AC1: fixed the greeting over ACP",
      files: ["reconciled.json", "files/acp.json"],
    });
    expect(readJson(root, `${steps}/007-check/verdict.json`).verdict).toBe("PASS");

    // The ledger: every request, each with its run step and ACP method, refusals included; it verifies.
    const lines = ledger(wt).filter((l) => l.details.run?.step === 4);
    expect(lines.map((l) => [l.action, l.path, l.details.outcome, l.details.acp, l.details.code ?? null])).toEqual([
      // The run directory is outside the run's worktree: its paths are absolute.
      ["fs/read_text_file", join(root, `.norma/runs/${id}/steps/003-check/verdict.json`), "ok", "fs/read_text_file", null],
      ["read_file", "src/app.ts", "ok", "fs/read_text_file", null],
      ["session/request_permission", "src/app.ts", "allowed", "session/request_permission", null],
      ["session/request_permission", "/etc/hosts", "denied", "session/request_permission", null],
      ["session/request_permission", ".git/config", "denied", "session/request_permission", null],
      ["session/request_permission", "", "allowed", "session/request_permission", null],
      // A change is two lines: its intent before it, its outcome after.
      ["edit_file", "src/app.ts", undefined, "fs/write_text_file", null],
      ["edit_file", "src/app.ts", "ok", "fs/write_text_file", null],
      ["edit_file", ".git/hooks/pre-commit", "refused", "fs/write_text_file", "protected_path"],
      ["fs/write_text_file", "", "refused", "fs/write_text_file", "protected_path"],
      ["run_command", "", undefined, "terminal/create", null],
      ["run_command", "", "ok", "terminal/create", null],
      ["run_command", "", "refused", "terminal/create", "not_allowlisted"],
      ["run_command", "", "refused", "terminal/create", "invalid_arguments"],
      ["edit_file", join(root, "src/app.ts"), "refused", "fs/write_text_file", "outside_workspace"],
      ...[undefined, "ok"].map((outcome) => [
        "fs/write_text_file",
        expect.stringMatching(new RegExp(`^${root}/\\.norma/runs/${id}/steps/004-act\\.tmp-[0-9a-f]+/reconciled\\.json$`)),
        outcome,
        "fs/write_text_file",
        null,
      ]),
      ...[undefined, "ok"].map((outcome) => ["fs/write_text_file", expect.stringMatching(/\/files\/acp\.json$/), outcome, "fs/write_text_file", null]),
    ]);
    expect(lines.every((l) => l.details.via === "acp" && l.details.run?.run_id === id && l.details.run?.role === "act")).toBe(true);
    expect(lines[3]!.details).toMatchObject({
      kind: "write",
      tool_kind: "edit",
      reason: 'permissions.write is worktree and "/etc/hosts" is outside the work tree',
    });
    expect(lines[9]!.details["requested_path"]).toMatch(/\/norma\.md$/);
    expect(
      ledger(wt)
        .filter((l) => l.details.run?.step === 1)
        .map((l) => [l.action, l.details.outcome, l.details.code ?? null]),
    ).toEqual([
      ["read_file", "ok", null],
      ["edit_file", "refused", "not_for_role"],
      ["run_command", "refused", "not_for_role"],
      ["fs/write_text_file", undefined, null],
      ["fs/write_text_file", "ok", null],
      ["fs/write_text_file", undefined, null],
      ["fs/write_text_file", "ok", null],
    ]);
    expect(cli(wt, ["ledger", "verify"]).code).toBe(0);
    // The version the client's write replaced is in the archive.
    const restored = cli(wt, ["archive", "restore", "src/app.ts", "--number", "1", "--stdout"]);
    expect(restored.stdout).toBe(DRIFT["src/app.ts"]);
  });

  it("a configured policy denies what it says (write deny, execute deny); an agent that does not exit after its session is stopped", async () => {
    const root = await runRepoAsync({
      extra: WORKSPACE,
      drift: DRIFT,
      config: { agents: { act: acpAgent("act.json", { permissions: { write: "deny", execute: "deny" } }) } },
      behaviors: {
        "act.json": {
          actions: [
            { permission: { kind: "edit", title: "edit src/app.ts", locations: ["${cwd}/src/app.ts"] } },
            { permission: { kind: "execute", title: "run git" }, options: ["allow_always", "reject_always"] },
            { permission: { kind: "read", title: "read /etc/hosts", locations: ["/etc/hosts"] }, options: ["reject_once"] },
          ],
          status: "fail",
          linger: true,
        },
      },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code, r.stderr).toBe(1);
    const id = runIds(root)[0]!;
    const act = readJson(root, `.norma/runs/${id}/steps/004-act/files/acp.json`);
    expect(act.results).toEqual([
      { ok: { outcome: { outcome: "selected", optionId: "opt-reject_once" } } },
      { ok: { outcome: { outcome: "selected", optionId: "opt-reject_always" } } },
      // Read is allowed, but the agent offered only a reject option: the request is cancelled.
      { ok: { outcome: { outcome: "cancelled" } } },
    ]);
    const reasons = ledger(worktreeOf(root, id))
      .filter((l) => l.action === "session/request_permission")
      .map((l) => l.details["reason"]);
    expect(reasons).toEqual([
      "permissions.write is deny",
      "permissions.execute is deny",
      "permissions.read is allow; the agent offered no allow option, so the request is cancelled",
    ]);
    // The agent kept running after its session: it was stopped, which is recorded, not a failure of its own.
    const ev = await events(root, id);
    expect(ev.filter((e) => e.type === "acp_agent_stopped").map((e) => e.message)).toEqual([
      "the act agent had not exited 5 s after its session ended and its stdin closed; it was stopped",
    ]);
    expect(ev.filter((e) => e.type === "agent_failed")).toEqual([]);
    expect(readJson(root, `.norma/runs/${id}/steps/004-act/output.json`)).toMatchObject({ status: "fail", summary: "act done over ACP" });
  });

  it("an answer that is not an AgentResponse is a protocol error; a turn that ends other than end_turn fails the step", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { plan: acpAgent("plan.json") } },
      behaviors: { "plan.json": { answer: "All done, the repository looks fine!" } },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const id = runIds(root)[0]!;
    const out = readJson(root, `.norma/runs/${id}/steps/001-plan/output.json`);
    expect(out.status).toBe("fail");
    expect(out.summary).toMatch(/^protocol_error: stdout \(AgentResponse\) is not valid JSON \(.*\); it starts with "All done, the repository looks fine!"$/);

    const refusing = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { plan: acpAgent("plan.json") } },
      behaviors: { "plan.json": { stopReason: "refusal" } },
    });
    expect(cli(refusing, ["run", "--spec", SPEC]).code).toBe(1);
    const rid = runIds(refusing)[0]!;
    const ev = await events(refusing, rid);
    expect(ev.find((e) => e.type === "agent_failed")?.message).toBe("the plan agent ended its turn with stopReason refusal, not end_turn");
  });

  it("a program that does not speak ACP is a protocol error naming the phase; a missing one is named before the run starts", async () => {
    const root = await runRepoAsync({
      drift: DRIFT,
      config: { agents: { plan: { type: "acp", cmd: ["node", "-e", "process.stdout.write('hello\\n')"], timeout_ms: 30_000 } } },
    });
    expect(cli(root, ["run", "--spec", SPEC]).code).toBe(1);
    const id = runIds(root)[0]!;
    const out = readJson(root, `.norma/runs/${id}/steps/001-plan/output.json`);
    expect(out.summary).toMatch(/^protocol_error: ACP initialize failed: /);

    const missing = await runRepoAsync({ drift: DRIFT, config: { agents: { act: { type: "acp", cmd: ["./bin/no-such-agent"] } } } });
    const m = cli(missing, ["run", "--spec", SPEC]);
    expect(m.code).toBe(2);
    expect(m.stderr).toContain("agents.act: ./bin/no-such-agent: not found (relative to the repository root); fix cmd in .norma/config.json");
    expect(runIds(missing)).toEqual([]);
  });
});
