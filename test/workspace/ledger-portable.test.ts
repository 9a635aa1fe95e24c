/**
 * The evidence ledger is committed, so the texts we compose into it name no local path
 * (ledger-portable.ts): refusals that would name the repository root or the home directory,
 * the executable a command ran as (inside the repository: repository-relative; under the
 * home directory: `~/…`), and a PATH listed by a command that was not found. Real processes,
 * a real repository inside a home directory of its own; the chain still verifies.
 */
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { portableText } from "../../src/workspace/ledger-portable.js";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { verifyLedger } from "../../src/workspace/verify-ledger.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { git, tempDir, writeTree } from "../helpers/temp-repo.js";

const ALLOW = '[[command]]\nargv = ["hometool"]\n\n[[command]]\nargv = ["missing-tool"]\n';

describe("the evidence ledger holds no local path", () => {
  it("refusals, executables and a PATH are written relative to the repository or the home directory", async () => {
    const home = tempDir("nr-home-");
    const root = join(home, "work", "proj");
    mkdirSync(root, { recursive: true });
    git(root, ["init", "-q", "-b", "main"]);
    writeTree(root, {
      "tools/allowed_commands.toml": ALLOW,
      ".notarai/config.yaml": "workspace:\n  test: [./scripts/test.sh]\n",
      "scripts/test.sh": "#!/bin/sh\necho tested\n",
    });
    chmodSync(join(root, "scripts/test.sh"), 0o755);
    writeFileSync(join(home, "secret.txt"), "s\n");
    symlinkSync(join(home, "secret.txt"), join(root, "link"));
    mkdirSync(join(home, "bin"));
    writeFileSync(join(home, "bin", "hometool"), "#!/bin/sh\necho from home\n", { mode: 0o755 });
    const ws = openWorkspace(root, { env: { PATH: `${join(home, "bin")}:/usr/bin:/bin`, HOME: home } });

    const outside = await runWorkspaceTool(ws, "read_file", { path: "link" });
    expect(outside.body).toMatchObject({ success: false, code: "outside_workspace" });
    const tests = await runWorkspaceTool(ws, "run_tests", {});
    expect(tests.body).toMatchObject({ success: true, stdout: "tested\n" });
    const tool = await runWorkspaceTool(ws, "run_command", { command: "hometool" });
    expect(tool.body).toMatchObject({ success: true, stdout: "from home\n" });
    const missing = await runWorkspaceTool(ws, "run_command", { command: "missing-tool" });
    expect(missing.body).toMatchObject({ success: false, code: "command_not_found" });

    const text = readFileSync(join(root, "docs/evidence_ledger.tools.log"), "utf8");
    const details = text
      .trimEnd()
      .split("\n")
      .map((l) => (JSON.parse(l) as { details: Record<string, unknown> }).details);
    expect(details.map((d) => [d["code"] ?? d["outcome"], d["executable"] ?? d["message"]])).toEqual([
      ["outside_workspace", '"link": resolves outside the repository; nothing was read or written'],
      // A command is an effect: its intent line before it runs, its outcome after.
      [undefined, "scripts/test.sh"],
      ["ok", "scripts/test.sh"],
      [undefined, "~/bin/hometool"],
      ["ok", "~/bin/hometool"],
      ["command_not_found", "missing-tool: not found on PATH (~/bin:/usr/bin:/bin; directories inside the repository are never searched)"],
    ]);
    expect(text).not.toContain(home);
    expect(verifyLedger(readFileSync(join(root, "docs/evidence_ledger.tools.log"))).ok).toBe(true);
  });

  it("portableText: whole paths only, the root before the home directory that holds it", () => {
    const root = "/home/ada/work/proj";
    const home = "/home/ada";
    expect(portableText(`open '${root}/docs/a.md'`, root, home)).toBe("open 'docs/a.md'");
    expect(portableText(`in ${root}: no`, root, home)).toBe("in .: no");
    expect(portableText(`${root}2/x and ${home}/.nvm/bin/node`, root, home)).toBe("~/work/proj2/x and ~/.nvm/bin/node");
    expect(portableText(`${home}-old/x /home/adam/y`, root, home)).toBe("/home/ada-old/x /home/adam/y");
    expect(portableText("/usr/bin/git", root, undefined)).toBe("/usr/bin/git");
  });
});
