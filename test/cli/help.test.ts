/**
 * `--help` that teaches, through the real CLI: the top-level help lists the commands in groups
 * (once each) and says in one line where a command's details are; each command's help ends
 * with its own exit codes, which say what that command does (checked against what it does for
 * governs and patch); a --no-X flag shows no "(default: true)".
 */
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const GROUPS = ["Documents", "Reconciliation", "Hooks and CI", "Runs", "Workspace", "MCP", "Editors"];

/** The sections of a help text: title → body lines. */
function sections(help: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const line of help.split("\n")) {
    const title = /^([A-Z][A-Za-z ]*):$/.exec(line)?.[1];
    if (title !== undefined) out.set(title, (current = []));
    else if (line.trim() === "") current = undefined;
    else current?.push(line);
  }
  return out;
}

const commandOf = (line: string): string => line.trim().split(/\s+/)[0]!;

function helpOf(command: string, cwd: string): Map<string, string[]> {
  const r = runCli([command, "--help"], { cwd });
  expect(r.code, `${command} --help`).toBe(0);
  return sections(r.stdout);
}

function exitBlock(command: string, cwd: string, help = helpOf(command, cwd)): string[] {
  const block = help.get("Exit codes");
  expect(block, `${command} --help has an exit-code block`).toBeDefined();
  return block!;
}

describe("top-level help", () => {
  const top = runCli(["--help"], { cwd: tempDir("nr-help-") });
  const s = sections(top.stdout);

  it("lists every command once, under the seven groups in order, and says where each command's details are", () => {
    expect(top.code).toBe(0);
    const titles = [...s.keys()];
    expect(titles.filter((t) => GROUPS.includes(t))).toEqual(GROUPS);
    expect(titles).not.toContain("Commands");
    expect(titles).not.toContain("Other commands");
    const listed = GROUPS.flatMap((g) => s.get(g)!.map(commandOf));
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed).toEqual(expect.arrayContaining(["check", "patch", "governs", "mark-reconciled", "init", "ci", "run", "runs", "serve", "mcp"]));
    expect(listed.length).toBeGreaterThan(25);
    expect(s.get("Documents")!.map(commandOf)).toContain("check");
    expect(s.get("Reconciliation")!.map(commandOf)).toContain("governs");
    expect(s.get("Hooks and CI")!.map(commandOf)).toContain("ci");
    expect(s.get("Runs")!.map(commandOf)).toEqual(["run", "runs", "reconcile"]);
    expect(s.get("Workspace")!.map(commandOf)).toEqual(["serve", "ledger", "archive"]);
    expect(s.get("MCP")!.map(commandOf)).toEqual(["mcp"]);
    expect(s.get("Editors")!.map(commandOf)).toEqual(["lsp"]);
    // One line instead of one "$ noma-reconcile X --help" per command.
    expect(top.stdout).toContain("Run `noma-reconcile <command> --help` for a command's options, exit codes and examples.");
    expect(top.stdout).not.toMatch(/\$ noma-reconcile \S+ --help/);
    // One line per command, a heading and a blank line per group, and the usage, options and exit codes around them.
    expect(top.stdout.split("\n").length).toBeLessThan(listed.length + 2 * GROUPS.length + 18);
    expect(s.get("Exit codes")!.join("\n")).toContain("1  findings (each command's --help says which)");
  });

  it("every command listed has its own exit codes and at least two examples in its --help", () => {
    const cwd = tempDir("nr-help-");
    for (const cmd of GROUPS.flatMap((g) => s.get(g)!.map(commandOf))) {
      const help = helpOf(cmd, cwd);
      const block = exitBlock(cmd, cwd, help).join("\n");
      expect(block, cmd).toMatch(/^ {2}0 {2}/);
      expect(block, cmd).not.toContain("findings (each command's --help says which)");
      if (cmd !== "verify") expect(block, cmd).not.toContain("fixture");
      expect(block, cmd).toContain("141  the reader of the output closed it early");
      const examples = help.get("Examples");
      expect(examples?.length ?? 0, `${cmd} --help: at least two examples`).toBeGreaterThanOrEqual(2);
    }
  });
});

describe("a command's exit codes say what that command does", () => {
  it("governs: 1 when some path has no spec, as its help says", () => {
    const repo = tempRepo({
      ".notarai/a.spec.yaml": "schema_version: '0.7'\nintent: x\nbehaviors: []\nartifacts:\n  code: ['src/**']\n",
      "src/x.ts": "",
      "README.md": "",
    });
    const help = exitBlock("governs", repo);
    const check = exitBlock("check", repo);
    expect(help).not.toEqual(check);
    expect(help).toContain("  1  some path is governed by none (listed)");
    expect(runCli(["governs", "README.md"], { cwd: repo }).code).toBe(1);
  });

  it("patch: 1 when the op list is rejected (recorded, the document untouched), 2 for a usage error", () => {
    const repo = tempRepo({ "a.noma": "# A\n\nText.\n" });
    const help = exitBlock("patch", repo).join("\n");
    expect(help).not.toEqual(exitBlock("check", repo).join("\n"));
    expect(help).toContain("  1  rejected: an op failed");
    expect(help).toContain("  2  usage error (no --op/--ops");
    expect(runCli(["patch", "a.noma", "--op", '{"op":"delete_block","id":"nope"}'], { cwd: repo }).code).toBe(1);
    expect(runCli(["patch", "a.noma"], { cwd: repo }).code).toBe(2);
  });
});

describe("option help", () => {
  it('run --help shows --no-mark without "(default: true)"', () => {
    const r = runCli(["run", "--help"], { cwd: tempDir("nr-help-") });
    const line = r.stdout.split("\n").find((l) => l.trimStart().startsWith("--no-mark"));
    expect(line?.trim()).toBe("--no-mark                 On PASS, do not mark the governed files reconciled nor write the snapshot");
    expect(line).not.toContain("(default: true)");
  });
});
