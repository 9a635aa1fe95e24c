/**
 * "Did you mean" wherever a name is mistyped, through the real CLI and the real MCP server over
 * stdio: a command (no help dump), a flag (per command), a flag's value, a command's action, a
 * patch op name, a key of .norma/config.json and of .notarai/config.yaml, an MCP tool argument,
 * tool name and method. Also: a flag's value stays the string typed (`--actor-name 007`), and
 * a missing argument says which.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { tempDir, tempRepo } from "../helpers/temp-repo.js";

const DOC = '# A {#a}\n\n::risk{id="r1" owner="ops"}\nText.\n::\n';

describe("commands and flags", () => {
  it("an unknown command exits 2 with the closest command and no help dump", () => {
    const r = runCli(["chekc"], { cwd: tempDir("nr-dym-") });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("noma-reconcile: unknown command 'chekc'. Did you mean 'check'?\nRun `noma-reconcile --help` for the list of commands.\n");
    const withHelp = runCli(["chekc", "--help"], { cwd: tempDir("nr-dym-") });
    expect(withHelp).toMatchObject({ code: 2, stdout: "" });
    expect(withHelp.stderr).toContain("Did you mean 'check'?");
    const far = runCli(["xyzzy"], { cwd: tempDir("nr-dym-") });
    expect(far.code).toBe(2);
    expect(far.stderr).toContain("unknown command 'xyzzy'.\n");
    expect(far.stderr).not.toContain("Did you mean");
  });

  it("a flag before any command is not a command; `help [command]` is `[command] --help`", () => {
    const cwd = tempDir("nr-dym-");
    expect(runCli(["--frobnicate"], { cwd })).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringContaining("unknown option '--frobnicate' before any command."),
    });
    const help = runCli(["help", "governs"], { cwd });
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(runCli(["governs", "--help"], { cwd }).stdout);
    expect(runCli(["help"], { cwd }).stdout).toBe(runCli(["--help"], { cwd }).stdout);
    expect(runCli(["help", "chekc"], { cwd })).toMatchObject({ code: 2, stderr: expect.stringContaining("Did you mean 'check'?") });
  });

  it("an unknown flag exits 2 naming the closest flag of that command", () => {
    const repo = tempRepo({ "a.noma": DOC });
    const r = runCli(["check", "--stagd"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--stagd' for check. Did you mean '--staged'?");
    // Per command: --max-iteration belongs to run, not to patch.
    expect(runCli(["run", "--max-iteration", "3"], { cwd: repo }).stderr).toContain("Did you mean '--max-iterations'?");
    const p = runCli(["patch", "a.noma", "--actor-nme", "x", "--op", "{}"], { cwd: repo });
    expect(p.code).toBe(2);
    expect(p.stderr).toContain("unknown option '--actor-nme' for patch. Did you mean '--actor-name'?");
    expect(readFileSync(join(repo, "a.noma"), "utf8")).toBe(DOC);
  });

  it("a bad flag value and an unknown action name the closest choice; no --action flag is mentioned", () => {
    const repo = tempRepo({ "a.noma": DOC });
    expect(runCli(["check", "--format", "jsn"], { cwd: repo }).stderr).toContain(
      '--format must be one of text, json, github, sarif; got "jsn" (did you mean "json"?)',
    );
    const state = runCli(["state", "shwo"], { cwd: repo });
    expect(state.code).toBe(2);
    expect(state.stderr).toContain("unknown action 'shwo' for state; expected snapshot, show or reset. Did you mean 'show'?");
    for (const [cmd, word, expected] of [
      ["state", "bogus", "snapshot, show or reset"],
      ["cache", "stauts", "status or clear"],
      ["specs", "validte", "validate or schema"],
      ["runs", "lst", "list, show, report, apply or prune"],
      ["ledger", "verfy", "verify"],
      ["archive", "lis", "list or restore"],
      ["transcript", "acept", "verify or accept"],
    ] as const) {
      const r = runCli([cmd, word], { cwd: repo });
      expect(r.code, `${cmd} ${word}`).toBe(2);
      expect(r.stderr, `${cmd} ${word}`).toContain(`unknown action '${word}' for ${cmd}; expected ${expected}.`);
      expect(r.stderr).not.toContain("--action");
      if (word !== "bogus") expect(r.stderr, `${cmd} ${word}`).toContain("Did you mean '");
    }
    expect(runCli(["schema", "patchop"], { cwd: repo }).stderr).toContain("Did you mean 'patch-op'?");
    const missing = runCli(["state"], { cwd: repo });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("state needs <action>");
  });

  it("a flag's value is the string typed, even when it looks like a number", () => {
    const repo = tempRepo({ "a.noma": DOC });
    const r = runCli(["patch", "a.noma", "--actor-name", "007", "--op", '{"op":"update_attribute","id":"r1","key":"owner","value":"sec"}'], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    const record = JSON.parse(readFileSync(join(repo, "a.noma.patches"), "utf8").trim().split("\n").at(-1)!);
    expect(record.actor).toMatchObject({ name: "007" });
  });
});

describe("op names and configuration keys", () => {
  it("an unknown patch op suggests the closest op instead of listing all of them", () => {
    const repo = tempRepo({ "a.noma": DOC });
    const r = runCli(["patch", "a.noma", "--op", '{"op":"updte_attribute","id":"r1","key":"owner","value":"x"}'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('"updte_attribute" is not a v1.0 patch op (did you mean "update_attribute"?)');
    expect(r.stdout).not.toContain("delete_dataset_column");
  });

  it("a misspelt key of .norma/config.json is an error naming the key it meant", () => {
    const repo = tempRepo({ ".norma/config.json": '{"budgets": {"max_iteration": 3}}\n', "a.noma": DOC });
    const r = runCli(["run", "--goal", "g", "--ac", "AC1=true"], { cwd: repo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.norma/config.json: budgets.max_iteration: unknown key (did you mean "max_iterations"?)');
  });

  it("a misspelt key of .notarai/config.yaml is a warning naming the key it meant", () => {
    const repo = tempRepo({ ".notarai/config.yaml": "transcript: strict\n", "a.noma": DOC });
    const r = runCli(["check"], { cwd: repo });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('unknown key "transcript" (did you mean "transcripts"?)');
  });
});

describe("the MCP server", () => {
  const call = (id: number, name: string, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });

  it("names the argument, tool or method meant", () => {
    const repo = tempRepo({ "a.noma": DOC });
    const input = [
      call(1, "read_doc", { fiel: "a.noma" }),
      call(2, "read_file", { pth: "a.noma" }),
      call(3, "red_doc", { file: "a.noma" }),
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "tools/lst" }),
    ].join("\n");
    const r = runCli(["mcp"], { cwd: repo, input: `${input}\n` });
    expect(r.code).toBe(0);
    const replies = new Map(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean; content: { text: string }[] }; error?: { message: string } })
        .map((m) => [m.id, m]),
    );
    expect(replies.get(1)!.result!.isError).toBe(true);
    expect(replies.get(1)!.result!.content[0]!.text).toContain('unknown argument "fiel" (did you mean "file"?)');
    expect(replies.get(2)!.result!.isError).toBe(true);
    expect(replies.get(2)!.result!.content[0]!.text).toContain('unknown argument \\"pth\\" (did you mean \\"path\\"?)');
    expect(replies.get(3)!.error!.message).toContain('Unknown tool: red_doc (did you mean "read_doc"?)');
    expect(replies.get(4)!.error!.message).toBe('Method not found: tools/lst (did you mean "tools/list"?)');
  });
});
