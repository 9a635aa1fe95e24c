/**
 * run_list and run_status through the real server: the runs a real `run`
 * recorded, the run an agent is part of (NORMA_RUN_ID), a live run seen while
 * it runs, and bad arguments as isError results.
 */
import { spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { CLI, runCli } from "../helpers/run-cli.js";
import { tempDir } from "../helpers/temp-repo.js";
import { runForSetUp, runRepoAsync, SPEC } from "../runs/helpers/run-repo.js";
import { McpClient } from "./helpers/mcp-client.js";
import { roleTools } from "../../src/runs/agent-step.js";

/** An exec agent that answers once the file named by its argument exists. */
const GATED_AGENT = `import { existsSync, readFileSync } from "node:fs";
const req = JSON.parse(readFileSync(0, "utf8"));
while (!existsSync(process.argv[2])) await new Promise((r) => setTimeout(r, 20));
process.stdout.write(JSON.stringify({ version: 1, status: "ok", summary: req.step.role + " done", files: [], next_actions: [], errors: [] }));
`;

interface Listed {
  runs: Array<{ run_id: string; created_at: string; status: string; verdict: string | null; steps: number; iteration: number }>;
  total: number;
}

describe("mcp: run_list and run_status", () => {
  it("list the recorded runs and show one in full (steps, events, verdict); default to NORMA_RUN_ID", async () => {
    const root = await runRepoAsync();
    // The runs the tools are asked about (set-up: `run` itself is tested as a process in test/runs).
    const first = (await runForSetUp(root)).run_id;
    const second = (await runForSetUp(root)).run_id;
    const c = new McpClient(root);
    await c.initialize();
    const list = await c.ok<Listed>("run_list");
    expect(list.total).toBe(2);
    // Newest first by start time (the second run started after the first ended), not by id: two runs
    // started in the same second differ only in their random suffix. Only a shared millisecond is ordered by id, descending.
    const [newest, older] = list.runs;
    expect(list.runs.map((r) => r.run_id)).toEqual(newest!.created_at === older!.created_at ? [first, second].sort().reverse() : [second, first]);
    expect(list.runs[0]).toMatchObject({ status: "passed", verdict: "PASS", steps: 3, iteration: 1 });
    expect((await c.ok<Listed>("run_list", { limit: 1 })).runs).toHaveLength(1);

    const s = await c.ok<Record<string, any>>("run_status", { run_id: first });
    expect(s.run).toMatchObject({ run_id: first, status: "passed", verdict: "PASS", current_step_index: 3 });
    expect(s.live).toBe(false);
    expect(s.criteria).toEqual([
      { id: "AC1", text: `no unreconciled drift for ${SPEC}` },
      { id: "AC2", text: "every changed .noma document and transcript valid" },
    ]);
    expect(s.specs).toEqual([SPEC]);
    expect(s.steps.map((x: { role: string; status: string }) => `${x.role}:${x.status}`)).toEqual(["plan:skipped", "do:skipped", "check:ok"]);
    expect(s.verdict).toMatchObject({
      verdict: "PASS",
      criteria: [
        { id: "AC1", pass: true },
        { id: "AC2", pass: true },
      ],
    });
    expect(s.scorecard).toBe(`.norma/runs/${first}/steps/003-check/scorecard.md`);
    expect(s.events[0]).toMatchObject({ seq: 1, type: "run_started" });
    expect(s.events_total).toBe(s.events.length);
    const last2 = await c.ok<Record<string, any>>("run_status", { run_id: first, events_limit: 2 });
    // The run passed on a clean repository: its branch has nothing to commit (the last events before run_passed).
    expect(last2.events.map((e: { type: string }) => e.type)).toEqual(["nothing_to_commit", "run_passed"]);
    expect(last2.events_total).toBe(s.events_total);
    // No id: the newest run.
    expect((await c.ok<Record<string, any>>("run_status")).run.run_id).toBe(list.runs[0]!.run_id);

    expect(await c.fails("run_status", { run_id: "20260101-000000-abcdef" })).toBe(
      "no run 20260101-000000-abcdef in .norma/norma.db (run_list lists the runs)",
    );
    expect(await c.fails("run_status", { run_id: "../../etc" })).toContain("invalid arguments for run_status");
    expect(await c.fails("run_list", { limit: "3" })).toContain("invalid arguments for run_list");
    await c.close();

    // A server started by an agent of a run (NORMA_RUN_ID in its environment) shows that run by default.
    const agent = new McpClient(root, undefined, { NORMA_RUN_ID: first });
    await agent.initialize();
    expect((await agent.ok<Record<string, any>>("run_status")).run.run_id).toBe(first);
    await agent.close();
  });

  it("a run in progress is `running` and live", async () => {
    // The plan agent holds the run in progress until the test opens its gate (a file outside the
    // repository, so the work tree stays as the agent found it): no race with a sleeping agent.
    const gate = join(tempDir(), "gate");
    const root = await runRepoAsync({
      config: { agents: { plan: { type: "exec", cmd: ["node", "agents/gated.mjs", gate], timeout_ms: 600_000 } } },
      extra: { "agents/gated.mjs": GATED_AGENT },
    });
    const child = spawn(process.execPath, [CLI, "run", "--spec", SPEC], { cwd: root, env: { ...process.env, CI: "1" }, stdio: "ignore" });
    const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    onTestFinished(() => {
      if (!existsSync(gate)) writeFileSync(gate, "");
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    });
    const c = new McpClient(root);
    await c.initialize();
    // Until the run is recorded, run_status answers "no runs yet" (an isError result); the test's timeout bounds the wait.
    let s: Record<string, any> | null = null;
    while (s === null) {
      const r = await c.call("run_status");
      if (r.isError !== true) s = r.structuredContent as Record<string, any>;
      else await new Promise((res) => setTimeout(res, 20));
    }
    expect(s.run.status).toBe("running");
    expect(s.live).toBe(true);
    await c.close();
    writeFileSync(gate, "");
    expect(await done).toBe(0);
    const after = new McpClient(root);
    await after.initialize();
    expect(await after.ok<Record<string, any>>("run_status")).toMatchObject({ run: { status: "passed" }, live: false });
    await after.close();
  });

  it("mcp --step serves one run step's agent: its role's tools only, run_status defaults to its run; a bad --step is a usage error", async () => {
    const root = await runRepoAsync();
    const id = (await runForSetUp(root)).run_id;
    const check = new McpClient(root, [process.execPath, CLI, "mcp", "--step", `${id}/003-check`]);
    await check.initialize();
    const listed = ((await check.request("tools/list")).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(listed).toEqual(roleTools("check"));
    expect(listed).toEqual([
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
    ]);
    expect(await check.fails("snapshot_state")).toContain(
      `snapshot_state is not available to the check agent of run ${id} (step 3): plan and check agents only read`,
    );
    expect((await check.ok<Record<string, any>>("run_status")).run.run_id).toBe(id);
    await check.close();
    const act = new McpClient(root, [process.execPath, CLI, "mcp", "--step", `${id}/004-act`]);
    await act.initialize();
    expect(((await act.request("tools/list")).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual(roleTools("act"));
    expect(await act.fails("mark_reconciled", { spec_path: SPEC, files: ["src/app.ts"] })).toContain("is not available to the act agent");
    await act.close();
    for (const bad of ["004-act", `${id}/4-act`, `${id}/004-review`, `${id}/000-act`, `../${id}/004-act`]) {
      const r = runCli(["mcp", "--step", bad], { cwd: root });
      expect(r.code, bad).toBe(2);
      expect(r.stderr).toContain("--step: expected <run_id>/<NNN-role>");
    }
  });
});
