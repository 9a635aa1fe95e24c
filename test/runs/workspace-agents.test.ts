/**
 * The run loop's agents and the workspace tools (issue 14's tools, issue 13's loop): scripted
 * exec agents spawn the real MCP server the loop gives them (`mcp --step RUN/NNN-role`, from
 * NORMA_MCP_COMMAND) and call it over stdio. An act agent's edit_file lands in the repository,
 * is archived and in the ledger with its step, counts against the budgets, and the next check
 * judges it; plan and check agents only read.
 */
import { existsSync, realpathSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { roleTools } from "../../src/runs/agent-step.js";
import { getChangedArtifacts } from "../../src/reconcile/get-changed-artifacts.js";
import { readNormaState } from "../../src/runs/norma-db.js";
import { cli, mcpAgent, readJson, runIds, runRepoAsync, SPEC, stepDirs } from "./helpers/run-repo.js";

const DRIFT = { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" };
const FIXED = "export const greet = (n: string) => `hello ${n}`; // fixed through edit_file\n";
/** Keep the tools' own records out of what the spec governs (it governs docs/**, the default ledger's folder). */
const WORKSPACE_CONFIG = { ".notarai/config.yaml": "workspace:\n  ledger: evidence/tools.log\n  archive: evidence/archive\n" };

interface LedgerLine {
  action: string;
  path: string;
  details: { via: string; outcome: string; code?: string; run?: { run_id: string; step: number; role: string }; requested_path?: string };
}

function ledger(root: string): LedgerLine[] {
  return readFileSync(join(root, "evidence/tools.log"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as LedgerLine);
}

describe("run: agents work through the workspace tools of our MCP server", () => {
  it("an act agent fixes the drift with edit_file; the edit is recorded, archived and in the ledger with its step, and the run passes on the next check", async () => {
    const root = await runRepoAsync({
      extra: WORKSPACE_CONFIG,
      drift: DRIFT,
      config: { agents: { plan: mcpAgent("plan.json"), act: mcpAgent("act.json") } },
      behaviors: {
        // The plan agent tries to write and to mark: refused (plan and check only read); it may read.
        "plan.json": {
          calls: [
            { name: "edit_file", arguments: { path: "src/app.ts", contents: "sabotage\n" } },
            { name: "mark_reconciled", arguments: { spec_path: SPEC, files: ["src/app.ts"] } },
            { name: "read_file", arguments: { path: "src/app.ts" } },
          ],
        },
        "act.json": {
          calls: [{ name: "edit_file", arguments: { path: "src/app.ts", contents: FIXED } }],
          files: { "reconciled.json": [{ spec: SPEC, path: "src/app.ts", note: "greets with hello again, as the spec says" }] },
        },
      },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const out = JSON.parse(r.stdout).result;
    expect(out).toMatchObject({ status: "passed", verdict: "PASS", iteration: 2 });
    // The agents worked in the run's worktree: the fix is there, the user's checkout is as it was.
    const wt = join(realpathSync(root), ".norma/worktrees", out.run_id);
    expect(readFileSync(join(wt, "src/app.ts"), "utf8")).toBe(FIXED);
    expect(readFileSync(join(root, "src/app.ts"), "utf8")).toBe(DRIFT["src/app.ts"]);
    const id = runIds(root)[0]!;
    expect(stepDirs(root, id)).toEqual(["001-plan", "002-do", "003-check", "004-act", "005-plan", "006-do", "007-check"]);
    const steps = `.norma/runs/${id}/steps`;

    // The act agent was given the server for its step, with the read-only and the workspace tools.
    const act = readJson(root, `${steps}/004-act/files/mcp.json`);
    expect(act.argv.slice(-7)).toEqual(["mcp", "--step", `${id}/004-act`, "--root", wt, "--runs-root", realpathSync(root)]);
    expect(act.context).toEqual({ command: act.argv[0], args: act.argv.slice(1), tools: roleTools("act") });
    expect(act.tools).toEqual(roleTools("act"));
    expect(act.tools).toEqual(expect.arrayContaining(["edit_file", "apply_patch", "run_command", "run_tests", "build_workspace", "read_file"]));
    expect(act.tools).not.toContain("mark_reconciled");
    expect(act.results[0].isError).toBeUndefined();
    expect(act.results[0].structuredContent).toMatchObject({ success: true, path: "src/app.ts", archived: { member: "src/app.ts.~1~" } });

    // The plan agent saw only the read-only tools; its writes were refused and nothing changed.
    const plan = readJson(root, `${steps}/001-plan/files/mcp.json`);
    expect(plan.tools).toEqual(roleTools("plan"));
    expect(plan.tools).not.toContain("edit_file");
    expect(plan.results[0].isError).toBe(true);
    expect(JSON.parse(plan.results[0].content[0].text)).toMatchObject({
      success: false,
      code: "not_for_role",
      message: expect.stringContaining(`edit_file is not available to the plan agent of run ${id} (step 1): plan and check agents only read`),
    });
    expect(plan.results[1]).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining("mark_reconciled is not available to the plan agent") }],
    });
    expect(plan.results[2].structuredContent).toMatchObject({ success: true, contents: DRIFT["src/app.ts"] });

    // The loop recorded what the act agent changed; the plan agents changed nothing.
    const state = (await readNormaState(root))!;
    const events = state.events(id);
    const changed = events.filter((e) => e.type === "worktree_changed");
    expect(changed).toHaveLength(1);
    expect(JSON.parse(changed[0]!.data_json!)).toEqual({ step_index: 4, role: "act", files: ["src/app.ts"], workspace_tools: ["src/app.ts"], direct: [] });
    expect(changed[0]!.message).toBe("the act agent changed 1 file in the work tree: src/app.ts");
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(["no_patch", "drift_acknowledged", "marked_reconciled", "snapshot_written", "run_passed"]),
    );
    expect(state.kv(id).get("changed_files")).toEqual(["src/app.ts"]);
    // The first check failed on the drift, the second (after the edit) passed.
    expect(readJson(root, `${steps}/003-check/verdict.json`).verdict).toBe("FAIL");
    expect(readJson(root, `${steps}/007-check/verdict.json`).verdict).toBe("PASS");

    // The ledger: every request of the agents, each with its run step; the refusal too. It verifies.
    const lines = ledger(wt);
    expect(lines.map((l) => [l.action, l.details.outcome, l.details.run?.step, l.details.run?.role])).toEqual([
      ["edit_file", "refused", 1, "plan"],
      ["read_file", "ok", 1, "plan"],
      ["edit_file", undefined, 4, "act"], // its intent, before the change
      ["edit_file", "ok", 4, "act"],
      ["edit_file", "refused", 5, "plan"],
      ["read_file", "ok", 5, "plan"],
    ]);
    expect(lines.every((l) => l.details.via === "mcp" && l.details.run?.run_id === id)).toBe(true);
    expect(lines[0]!.details).toMatchObject({ code: "not_for_role", requested_path: "src/app.ts" });
    expect(cli(wt, ["ledger", "verify"]).code).toBe(0);
    // The version the edit replaced is in the archive, byte for byte.
    const restored = cli(wt, ["archive", "restore", "src/app.ts", "--number", "1", "--stdout"]);
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toBe(DRIFT["src/app.ts"]);
    // Reconciled: nothing left for the spec.
    expect((await getChangedArtifacts(wt, { specPath: SPEC })).changed_artifacts).toEqual([]);
  });

  it("files an agent changes through the tools count against max_changed_files: the run stops, naming them", async () => {
    const root = await runRepoAsync({
      extra: WORKSPACE_CONFIG,
      drift: DRIFT,
      config: { agents: { act: mcpAgent("act.json") }, budgets: { max_iterations: 5, max_changed_files: 2 } },
      behaviors: {
        "act.json": {
          calls: ["a", "b", "c"].map((n) => ({
            name: "edit_file",
            arguments: { path: `src/${n}.ts`, contents: `export const ${n} = 1;\n`, create_if_missing: true },
          })),
        },
      },
    });
    const r = cli(root, ["run", "--spec", SPEC, "--format", "json"]);
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout).result;
    expect(out.status).toBe("stopped");
    expect(out.reason).toBe(
      "max_changed_files exceeded: the act agent of step 4 changed src/a.ts, src/b.ts, src/c.ts, which makes it 3 (limit 2); the changes stay in the run's worktree " +
        `.norma/worktrees/${out.run_id} (overwritten versions in its workspace archive)`,
    );
    for (const n of ["a", "b", "c"]) expect(existsSync(join(root, `.norma/worktrees/${out.run_id}/src/${n}.ts`))).toBe(true);
    for (const n of ["a", "b", "c"]) expect(existsSync(join(root, `src/${n}.ts`))).toBe(false);
    const state = (await readNormaState(root))!;
    const ev = state.events(out.run_id).find((e) => e.type === "budget_exceeded")!;
    expect(JSON.parse(ev.data_json!)).toEqual({ budget: "max_changed_files", limit: 2, value: 3, step_index: 4, files: ["src/a.ts", "src/b.ts", "src/c.ts"] });
    expect(state.runs[0]).toMatchObject({ status: "stopped" });
    expect(stepDirs(root, out.run_id)).toEqual(["001-plan", "002-do", "003-check", "004-act"]);
  });
});
