/**
 * Each default, and the tool's URL, is written in one place and every text that states it says
 * the same (the real CLI, the real MCP server's tools/list):
 * - the project's page is package.json's `homepage` (its `repository` agrees): SARIF's
 *   informationUri and help link, the JSON Schema ids, the README `init` writes;
 * - the command timeout (the allowlist's default, run_tests', the request schema's text and maximum);
 * - the lock wait, the citation stale window, `serve`'s port and body limit, run_status' events
 *   and a run's iterations, in the help and the schemas that state them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LOCK_TIMEOUT_MS } from "../../src/fsx/lock-wait-default.js";
import { DEFAULT_HTTP_PORT, DEFAULT_MAX_BODY_BYTES } from "../../src/http/http-defaults.js";
import { DEFAULT_MAX_ITERATIONS, DEFAULT_MAX_STALLED_ITERATIONS } from "../../src/runs/run-config.js";
import { DEFAULT_RUN_STATUS_EVENTS } from "../../src/runs/run-status-defaults.js";
import { DEFAULT_STALE_DAYS } from "../../src/validate/default-stale-days.js";
import { TOOL_URL, TOOL_VERSION } from "../../src/version.js";
import { DEFAULT_COMMAND_TIMEOUT_SECONDS, MAX_COMMAND_TIMEOUT_SECONDS } from "../../src/workspace/command-timeout.js";
import { parseAllowlist } from "../../src/workspace/parse-allowlist.js";
import { PACKAGE_ROOT } from "../helpers/local-install.js";
import { runCli } from "../helpers/run-cli.js";
import { tempRepo } from "../helpers/temp-repo.js";

const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as {
  version: string;
  homepage: string;
  repository: { type: string; url: string };
};

describe("the tool's identity comes from package.json", () => {
  it("homepage and repository name the same project; the sources and the built CLI use them", () => {
    expect(pkg.homepage).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(pkg.repository).toEqual({ type: "git", url: `git+${pkg.homepage}.git` });
    expect([TOOL_URL, TOOL_VERSION]).toEqual([pkg.homepage, pkg.version]);
    expect(runCli(["--version"], { cwd: PACKAGE_ROOT }).stdout).toContain(pkg.version);
    for (const name of ["config", "norma-config"]) {
      const schema = JSON.parse(runCli(["schema", name], { cwd: PACKAGE_ROOT }).stdout) as { $id: string };
      expect(schema.$id).toBe(`${pkg.homepage}/schema/${name === "config" ? "config" : "norma-config"}.schema.json`);
    }
  });

  it("SARIF: informationUri is the homepage; the help link names the diagnostics reference, which exists", () => {
    const repo = tempRepo({ "b.noma": '::evidence{id="e" for="nope"}\nx\n::\n' });
    const log = JSON.parse(runCli(["check", "--format", "sarif"], { cwd: repo }).stdout) as {
      runs: Array<{ tool: { driver: { informationUri: string; rules: Array<{ help: { text: string } }> } } }>;
    };
    const driver = log.runs[0]!.tool.driver;
    expect(driver.informationUri).toBe(pkg.homepage);
    expect(driver.rules[0]!.help.text).toContain(`See ${pkg.homepage}/blob/HEAD/docs/documents.md#diagnostics for how to fix`);
    expect(readFileSync(join(PACKAGE_ROOT, "docs/documents.md"), "utf8")).toMatch(/^## Diagnostics$/m);
  });

  it("init's .notarai/README.md and spec schema name the homepage", () => {
    const repo = tempRepo({ "README.md": "x\n" });
    expect(runCli(["init"], { cwd: repo }).code).toBe(0);
    expect(readFileSync(join(repo, ".notarai/README.md"), "utf8")).toContain(`](${pkg.homepage})`);
    expect((JSON.parse(readFileSync(join(repo, ".notarai/notarai.spec.json"), "utf8")) as { $id: string }).$id).toBe(
      `${pkg.homepage}/schema/notarai.spec.json`,
    );
  });
});

describe("each default in one place", () => {
  it("the command timeout: the allowlist's default, and the request schema's maximum and text", () => {
    const parsed = parseAllowlist('[[command]]\nargv = ["git", "status"]\n', "allow.toml");
    expect(parsed.problems).toEqual([]);
    expect(parsed.allowlist.records[0]!.timeoutSeconds).toBe(DEFAULT_COMMAND_TIMEOUT_SECONDS);
    const over = parseAllowlist(`[[command]]\nargv = ["git"]\ntimeout_seconds = ${MAX_COMMAND_TIMEOUT_SECONDS + 1}\n`, "allow.toml");
    expect(over.problems.map((p) => p.message)).toEqual([
      `[[command]] #1: timeout_seconds: expected a whole number of seconds from 1 to ${MAX_COMMAND_TIMEOUT_SECONDS}, found ${MAX_COMMAND_TIMEOUT_SECONDS + 1}`,
    ]);
    const list = runCli(["mcp"], { cwd: tempRepo({ "a.txt": "x\n" }), input: `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })}\n` });
    const tools = (
      JSON.parse(list.stdout.split("\n")[0]!) as { result: { tools: Array<{ name: string; inputSchema: { properties: Record<string, unknown> } }> } }
    ).result.tools;
    for (const name of ["run_command", "run_tests", "build_workspace"]) {
      const timeout = tools.find((t) => t.name === name)!.inputSchema.properties["timeout_seconds"] as { maximum: number; description: string };
      expect(timeout.maximum, name).toBe(MAX_COMMAND_TIMEOUT_SECONDS);
      expect(timeout.description, name).toContain(`Default ${DEFAULT_COMMAND_TIMEOUT_SECONDS}, or the allowlist record's timeout_seconds`);
    }
    const events = tools.find((t) => t.name === "run_status")!.inputSchema.properties["events_limit"] as { description: string };
    expect(events.description).toContain(`(default ${DEFAULT_RUN_STATUS_EVENTS})`);
  });

  it("the help and the configuration schemas state the defaults the code uses", () => {
    expect(runCli(["patch", "--help"], { cwd: PACKAGE_ROOT }).stdout).toContain(`else ${DEFAULT_LOCK_TIMEOUT_MS / 1000})`);
    expect(runCli(["check", "--help"], { cwd: PACKAGE_ROOT }).stdout).toContain(`accessed= dates (default ${DEFAULT_STALE_DAYS})`);
    const serve = runCli(["serve", "--help"], { cwd: PACKAGE_ROOT }).stdout;
    expect(serve).toContain(`(default: ${DEFAULT_HTTP_PORT})`);
    expect(serve).toContain(`(default ${DEFAULT_MAX_BODY_BYTES / 1024 / 1024} MiB)`);
    const config = JSON.parse(runCli(["schema", "config"], { cwd: PACKAGE_ROOT }).stdout) as { properties: { lock_timeout: { description: string } } };
    expect(config.properties.lock_timeout.description).toContain(`default ${DEFAULT_LOCK_TIMEOUT_MS / 1000})`);
    const norma = JSON.parse(runCli(["schema", "norma-config"], { cwd: PACKAGE_ROOT }).stdout) as { properties: { budgets: { description: string } } };
    expect(norma.properties.budgets.description).toBe(
      `Limits of one run (max_iterations default ${DEFAULT_MAX_ITERATIONS}; max_stalled_iterations, default ${DEFAULT_MAX_STALLED_ITERATIONS}: stop when the open drift has not fallen for that many iterations)`,
    );
  });
});
