/**
 * The coding agent's gate, driven exactly as Claude Code drives it (agent-hook-project.ts: the
 * command `init --agent claude` registers, run by a shell with the tool call on stdin, in a
 * project where the package is installed as `npm i -D` leaves it), for every decision:
 *
 * - an Edit, a MultiEdit or a Write of an existing document: refused before it runs, the
 *   reason naming patch_block and `noma-reconcile patch` and giving the op; the op, sent
 *   through the real MCP server (patch_block) or the offered command line, makes exactly the
 *   document the agent meant;
 * - a change no single block carries: refused, saying why, with the document's sha256;
 * - a transcript, the evidence ledger (default and configured place): refused, always;
 * - a new document: written when valid, refused with its errors (code, line, message);
 * - shell commands that write a document or a transcript: refused; commands that read: let through;
 * - any other file, a path outside the repository: let through, silently;
 * - after an edit of a governed file: the spec, its glob and the MCP tools to reconcile;
 * - garbage or unknown input: one line on stderr, exit 1 (never 2, which would block);
 * - a document write the gate cannot judge (a document it cannot read): refused, never let through;
 * - input that never ends: given up after 10 s, exit 1;
 * - NOMA_RECONCILE_SKIP, and a project where nothing is installed.
 */
import { createHash } from "node:crypto";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { McpClient } from "../mcp/helpers/mcp-client.js";
import { tempDir } from "../helpers/temp-repo.js";
import { agentProject, denyReason, expectAllowed, offeredCommand, offeredPatch } from "./agent-hook-project.js";

const PLAN = '# Plan\n\n::claim{id="c1" confidence=0.5}\nThe app works.\n::\n\n::evidence{id="e1" for="c1"}\nIt ran in production.\n::\n\nSome prose.\n';
const SPEC = `schema_version: "0.7"
intent: "The app"
behaviors:
  - name: works
    given: a call
    then: it answers
artifacts:
  code:
    - path: "src/**"
`;

const sha256 = (text: string): string => createHash("sha256").update(text).digest("hex");

function project() {
  return agentProject({ "docs/plan.noma": PLAN, "src/app.ts": "export const app = 1;\n", ".notarai/app.spec.yaml": SPEC });
}

describe("agent-hook: Claude Code's PreToolUse on documents", () => {
  it("an Edit of an existing document is refused with the op; patch_block with those arguments makes exactly the meant document", async () => {
    const p = project();
    const doc = join(p.root, "docs/plan.noma");
    const r = p.hook("PreToolUse", "Edit", { file_path: doc, old_string: "confidence=0.5", new_string: "confidence=0.9" });
    const reason = denyReason(r);
    expect(reason).toContain("docs/plan.noma is a Noma document");
    expect(reason).toContain("mcp__noma-reconcile__patch_block");
    expect(reason).toContain("noma-reconcile patch docs/plan.noma");
    const args = offeredPatch(reason);
    expect(args).toMatchObject({
      file: "docs/plan.noma",
      op: { op: "update_attribute", id: "c1", key: "confidence", value: 0.9, baseHash: expect.stringMatching(/^[0-9a-f]{16}$/) },
      base_sha256: sha256(PLAN),
      actor: { kind: "agent", name: "claude-code" },
    });
    expect(readFileSync(doc, "utf8")).toBe(PLAN);
    // Sent as offered, through the MCP server .mcp.json registers.
    const entry = JSON.parse(readFileSync(join(p.root, ".mcp.json"), "utf8")).mcpServers["noma-reconcile"];
    const c = new McpClient(p.root, [entry.command, ...entry.args]);
    await c.initialize();
    expect(await c.ok("patch_block", args)).toMatchObject({ ok: true, transcript_entry: { patch_result: "applied" } });
    expect((await c.close()).code).toBe(0);
    expect(readFileSync(doc, "utf8")).toBe(PLAN.replace("confidence=0.5", "confidence=0.9"));
    expect(existsSync(`${doc}.patches`)).toBe(true);
  });

  it("a MultiEdit inside one body, and a Write of the whole document: replace_body, and the offered command line applies it", () => {
    const p = project();
    const doc = join(p.root, "docs/plan.noma");
    const multi = denyReason(
      p.hook("PreToolUse", "MultiEdit", {
        file_path: doc,
        edits: [
          { old_string: "It ran in production.", new_string: "It ran in production\nfor a week." },
          { old_string: "for a week.", new_string: "for a month.", replace_all: false },
        ],
      }),
    );
    expect(offeredPatch(multi).op).toMatchObject({ op: "replace_body", id: "e1", content: "It ran in production\nfor a month." });
    const meant = PLAN.replace("The app works.", "The app works, mostly.\nSee the logs.");
    const write = denyReason(p.hook("PreToolUse", "Write", { file_path: doc, content: meant }));
    expect(offeredPatch(write).op).toMatchObject({ op: "replace_body", id: "c1", content: "The app works, mostly.\nSee the logs." });
    const command = offeredCommand(write);
    expect(command).toMatch(/^npx noma-reconcile patch docs\/plan\.noma --base-sha256 [0-9a-f]{64} --actor-kind agent --actor-name claude-code --op '/);
    const run = spawnSync("sh", ["-c", command], { cwd: p.root, encoding: "utf8", env: { ...process.env, npm_config_offline: "true" } });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(readFileSync(doc, "utf8")).toBe(meant);
  });

  it("a change no single block carries is refused with why, the document's sha256 and read_doc; a Write that changes nothing runs", () => {
    const p = project();
    const doc = join(p.root, "docs/plan.noma");
    const prose = denyReason(p.hook("PreToolUse", "Edit", { file_path: doc, old_string: "Some prose.", new_string: "Other prose." }));
    expect(prose).toContain("No op list is offered: the change (line 11) is outside every directive with an id");
    expect(prose).toContain(`"base_sha256":"${sha256(PLAN)}"`);
    expect(prose).toContain("mcp__noma-reconcile__read_doc");
    expect(prose).toContain("transcript accept docs/plan.noma");
    const two = denyReason(
      p.hook("PreToolUse", "Write", { file_path: doc, content: PLAN.replace("The app works.", "A").replace("It ran in production.", "B") }),
    );
    expect(two).toContain('spans several blocks ("c1", "e1"): send one op per block');
    const missing = denyReason(p.hook("PreToolUse", "Edit", { file_path: doc, old_string: "not in the document", new_string: "x" }));
    expect(missing).toContain("The edit would not apply as written (old_string does not occur in the document)");
    expectAllowed(p.hook("PreToolUse", "Write", { file_path: doc, content: PLAN }));
  });

  it("a new document: written when valid; refused with each error's code, line and message when not", () => {
    const p = project();
    expectAllowed(p.hook("PreToolUse", "Write", { file_path: join(p.root, "docs/new.noma"), content: "# New\n\nAll good.\n" }));
    const reason = denyReason(
      p.hook("PreToolUse", "Write", { file_path: join(p.root, "docs/bad.noma"), content: '# Bad\n\n::evidence{id="e9" for="nope"}\nx\n::\n' }),
    );
    expect(reason).toContain("docs/bad.noma would be a new Noma document with an error");
    expect(reason).toMatch(/ {2}docs\/bad\.noma:3: \[broken-reference\] .*nope/);
  });

  it("transcripts and the evidence ledger are never written, at their default or configured place", () => {
    const p = project();
    const t = denyReason(p.hook("PreToolUse", "Write", { file_path: join(p.root, "docs/plan.noma.patches"), content: "{}\n" }));
    expect(t).toContain("docs/plan.noma.patches is the edit transcript of docs/plan.noma");
    const l = denyReason(p.hook("PreToolUse", "Edit", { file_path: join(p.root, "docs/evidence_ledger.tools.log"), old_string: "a", new_string: "b" }));
    expect(l).toContain("docs/evidence_ledger.tools.log is the workspace tools' evidence ledger");
    writeFileSync(join(p.root, ".notarai/config.yaml"), "workspace:\n  ledger: audit/tools.log\n");
    const moved = denyReason(p.hook("PreToolUse", "Write", { file_path: join(p.root, "audit/tools.log"), content: "x\n" }));
    expect(moved).toContain("audit/tools.log is the workspace tools' evidence ledger");
    expectAllowed(p.hook("PreToolUse", "Write", { file_path: join(p.root, "docs/evidence_ledger.tools.log"), content: "x\n" }));
  });
});

describe("agent-hook: Claude Code's PreToolUse on Bash", () => {
  it("refuses commands that write a document or a transcript; lets through those that read, and writes of other files", () => {
    const p = project();
    const denied: Array<[string, string]> = [
      ["sed -i 's/0.5/0.9/' docs/plan.noma", "docs/plan.noma (sed -i)"],
      ["perl -pi -e 's/a/b/' docs/plan.noma", "docs/plan.noma (perl -i)"],
      ["echo '# New' > docs/new.noma", "docs/new.noma (> redirection)"],
      ["cat src/app.ts | tee -a docs/plan.noma", "docs/plan.noma (tee)"],
      ["cp /tmp/x.noma docs/plan.noma", "docs/plan.noma (cp onto it)"],
      ["cd docs && mv plan.noma other.noma", "docs/other.noma (mv onto it)"],
      ["for f in docs/*.noma; do sed -i 's/a/b/' \"$f\"; done", "docs/plan.noma (sed -i)"],
      ['f=docs/plan.noma; printf x >> "$f"', "docs/plan.noma (>> redirection)"],
      ["bash -c 'echo x > docs/plan.noma'", "docs/plan.noma (> redirection)"],
    ];
    for (const [command, what] of denied) {
      const reason = denyReason(p.hook("PreToolUse", "Bash", { command }));
      expect(reason, command).toContain(what);
      expect(reason, command).toContain("mcp__noma-reconcile__patch_block");
    }
    expect(denyReason(p.hook("PreToolUse", "Bash", { command: "rm docs/plan.noma.patches" }))).toContain("is the edit transcript of docs/plan.noma");
    expect(denyReason(p.hook("PreToolUse", "Bash", { command: "ls docs/*.noma | xargs sed -i 's/a/b/'" }))).toContain(
      "may write a Noma document or transcript",
    );
    expect(denyReason(p.hook("PreToolUse", "Bash", { command: "find docs -name '*.noma' -exec sed -i 's/a/b/' {} +" }))).toContain(
      "may write a Noma document or transcript",
    );
    for (const command of [
      "cat docs/plan.noma",
      "grep -n claim docs/plan.noma > /tmp/claims.txt",
      "npx noma-reconcile check docs/plan.noma",
      "sed -n '1,5p' docs/plan.noma",
      "echo done > build.log && npm test 2>&1 | tee test.log",
      "rm -f dist/*.js",
      "git diff docs/plan.noma",
    ]) {
      expectAllowed(p.hook("PreToolUse", "Bash", { command }));
    }
  });
});

describe("agent-hook: other files, other events, bad input", () => {
  it("a document named through a symbolic link to the project is the project's document", () => {
    const p = project();
    const link = join(tempDir("nr-link-"), "project");
    symlinkSync(p.root, link);
    const r = p.hook(
      "PreToolUse",
      "Edit",
      { file_path: join(link, "docs/plan.noma"), old_string: "confidence=0.5", new_string: "confidence=0.6" },
      { env: { CLAUDE_PROJECT_DIR: link } },
    );
    expect(offeredPatch(denyReason(r))).toMatchObject({ file: "docs/plan.noma", op: { op: "update_attribute", value: 0.6 } });
  });

  it("lets any other file through silently, and paths outside the repository", () => {
    const p = project();
    expectAllowed(p.hook("PreToolUse", "Write", { file_path: join(p.root, "src/app.ts"), content: "export const app = 2;\n" }));
    expectAllowed(p.hook("PreToolUse", "Edit", { file_path: "/tmp/elsewhere.noma", old_string: "a", new_string: "b" }));
    expectAllowed(p.hook("PreToolUse", "Read", { file_path: join(p.root, "docs/plan.noma") }));
    expectAllowed(p.hook("PreToolUse", "mcp__noma-reconcile__patch_block", { file: "docs/plan.noma", op: {} }));
  });

  it("after an edit of a governed file: the spec, its glob, and the MCP tools to see its diff and mark it reconciled; nothing for other files", () => {
    const p = project();
    writeFileSync(join(p.root, "src/app.ts"), "export const app = 2;\n");
    const r = p.hook("PostToolUse", "Edit", { file_path: join(p.root, "src/app.ts"), old_string: "1", new_string: "2" });
    expect(r.code, r.stderr).toBe(0);
    const context = r.json?.["hookSpecificOutput"];
    expect(context).toMatchObject({ hookEventName: "PostToolUse" });
    expect(context.additionalContext).toContain('src/app.ts is governed by .notarai/app.spec.yaml (artifacts code: "src/**")');
    expect(context.additionalContext).toContain("leaves it unreconciled");
    expect(context.additionalContext).toContain('mcp__noma-reconcile__get_spec_diff {"spec_path":".notarai/app.spec.yaml","base_branch":"main"}');
    expect(context.additionalContext).toContain('mcp__noma-reconcile__mark_reconciled {"files":["src/app.ts"],"spec_path":".notarai/app.spec.yaml"}');
    expectAllowed(p.hook("PostToolUse", "Write", { file_path: join(p.root, "README.md"), content: "x\n" }));
  });

  it("garbage or unknown input: one line on stderr, exit 1 (never 2), nothing on stdout, never a hang", () => {
    const p = project();
    const cases: Array<[string, RegExp]> = [
      ["not json", /^noma-reconcile agent-hook: the input is not JSON \(.+\): expected the tool call as one JSON object on stdin\n$/],
      ["", /^noma-reconcile agent-hook: no input: expected the tool call as JSON on stdin/],
      ["[1,2]", /^noma-reconcile agent-hook: expected the tool call as a JSON object, found a list\n$/],
      ['{"tool_name":"Write"}', /^noma-reconcile agent-hook: hook_event_name: expected PreToolUse, PostToolUse, BeforeTool or AfterTool, found nothing\n$/],
      ['{"hook_event_name":"Stop","tool_name":"Write"}', /^noma-reconcile agent-hook: hook_event_name: "Stop" is not a tool event/],
      [
        '{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"content":"x"}}',
        /^noma-reconcile agent-hook: Write: tool_input\.file_path: expected a file path, found nothing\n$/,
      ],
    ];
    for (const [raw, message] of cases) {
      const r = p.hook("PreToolUse", "Write", {}, { raw });
      expect({ code: r.code, stdout: r.stdout }, raw).toEqual({ code: 1, stdout: "" });
      expect(r.stderr, raw).toMatch(message);
    }
  });

  it("a document the gate cannot read is refused, never let through", () => {
    const p = project();
    mkdirSync(join(p.root, "docs/odd.noma"));
    const reason = denyReason(p.hook("PreToolUse", "Edit", { file_path: join(p.root, "docs/odd.noma"), old_string: "a", new_string: "b" }));
    expect(reason).toBe(
      "noma-reconcile: cannot read the Noma document docs/odd.noma (EISDIR: illegal operation on a directory, read), " +
        "so this Edit was stopped before it ran: a document is written only through the patch engine.",
    );
  });

  it("input that never ends (the agent's pipe held open): the gate gives up after 10 s, one line on stderr, exit 1", async () => {
    const p = project();
    // Half a tool call, and stdin never closed: the gate must not wait for ever.
    const child = spawn("sh", ["-c", p.command("PreToolUse")], { cwd: p.root, env: { ...process.env, CLAUDE_PROJECT_DIR: p.root } });
    const out: string[] = [];
    const err: string[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b.toString()));
    child.stderr.on("data", (b: Buffer) => err.push(b.toString()));
    child.stdin.write('{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":');
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.destroy();
    expect({ code, stdout: out.join(""), stderr: err.join("") }).toEqual({
      code: 1,
      stdout: "",
      stderr: `noma-reconcile agent-hook: no end of input within 10 s: noma-reconcile agent-hook reads a coding agent's tool call as JSON on stdin (Claude Code, Codex, Gemini CLI, OpenCode's plugin): see \`noma-reconcile agent-hook --help\`\n`,
    });
  }, 60_000);

  it("NOMA_RECONCILE_SKIP lets everything through; with nothing installed the hook says so and exits 1 (the agent carries on)", () => {
    const p = project();
    expectAllowed(
      p.hook("PreToolUse", "Edit", { file_path: join(p.root, "docs/plan.noma"), old_string: "0.5", new_string: "0.9" }, { env: { NOMA_RECONCILE_SKIP: "1" } }),
    );
    const bare = agentProject({ "docs/plan.noma": PLAN }, "claude", { install: false });
    const r = bare.hook("PreToolUse", "Write", { file_path: join(bare.root, "docs/plan.noma"), content: "x" });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 1, stdout: "" });
    expect(r.stderr).toBe(
      `noma-reconcile: the coding agent's gate cannot run: noma-reconcile is not installed in ${bare.root} (no node_modules/noma-reconcile). Install it: npm i -D noma-reconcile\n`,
    );
  });
});
