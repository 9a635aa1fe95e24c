/**
 * The gate as Gemini CLI and Codex run it (the commands `init --agent gemini` and
 * `init --agent codex` register, stdin as each sends it): Gemini's BeforeTool/AfterTool with
 * write_file, replace and run_shell_command, answered `{"decision":"deny","reason":…}` and
 * `{}`; Codex's PreToolUse/PostToolUse with apply_patch (the patch text in
 * `tool_input.command`) and Bash, answered as Claude Code is.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { agentProject, denyReason, expectAllowed, offeredPatch } from "./agent-hook-project.js";

const PLAN = '# Plan\n\n::claim{id="c1" confidence=0.5}\nThe app works.\n::\n';
const SPEC =
  'schema_version: "0.7"\nintent: "x"\nbehaviors:\n  - name: works\n    given: a call\n    then: it answers\nartifacts:\n  code:\n    - path: "src/**"\n';

describe("agent-hook under Gemini CLI", () => {
  it("BeforeTool: write_file and replace of a document refused in Gemini's shape; other files answered {}; run_shell_command read in its directory", () => {
    const p = agentProject({ "docs/plan.noma": PLAN, "src/app.ts": "x\n", ".notarai/app.spec.yaml": SPEC }, "gemini");
    const doc = join(p.root, "docs/plan.noma");
    const r = p.hook("BeforeTool", "replace", { file_path: doc, old_string: "confidence=0.5", new_string: "confidence=0.7", expected_replacements: 1 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json).toEqual({ decision: "deny", reason: expect.stringContaining("docs/plan.noma is a Noma document") });
    expect(offeredPatch(r.json!["reason"])).toMatchObject({ op: { op: "update_attribute", value: 0.7 }, actor: { kind: "agent", name: "gemini-cli" } });
    const bad = p.hook("BeforeTool", "write_file", { file_path: join(p.root, "docs/new.noma"), content: '::evidence{for="x"}\nx\n::\n' });
    expect(bad.json).toEqual({ decision: "deny", reason: expect.stringMatching(/docs\/new\.noma:1: \[broken-reference\]/) });
    const created = p.hook("BeforeTool", "replace", {
      file_path: join(p.root, "docs/empty-old.noma"),
      old_string: "",
      new_string: '::evidence{for="y"}\nx\n::\n',
    });
    expect(created.json).toEqual({ decision: "deny", reason: expect.stringContaining("docs/empty-old.noma would be a new Noma document") });
    const code = p.hook("BeforeTool", "write_file", { file_path: join(p.root, "src/app.ts"), content: "y\n" });
    expect({ code: code.code, stdout: code.stdout, stderr: code.stderr }).toEqual({ code: 0, stdout: "{}\n", stderr: "" });
    const shell = p.hook("BeforeTool", "run_shell_command", { command: "sed -i s/0.5/0.6/ plan.noma", dir_path: "docs" });
    expect(shell.json).toEqual({ decision: "deny", reason: expect.stringContaining("docs/plan.noma (sed -i)") });
  });

  it("AfterTool on a governed file: additionalContext in Gemini's shape", () => {
    const p = agentProject({ "src/app.ts": "x\n", ".notarai/app.spec.yaml": SPEC }, "gemini");
    const r = p.hook("AfterTool", "write_file", { file_path: join(p.root, "src/app.ts"), content: "y\n" });
    expect(r.json).toEqual({
      hookSpecificOutput: { hookEventName: "AfterTool", additionalContext: expect.stringContaining("src/app.ts is governed by .notarai/app.spec.yaml") },
    });
  });
});

describe("agent-hook under Codex", () => {
  it("apply_patch: an update of a document refused with its op, a new invalid document refused, a valid one and code let through, a transcript's deletion refused", () => {
    const p = agentProject({ "docs/plan.noma": PLAN, "src/app.ts": "x\n" }, "codex");
    const update = "*** Begin Patch\n*** Update File: docs/plan.noma\n@@\n-The app works.\n+The app works well.\n*** End Patch\n";
    const reason = denyReason(p.hook("PreToolUse", "apply_patch", { command: update }));
    expect(offeredPatch(reason)).toMatchObject({ op: { op: "replace_body", id: "c1", content: "The app works well." }, actor: { name: "codex" } });
    const addBad = '*** Begin Patch\n*** Add File: docs/bad.noma\n+::evidence{for="nope"}\n+x\n+::\n*** End Patch\n';
    expect(denyReason(p.hook("PreToolUse", "apply_patch", { command: addBad }))).toMatch(/docs\/bad\.noma:1: \[broken-reference\]/);
    const addGood = "*** Begin Patch\n*** Add File: docs/good.noma\n+# Good\n+\n+Fine.\n*** Update File: src/app.ts\n@@\n-x\n+y\n*** End Patch\n";
    expectAllowed(p.hook("PreToolUse", "apply_patch", { command: addGood }));
    const del = "*** Begin Patch\n*** Delete File: docs/plan.noma.patches\n*** End Patch\n";
    expect(denyReason(p.hook("PreToolUse", "apply_patch", { command: del }))).toContain("docs/plan.noma.patches is the edit transcript of docs/plan.noma");
    expect(denyReason(p.hook("PreToolUse", "Bash", { command: "echo x >> docs/plan.noma" }))).toContain("docs/plan.noma (>> redirection)");
  });
});
