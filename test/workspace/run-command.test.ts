/**
 * run_command, run_tests and build_workspace with real processes:
 * - refused: commands off the allowlist, no allowlist, an invalid one (file:line), a
 *   command that is not a bare name (paths, spaces, shell syntax), environment keys the
 *   record does not accept, PATH / LD_PRELOAD, a timeout above the record's;
 * - shell metacharacters in arguments are plain bytes (no shell ever runs them);
 * - the environment is minimal: PATH (without repository directories) plus what the
 *   record names; a server secret never reaches the command; an executable inside the
 *   repository is never found through PATH;
 * - a timeout kills the command and everything it started; what a finished command
 *   left running is killed too; output is capped with truncated: true;
 * - a non-zero exit is a result (success: false, exit_code); run_tests / build_workspace
 *   run the configured argv, or answer not_configured naming the setting.
 * Every request, refused or not, is one ledger line.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace, type WorkspaceOptions } from "../../src/workspace/workspace.js";
import { tempRepo } from "../helpers/temp-repo.js";

const ALLOW = `
[[command]]
argv = ["echo", "**"]

[[command]]
argv = ["git", "status", "--short"]

[[command]]
argv = ["printenv", "*"]
environment = ["GREETING", "NPM_CONFIG_*"]
env = { FIXED = "yes" }
inherit = ["HOME"]

[[command]]
argv = ["sh", "-c", "*"]
timeout_seconds = 30

[[command]]
argv = ["evil"]
`;

function setup(extra: Record<string, string> = {}, options: WorkspaceOptions = {}) {
  const root = tempRepo({ "tools/allowed_commands.toml": ALLOW, "README.md": "hi\n", ...extra });
  const ws = openWorkspace(root, options);
  const call = (name: Parameters<typeof runWorkspaceTool>[1], args: unknown) => runWorkspaceTool(ws, name, args);
  const ledger = () => readFileSync(join(root, "docs/evidence_ledger.tools.log"));
  return { root, ws, call, ledger };
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("run_command refusals", () => {
  it("off the allowlist, not a bare name, bad environment, too long a timeout: refused and recorded", async () => {
    const { call, ledger } = setup();
    const refusals: Array<[unknown, string]> = [
      [{ command: "rm", args: ["-rf", "/"] }, "not_allowlisted"],
      [{ command: "git", args: ["status"] }, "not_allowlisted"],
      [{ command: "git", args: ["status", "--short", "--porcelain"] }, "not_allowlisted"],
      [{ command: "printenv", args: [] }, "not_allowlisted"],
      [{ command: "/bin/echo", args: ["x"] }, "invalid_arguments"],
      [{ command: "./echo" }, "invalid_arguments"],
      [{ command: "echo x" }, "invalid_arguments"],
      [{ command: "echo;rm" }, "invalid_arguments"],
      [{ command: "$(rm)" }, "invalid_arguments"],
      [{ command: "echo", args: ["a\0b"] }, "invalid_arguments"],
      [{ command: "printenv", args: ["X"], environment: { OTHER: "1" } }, "environment_refused"],
      [{ command: "printenv", args: ["X"], environment: { PATH: "/tmp" } }, "environment_refused"],
      [{ command: "printenv", args: ["X"], environment: { LD_PRELOAD: "/tmp/x.so" } }, "environment_refused"],
      [{ command: "printenv", args: ["X"], environment: { "BAD-NAME": "1" } }, "environment_refused"],
      [{ command: "sh", args: ["-c", "true"], timeout_seconds: 31 }, "invalid_arguments"],
      [{ command: "evil" }, "command_not_found"],
      [{ command: 42 }, "invalid_arguments"],
      [{ command: "echo", args: "not-a-list" }, "invalid_arguments"],
      [{ command: "echo", shell: true }, "invalid_arguments"],
    ];
    for (const [args, code] of refusals) {
      const r = await call("run_command", args);
      expect(r.body, JSON.stringify(args)).toMatchObject({ success: false, code });
      expect(r.failed).toBe(true);
    }
    const report = verifyLedger(ledger());
    expect(report).toMatchObject({ ok: true, lines: refusals.length });
    expect(ledger().toString()).toContain('"outcome":"refused","code":"not_allowlisted"');
  });

  it("no allowlist refuses everything; an invalid one is a config_error naming file and line", async () => {
    const none = setup({ "tools/allowed_commands.toml": "" });
    expect((await none.call("run_command", { command: "echo" })).body).toMatchObject({ code: "not_allowlisted" });
    const root = tempRepo({ "README.md": "x" });
    expect((await runWorkspaceTool(openWorkspace(root), "run_command", { command: "echo" })).body.message).toContain(
      "there is no allowlist (tools/allowed_commands.toml)",
    );
    const bad = setup({ "tools/allowed_commands.toml": '[[command]]\nargv = ["echo"]\n\n[[command]]\nargv = ["sh", "**", "-c"]\n' });
    const r = await bad.call("run_command", { command: "echo" });
    expect(r.status).toBe(500);
    expect(r.body.message).toContain("tools/allowed_commands.toml:4:1: [[command]] #2: argv[1]");
  });
});

describe("running commands", () => {
  it("passes shell metacharacters as plain bytes, from the repository root", async () => {
    const { root, call } = setup();
    const evil = ["$(touch pwned)", "`touch pwned2`", "; touch pwned3", "| tee pwned4", "&& touch pwned5", "> pwned6", "*"];
    const r = await call("run_command", { command: "echo", args: evil });
    expect(r.body).toMatchObject({ success: true, exit_code: 0, stdout: `${evil.join(" ")}\n` });
    for (const f of ["pwned", "pwned2", "pwned3", "pwned4", "pwned5", "pwned6"]) expect(existsSync(join(root, f))).toBe(false);
    const pwd = await call("run_command", { command: "sh", args: ["-c", "pwd"] });
    expect(pwd.body["stdout"]).toBe(`${root}\n`);
  });

  it("gives the command a minimal environment: sanitised PATH, the record's variables, accepted request keys; no server secrets", async () => {
    const binInRepo = "bin";
    const { root } = setup({}, {});
    mkdirSync(join(root, binInRepo));
    writeFileSync(join(root, binInRepo, "evil"), "#!/bin/sh\necho ran evil\n");
    chmodSync(join(root, binInRepo, "evil"), 0o755);
    const env = {
      PATH: `${join(root, binInRepo)}:${process.env["PATH"]}:relative/dir`,
      HOME: "/home/someone",
      SECRET_TOKEN: "s3cret",
      NPM_CONFIG_X: "from-server",
    };
    const ws = openWorkspace(root, { env });
    const all = await runWorkspaceTool(ws, "run_command", { command: "sh", args: ["-c", "env | sort"] });
    const lines = String(all.body["stdout"]).trim().split("\n");
    const names = lines.map((l) => l.split("=")[0]).filter((n) => n !== "PWD" && n !== "SHLVL" && n !== "_");
    expect(names).toEqual(["PATH"]);
    const path = lines
      .find((l) => l.startsWith("PATH="))!
      .slice(5)
      .split(":");
    expect(path).not.toContain(join(root, binInRepo));
    expect(path).not.toContain("relative/dir");
    expect(all.body["stdout"]).not.toContain("s3cret");
    const greet = await runWorkspaceTool(ws, "run_command", {
      command: "printenv",
      args: ["GREETING"],
      environment: { GREETING: "hello", NPM_CONFIG_COLOR: "false" },
    });
    expect(greet.body).toMatchObject({ success: true, stdout: "hello\n" });
    expect((await runWorkspaceTool(ws, "run_command", { command: "printenv", args: ["FIXED"] })).body["stdout"]).toBe("yes\n");
    expect((await runWorkspaceTool(ws, "run_command", { command: "printenv", args: ["HOME"] })).body["stdout"]).toBe("/home/someone\n");
    expect((await runWorkspaceTool(ws, "run_command", { command: "printenv", args: ["SECRET_TOKEN"] })).body).toMatchObject({
      success: false,
      exit_code: 1,
      stdout: "",
    });
    const evil = await runWorkspaceTool(ws, "run_command", { command: "evil" });
    expect(evil.body).toMatchObject({ success: false, code: "command_not_found" });
    expect(String(evil.body["message"])).toContain("directories inside the repository are never searched");
  });

  it("a timeout kills the command and everything it started; leftovers of a finished command are killed too", async () => {
    const { root, call } = setup();
    // The sleeps outlast any test's timeout: that the calls return at all shows nothing waited for them (no clock read).
    const r = await call("run_command", { command: "sh", args: ["-c", "sleep 3600 & echo $! > grandchild.pid; sleep 3600"], timeout_seconds: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ success: false, timed_out: true, exit_code: null });
    expect(String(r.body["message"])).toContain("timed out after 1 s");
    const grandchild = Number(readFileSync(join(root, "grandchild.pid"), "utf8"));
    for (let i = 0; i < 100 && alive(grandchild); i++) await new Promise((res) => setTimeout(res, 20));
    expect(alive(grandchild)).toBe(false);
    // A command that exits at once but leaves a process holding its output: the call returns, the process is gone.
    const left = await call("run_command", { command: "sh", args: ["-c", "sleep 3600 & echo $! > left.pid; echo done"] });
    expect(left.body).toMatchObject({ success: true, stdout: "done\n" });
    const leftPid = Number(readFileSync(join(root, "left.pid"), "utf8"));
    for (let i = 0; i < 100 && alive(leftPid); i++) await new Promise((res) => setTimeout(res, 20));
    expect(alive(leftPid)).toBe(false);
  });

  it("caps output (first and last halves kept, truncated: true) and reports non-zero exits as results", async () => {
    const { call } = setup();
    const big = await call("run_command", {
      command: "sh",
      args: ["-c", "i=0; while [ $i -lt 20000 ]; do echo line-$i; i=$((i+1)); done"],
      max_output_bytes: 4096,
    });
    expect(big.body["truncated"]).toBe(true);
    const out = String(big.body["stdout"]);
    expect(out.startsWith("line-0\nline-1\n")).toBe(true);
    expect(out.endsWith("line-19999\n")).toBe(true);
    expect(out).toMatch(/\[… \d+ bytes left out …\]/);
    expect(out.length).toBeLessThan(4096 + 100);
    const fail = await call("run_command", { command: "sh", args: ["-c", "echo oops >&2; exit 3"] });
    expect(fail.status).toBe(200);
    expect(fail.failed).toBe(false);
    expect(fail.body).toMatchObject({ success: false, exit_code: 3, stderr: "oops\n", message: "exited with status 3", truncated: false });
  });
});

describe("run_tests and build_workspace", () => {
  it("run the configured argv; not configured is 501 naming the setting", async () => {
    const { call } = setup({ ".notarai/config.yaml": "workspace:\n  test: [sh, -c, 'echo tests ran; exit 1']\n" });
    const t = await call("run_tests", {});
    expect(t.body).toMatchObject({ success: false, exit_code: 1, stdout: "tests ran\n" });
    const b = await call("build_workspace", {});
    expect(b.status).toBe(501);
    expect(b.body).toMatchObject({ success: false, code: "not_configured" });
    expect(String(b.body["message"])).toContain("workspace.build in .notarai/config.yaml");
    const ok = setup({ ".notarai/config.yaml": "workspace:\n  build: [git, status, --short]\n" });
    expect((await ok.call("build_workspace", { timeout_seconds: 60 })).body).toMatchObject({ success: true, exit_code: 0 });
    expect((await ok.call("build_workspace", { timeout_seconds: "soon" })).body).toMatchObject({ code: "invalid_arguments" });
    expect(verifyLedger(ok.ledger()).ok).toBe(true);
  });
});
