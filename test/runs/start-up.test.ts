/**
 * What the ACP backend and the HTML report cost the paths that do not use them: the ACP SDK
 * (bundled with src/runs/agents/run-acp-agent.ts) loads only when a step's agent is `acp`, the
 * report's modules only for `runs show --html` and `runs report`, and neither on the pre-commit
 * hook, `run` with other agents or `runs show`. `run` and `runs` run from the cached body of
 * dist/bodies/services.cjs, where each module is initialised on its first import; which modules
 * load (ES modules, CommonJS files, and the modules a body initialises) is observed by
 * test/helpers/trace-loads.ts. playwright-core is a test dependency only.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { git } from "../helpers/temp-repo.js";
import { loadedSources, type TracedRun, traceLoads } from "../helpers/trace-loads.js";
import { runRepoAsync, SPEC } from "./helpers/run-repo.js";

const ACP_SOURCES = /^src\/runs\/agents\/(run-acp-agent|acp-bridge|acp-permission|acp-answer)\.ts$/;
const REPORT_SOURCES = /^src\/runs\/report\//;
const ACP_SDK = /^node_modules\/@agentclientprotocol\/sdk\//;
const ACP_AGENT = fileURLToPath(new URL("./helpers/acp-agent.mjs", import.meta.url));

const traced = (args: string[], cwd: string): TracedRun => traceLoads(args, { cwd });
/** The loaded sources of ours that match. */
const holding = (t: TracedRun, sources: RegExp): string[] => loadedSources(t).filter((i) => sources.test(i));

describe("start-up cost of the ACP backend and the HTML report", () => {
  it("the SDK and the report load only on their own paths", async () => {
    const root = await runRepoAsync({ drift: { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" } });
    git(root, ["add", "-A"]);
    const hook = traced(["check", "--staged"], root);
    expect(hook.code, hook.stderr).toBe(0);
    // A run with the built-in check only, runs list, runs show: neither.
    const run = traced(["run", "--spec", SPEC], root);
    expect(run.code, run.stderr).toBe(1);
    expect(loadedSources(run)).toContain("src/cli/commands/run-command.ts");
    const list = traced(["runs", "list"], root);
    const show = traced(["runs", "show"], root);
    for (const t of [hook, run, list, show]) {
      expect(holding(t, ACP_SOURCES)).toEqual([]);
      expect(t.inits.filter((k) => ACP_SDK.test(k))).toEqual([]);
      expect(holding(t, REPORT_SOURCES)).toEqual([]);
    }
    // The report's modules load for --html (so the probe can see them), the SDK still not.
    const html = traced(["runs", "show", "--html", ".norma/r.html"], root);
    expect(html.code, html.stderr).toBe(0);
    expect(holding(html, REPORT_SOURCES).length).toBeGreaterThan(0);
    expect(holding(html, ACP_SOURCES)).toEqual([]);
  });

  it("a run with an acp agent loads the ACP driver and the SDK", async () => {
    const root = await runRepoAsync({
      drift: { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" },
      config: { agents: { plan: { type: "acp", cmd: ["node", ACP_AGENT, "agents/plan.json"], timeout_ms: 60_000 } }, budgets: { max_iterations: 1 } },
      behaviors: { "plan.json": {} },
    });
    const run = traced(["run", "--spec", SPEC], root);
    expect(run.code, run.stderr).toBe(1);
    expect(holding(run, ACP_SOURCES)).toEqual([
      "src/runs/agents/acp-answer.ts",
      "src/runs/agents/acp-bridge.ts",
      "src/runs/agents/acp-permission.ts",
      "src/runs/agents/run-acp-agent.ts",
    ]);
    expect(run.inits.filter((k) => ACP_SDK.test(k)).length).toBeGreaterThan(0);
  });

  it("only the ACP driver imports the SDK; no source imports playwright", async () => {
    const src = fileURLToPath(new URL("../../src", import.meta.url));
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    const importing = (pkg: RegExp) => files.filter((f) => pkg.test(readFileSync(join(src, f), "utf8"))).sort();
    expect(importing(/from "@agentclientprotocol\/sdk"|import\("@agentclientprotocol\/sdk"\)/)).toEqual(["runs/agents/run-acp-agent.ts"]);
    expect(importing(/playwright/)).toEqual([]);
  });
});
