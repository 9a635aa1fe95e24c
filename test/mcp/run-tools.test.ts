/**
 * run_list and run_status through the real server: the runs a real `run`
 * recorded, the run an agent is part of (NORMA_RUN_ID), a live run seen while
 * it runs, and bad arguments as isError results.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { cli, execAgent, runRepo, SPEC } from "../runs/helpers/run-repo.js";
import { McpClient } from "./helpers/mcp-client.js";

interface Listed {
  runs: Array<{ run_id: string; status: string; verdict: string | null; steps: number; iteration: number }>;
  total: number;
}

describe("mcp: run_list and run_status", () => {
  it("list the recorded runs and show one in full (steps, events, verdict); default to NORMA_RUN_ID", async () => {
    const root = runRepo();
    const first = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result.run_id as string;
    const second = JSON.parse(cli(root, ["run", "--spec", SPEC, "--format", "json"]).stdout).result.run_id as string;
    const c = new McpClient(root);
    await c.initialize();
    const list = await c.ok<Listed>("run_list");
    expect(list.total).toBe(2);
    expect(list.runs.map((r) => r.run_id)).toEqual([first, second].sort().reverse());
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
    expect(s.verdict).toMatchObject({ verdict: "PASS", criteria: [{ id: "AC1", pass: true }, { id: "AC2", pass: true }] });
    expect(s.scorecard).toBe(`.norma/runs/${first}/steps/003-check/scorecard.md`);
    expect(s.events[0]).toMatchObject({ seq: 1, type: "run_started" });
    expect(s.events_total).toBe(s.events.length);
    const last2 = await c.ok<Record<string, any>>("run_status", { run_id: first, events_limit: 2 });
    expect(last2.events.map((e: { type: string }) => e.type)).toEqual(["snapshot_unchanged", "run_passed"]);
    expect(last2.events_total).toBe(s.events_total);
    // No id: the newest run.
    expect((await c.ok<Record<string, any>>("run_status")).run.run_id).toBe(list.runs[0]!.run_id);

    expect(await c.fails("run_status", { run_id: "20260101-000000-abcdef" })).toBe("no run 20260101-000000-abcdef in .norma/norma.db (run_list lists the runs)");
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
    const root = runRepo({ config: { agents: { plan: execAgent("plan.json") } }, behaviors: { "plan.json": { sleepMs: 6000 } } });
    const child = spawn(process.execPath, [CLI, "run", "--spec", SPEC], { cwd: root, env: { ...process.env, CI: "1" }, stdio: "ignore" });
    const done = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
    // Wait until the run is recorded (its directory exists once its row is about to be committed).
    for (let i = 0; i < 400 && !existsSync(join(root, ".norma/norma.db")); i++) await new Promise((r) => setTimeout(r, 25));
    const c = new McpClient(root);
    await c.initialize();
    let s: Record<string, any> | null = null;
    for (let i = 0; i < 200; i++) {
      const r = await c.call("run_status");
      if (r.isError !== true) {
        s = r.structuredContent as Record<string, any>;
        break;
      }
      await new Promise((res) => setTimeout(res, 25));
    }
    expect(s).not.toBeNull();
    expect(s!.run.status).toBe("running");
    expect(s!.live).toBe(true);
    await c.close();
    expect(await done).toBe(0);
    const after = new McpClient(root);
    await after.initialize();
    expect(await after.ok<Record<string, any>>("run_status")).toMatchObject({ run: { status: "passed" }, live: false });
    await after.close();
  });
});
