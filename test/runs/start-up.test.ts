/**
 * What the ACP backend and the HTML report cost the paths that do not use them: the ACP SDK
 * (bundled into the chunk of src/runs/agents/run-acp-agent.ts) loads only when a step's agent
 * is `acp`, the report's modules only for `runs show --html` and `runs report`, and neither on
 * the pre-commit hook, `run` with other agents or `runs show`. Which modules load is observed
 * with a module loader hook that writes every loaded URL to a file; which of our sources each
 * output holds, the build says (dist/inputs.json). playwright-core is a test dependency only.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { CLI } from "../helpers/run-cli.js";
import { git, tempDir } from "../helpers/temp-repo.js";
import { runRepoAsync, SPEC } from "./helpers/run-repo.js";

const DIST = join(CLI, "..");
const INPUTS = JSON.parse(readFileSync(join(DIST, "inputs.json"), "utf8")) as Record<string, string[]>;
const ACP_SOURCES = /^src\/runs\/agents\/(run-acp-agent|acp-bridge|acp-permission|acp-answer)\.ts$/;
const REPORT_SOURCES = /^src\/runs\/report\//;
const ACP_AGENT = fileURLToPath(new URL("./helpers/acp-agent.mjs", import.meta.url));

function traced(args: string[], cwd: string): { code: number | null; stderr: string; loaded: string[] } {
  const dir = tempDir("nr-trace-");
  const hook = join(dir, "trace.mjs");
  const out = join(dir, "loaded.txt");
  const loader = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(out)}, url + "\\n"); return next(url, context); }`;
  writeFileSync(hook, `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loader)}`)});\n`);
  writeFileSync(out, "");
  const r = spawnSync(process.execPath, ["--import", pathToFileURL(hook).href, CLI, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CI: "1" },
  });
  const loaded = readFileSync(out, "utf8")
    .split("\n")
    .filter((u) => u.startsWith(`file://${DIST}/`))
    .map((u) => fileURLToPath(u).slice(DIST.length + 1));
  return { code: r.status, stderr: r.stderr, loaded };
}

/** The loaded outputs holding sources that match. */
const holding = (loaded: readonly string[], sources: RegExp): string[] => loaded.filter((o) => (INPUTS[o] ?? []).some((i) => sources.test(i)));

describe("start-up cost of the ACP backend and the HTML report", () => {
  it("the SDK and the report load only on their own paths", async () => {
    const root = await runRepoAsync({ drift: { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" } });
    git(root, ["add", "-A"]);
    const hook = traced(["check", "--staged"], root);
    expect(hook.code, hook.stderr).toBe(0);
    // A run with the built-in check only, runs list, runs show: neither.
    const run = traced(["run", "--spec", SPEC], root);
    expect(run.code, run.stderr).toBe(1);
    expect(run.loaded).toContain("commands/run-command.js");
    const list = traced(["runs", "list"], root);
    const show = traced(["runs", "show"], root);
    for (const t of [hook, run, list, show]) {
      expect(holding(t.loaded, ACP_SOURCES)).toEqual([]);
      expect(holding(t.loaded, REPORT_SOURCES)).toEqual([]);
    }
    // The report's modules load for --html (so the probe can see them), the SDK still not.
    const html = traced(["runs", "show", "--html", ".norma/r.html"], root);
    expect(html.code, html.stderr).toBe(0);
    expect(holding(html.loaded, REPORT_SOURCES).length).toBeGreaterThan(0);
    expect(holding(html.loaded, ACP_SOURCES)).toEqual([]);
  });

  it("a run with an acp agent loads the SDK's chunk", async () => {
    const root = await runRepoAsync({
      drift: { "src/app.ts": "export const greet = (n: string) => `hi ${n}`;\n" },
      config: { agents: { plan: { type: "acp", cmd: ["node", ACP_AGENT, "agents/plan.json"], timeout_ms: 60_000 } }, budgets: { max_iterations: 1 } },
      behaviors: { "plan.json": {} },
    });
    const run = traced(["run", "--spec", SPEC], root);
    expect(run.code, run.stderr).toBe(1);
    const acp = holding(run.loaded, ACP_SOURCES);
    expect(acp).toHaveLength(1);
    expect(readFileSync(join(DIST, acp[0]!), "utf8")).toContain("session/request_permission");
  });

  it("only the ACP driver imports the SDK; no source imports playwright", async () => {
    const src = fileURLToPath(new URL("../../src", import.meta.url));
    const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    const importing = (pkg: RegExp) => files.filter((f) => pkg.test(readFileSync(join(src, f), "utf8"))).sort();
    expect(importing(/from "@agentclientprotocol\/sdk"|import\("@agentclientprotocol\/sdk"\)/)).toEqual(["runs/agents/run-acp-agent.ts"]);
    expect(importing(/playwright/)).toEqual([]);
  });
});
