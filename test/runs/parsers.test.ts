/**
 * The run loop's parsers, with fixed cases and fast-check properties: the
 * AgentResponse / verdict / reconciled.json / patch.noma.json schemas (any
 * text in: a value or problems naming the key, never a throw), each CLI's
 * output extraction, `.norma/config.json`, `--ac ID=TEXT`, step directory
 * names, norma.md's goal, criteria and specs, the loop's next-step rule, `mcp --step`
 * values, `git status -z` entries, the stored run state, run.json, `git worktree list`
 * and the GitHub event.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AgentResponseSchema, NomaPatchFileSchema, parseJsonAs, ReconciledAckSchema, VerdictSchema } from "../../src/runs/agent-protocol.js";
import { extractResponse } from "../../src/runs/agents/extract-response.js";
import { parseStepDirName, stepDirName, ROLES } from "../../src/layout/norma-layout.js";
import { formatNormaMd, goalOfNormaMd, setupOfNormaMd } from "../../src/runs/norma-md.js";
import { readStored, RunStateError, STORED_RUN_STATE } from "../../src/runs/stored-run-state.js";
import { formatRunJson, readRunJson } from "../../src/runs/run-json.js";
import { parseWorktreeList } from "../../src/git/worktree-commands.js";
import { pullRequestOfEvent } from "../../src/github/github-event.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseRunConfig } from "../../src/runs/run-config.js";
import { generateCriteria, parseAcArg } from "../../src/runs/run-criteria.js";
import { nextStep } from "../../src/runs/next-step.js";
import type { StepRow } from "../../src/runs/norma-schema.js";
import { TOOL_CATALOG } from "../../src/mcp/tool-catalog.js";
import { formatAgentStep, parseAgentStep, READ_TOOLS, roleTools, WORK_TOOLS } from "../../src/runs/agent-step.js";
import { statusPaths } from "../../src/git/worktree-status.js";

const ROOT = "/repo";
const anyJson = fc.jsonValue();

describe("agent protocol schemas", () => {
  it("accept the spec's examples", () => {
    const resp = parseJsonAs(
      AgentResponseSchema,
      JSON.stringify({ version: 1, status: "ok", summary: "What happened", files: ["files/test.log", "scorecard.md"], next_actions: ["x"], errors: [] }),
      "stdout",
    );
    expect(resp.ok).toBe(true);
    const verdict = parseJsonAs(
      VerdictSchema,
      JSON.stringify({
        version: 1,
        verdict: "PASS",
        criteria: [{ id: "AC1", text: "All unit tests pass", pass: true, evidence: "files/test.log" }],
        metrics: { tests_passed: 123, tests_failed: 0 },
        blockers: [],
        recommended_fix: [],
      }),
      "verdict.json",
    );
    expect(verdict.ok).toBe(true);
  });

  it("name the key, what was expected and what was found", () => {
    expect(parseJsonAs(AgentResponseSchema, '{"version": 2, "status": "done", "summary": 3}', "stdout (AgentResponse)")).toEqual({
      ok: false,
      problems: [
        "stdout (AgentResponse): version: expected 1, found 2",
        'stdout (AgentResponse): status: expected one of "ok", "fail", found "done"',
        "stdout (AgentResponse): summary: expected a string, found 3",
      ],
    });
    expect(parseJsonAs(VerdictSchema, '{"version": 1, "verdict": "PASS", "criteria": [{"id": "", "pass": "yes"}]}', "verdict.json")).toEqual({
      ok: false,
      problems: ['verdict.json: criteria[0].id: expected a non-empty string, found ""', 'verdict.json: criteria[0].pass: expected a boolean, found "yes"'],
    });
    expect(parseJsonAs(ReconciledAckSchema, '[{"spec": "a"}]', "reconciled.json")).toEqual({
      ok: false,
      problems: ["reconciled.json: [0].path: expected a string, found nothing"],
    });
    expect(parseJsonAs(NomaPatchFileSchema, '[{"file": "d.noma", "ops": []}]', "patch.noma.json")).toEqual({
      ok: false,
      problems: ["patch.noma.json: [0].ops: expected a list of at least 1, found an empty list"],
    });
    const bad = parseJsonAs(AgentResponseSchema, "Sure! Here is the JSON you asked for", "stdout (AgentResponse)");
    expect(bad).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^stdout \(AgentResponse\) is not valid JSON \(.*\); it starts with "Sure! Here is the JSON you asked for"$/)],
    });
    expect(parseJsonAs(AgentResponseSchema, "   ", "stdout")).toMatchObject({ ok: false, problems: [expect.stringMatching(/; it is empty$/)] });
  });

  it("never throw on any text or any JSON value; a success is a valid object", () => {
    for (const schema of [AgentResponseSchema, VerdictSchema, ReconciledAckSchema, NomaPatchFileSchema]) {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            anyJson.map((v) => JSON.stringify(v)),
          ),
          (text) => {
            const r = parseJsonAs<unknown>(schema, text, "x");
            if (r.ok) expect(schema.safeParse(r.value).success).toBe(true);
            else {
              expect(r.problems.length).toBeGreaterThan(0);
              for (const p of r.problems) expect(p.startsWith("x")).toBe(true);
            }
          },
        ),
        { numRuns: 300 },
      );
    }
  });
});

describe("extractResponse", () => {
  const answer = '{"version":1,"status":"ok","summary":"s"}';
  it("takes each tool's answer out of its output format", () => {
    expect(extractResponse("exec", `  ${answer}\n`)).toEqual({ ok: true, text: answer });
    expect(extractResponse("codex", `\`\`\`json\n${answer}\n\`\`\`\n`)).toEqual({ ok: true, text: answer });
    expect(extractResponse("claude", JSON.stringify({ type: "result", is_error: false, result: answer }))).toEqual({ ok: true, text: answer });
    expect(extractResponse("claude", JSON.stringify({ type: "result", is_error: true, result: "rate limited" }))).toEqual({
      ok: false,
      problem: "claude reported an error: rate limited",
    });
    expect(extractResponse("gemini", JSON.stringify({ response: answer, stats: {} }))).toEqual({ ok: true, text: answer });
    expect(extractResponse("gemini", JSON.stringify({ response: "", error: { message: "quota" } }))).toEqual({
      ok: false,
      problem: "gemini reported an error: quota",
    });
    const events = [
      { type: "step_start" },
      { type: "text", part: { text: "thinking" } },
      { type: "step_start" },
      { type: "text", part: { text: answer.slice(0, 5) } },
      { type: "text", part: { text: answer.slice(5) } },
      { type: "step_finish" },
    ];
    expect(extractResponse("opencode", events.map((e) => JSON.stringify(e)).join("\n"))).toEqual({ ok: true, text: answer });
    expect(extractResponse("opencode", JSON.stringify({ type: "error", error: { message: "no model" } }))).toEqual({
      ok: false,
      problem: "opencode reported an error: no model",
    });
  });

  it("never throws, whatever a tool prints", () => {
    for (const type of ["exec", "codex", "claude", "gemini", "opencode"] as const) {
      fc.assert(
        fc.property(
          fc.oneof(
            fc.string(),
            anyJson.map((v) => JSON.stringify(v)),
            fc.array(anyJson.map((v) => JSON.stringify(v))).map((l) => l.join("\n")),
          ),
          (out) => {
            const r = extractResponse(type, out);
            expect(typeof r.ok).toBe("boolean");
            if (!r.ok) expect(r.problem.length).toBeGreaterThan(0);
          },
        ),
        { numRuns: 200 },
      );
    }
  });
});

describe(".norma/config.json", () => {
  it("accepts the spec's example and fills defaults", () => {
    const { config, problems } = parseRunConfig(
      JSON.stringify({
        agents: {
          plan: { type: "exec", cmd: ["./bin/norma-agent-plan"] },
          do: { type: "exec", cmd: ["./bin/norma-agent-do"] },
          check: { type: "exec", cmd: ["./bin/norma-agent-check"] },
          act: { type: "codex", model: "gpt-5-codex" },
        },
        budgets: { max_iterations: 5, max_patch_kb: 200 },
      }),
      ROOT,
    );
    expect(problems).toEqual([]);
    expect(config).toMatchObject({
      agents: { act: { type: "codex", model: "gpt-5-codex" } },
      budgets: { max_iterations: 5, max_patch_kb: 200 },
      risky: [],
      source: "file",
    });
    expect(parseRunConfig("{}", ROOT).config).toMatchObject({
      agents: { check: { type: "builtin" } },
      budgets: { max_iterations: 5 },
      worktrees: { dir: ".norma/worktrees" },
      retention: { keep_last: 20, keep_days: 30 },
    });
    expect(
      parseRunConfig(JSON.stringify({ budgets: { max_stalled_iterations: 2 }, worktrees: { dir: "/srv/wt/" }, retention: { keep_days: 7 } }), ROOT).config,
    ).toMatchObject({ budgets: { max_iterations: 5, max_stalled_iterations: 2 }, worktrees: { dir: "/srv/wt" }, retention: { keep_last: 20, keep_days: 7 } });
    const acp = parseRunConfig(JSON.stringify({ agents: { do: { type: "acp", cmd: ["npx", "some-acp-agent"], permissions: { execute: "deny" } } } }), ROOT);
    expect(acp.problems).toEqual([]);
    expect(acp.config?.agents.do).toEqual({ type: "acp", cmd: ["npx", "some-acp-agent"], permissions: { execute: "deny" } });
  });

  it("names the file, the key, what was expected and what was found", () => {
    const p = (v: unknown) => parseRunConfig(JSON.stringify(v), ROOT).problems;
    expect(p([])).toEqual([".norma/config.json: expected an object with agents, budgets, risky, worktrees, retention, found an empty list"]);
    expect(p({ agent: {} })).toEqual([
      '.norma/config.json: agent: unknown key (did you mean "agents"?) (known keys: agents, budgets, risky, worktrees, retention)',
    ]);
    expect(p({ agents: { review: { type: "exec", cmd: ["x"] } } })).toEqual([".norma/config.json: agents.review: unknown role (roles: plan, do, check, act)"]);
    expect(p({ agents: { pln: { type: "exec", cmd: ["x"] } } })).toEqual([
      '.norma/config.json: agents.pln: unknown role (did you mean "plan"?) (roles: plan, do, check, act)',
    ]);
    expect(p({ budgets: { max_iteration: 3 } })).toEqual(['.norma/config.json: budgets.max_iteration: unknown key (did you mean "max_iterations"?)']);
    expect(p({ agents: { act: { type: "claude", modle: "sonnet" } } })).toEqual(['.norma/config.json: agents.act.modle: unknown key (did you mean "model"?)']);
    expect(p({ agents: { act: { type: "exec", cmd: [] } } })).toEqual([
      ".norma/config.json: agents.act.cmd: expected a list of at least 1, found an empty list",
    ]);
    expect(p({ agents: { act: { type: "exec", cmd: "node agent.js" } } })).toEqual([
      '.norma/config.json: agents.act.cmd: expected a list, found "node agent.js"',
    ]);
    expect(p({ agents: { plan: { type: "builtin" } } })).toEqual([
      '.norma/config.json: agents.plan.type: "builtin" is only an agent for the check role (the built-in check); plan needs exec, codex, opencode, gemini, claude or acp',
    ]);
    expect(p({ agents: { act: { type: "claude", path: "../elsewhere" } } })).toEqual([
      `.norma/config.json: agents.act.path: expected a directory inside the repository, found "../elsewhere" (outside ${ROOT})`,
    ]);
    expect(p({ agents: { act: { type: "acp" } } })).toEqual([".norma/config.json: agents.act.cmd: expected a list, found nothing"]);
    expect(p({ agents: { act: { type: "acp", cmd: ["agent"], permissions: { write: "sometimes" } } } })).toEqual([
      '.norma/config.json: agents.act.permissions.write: expected one of "allow", "deny", "worktree", found "sometimes"',
    ]);
    expect(p({ agents: { act: { type: "acp", cmd: ["agent"], permissions: { execute: "worktree" } } } })).toEqual([
      '.norma/config.json: agents.act.permissions.execute: expected one of "allow", "deny", found "worktree"',
    ]);
    expect(p({ agents: { act: { type: "acp", cmd: ["agent"], permissions: { writes: "deny" } } } })).toEqual([
      '.norma/config.json: agents.act.permissions.writes: unknown key (did you mean "write"?)',
    ]);
    expect(p({ agents: { act: { type: "acp", cmd: ["agent"], model: "x" } } })).toEqual([".norma/config.json: agents.act.model: unknown key"]);
    expect(p({ budgets: { max_iterations: 0 } })).toEqual([".norma/config.json: budgets.max_iterations: expected a number ≥ 1, found 0"]);
    expect(p({ risky: "*.lock" })).toEqual(['.norma/config.json: risky: expected a list of globs (non-empty strings), found "*.lock"']);
    expect(p({ budgets: { max_stalled_iterations: 0 } })).toEqual([".norma/config.json: budgets.max_stalled_iterations: expected a number ≥ 1, found 0"]);
    expect(p({ worktrees: { dir: "../elsewhere" } })).toEqual([
      '.norma/config.json: worktrees.dir: expected a directory for the runs\' worktrees (repository-relative without "..", or absolute), found "../elsewhere"',
    ]);
    expect(p({ worktrees: { dir: ".git/wt" } })[0]).toMatch(/^\.norma\/config\.json: worktrees\.dir: expected a directory for the runs' worktrees/);
    expect(p({ worktrees: { dirs: "x" } })).toEqual(['.norma/config.json: worktrees.dirs: unknown key (did you mean "dir"?)']);
    expect(p({ retention: { keep_last: -1, keep_day: 3 } })).toEqual([
      ".norma/config.json: retention.keep_last: expected a number ≥ 0, found -1",
      '.norma/config.json: retention.keep_day: unknown key (did you mean "keep_days"?)',
    ]);
    expect(parseRunConfig('{\n  "agents": {\n    "act": { "type": "exec" "cmd": [] }\n  }\n}', ROOT).problems[0]).toMatch(
      /^\.norma\/config\.json:3:\d+: not valid JSON/,
    );
  });

  it("never throws on any text or any JSON value; a config or problems, never both", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          anyJson.map((v) => JSON.stringify(v)),
          fc
            .record({ agents: anyJson, budgets: anyJson, risky: anyJson, worktrees: anyJson, retention: anyJson }, { requiredKeys: [] })
            .map((v) => JSON.stringify(v)),
        ),
        (text) => {
          const r = parseRunConfig(text, ROOT);
          expect((r.config === null) !== (r.problems.length === 0)).toBe(true);
          for (const p of r.problems) expect(p.startsWith(".norma/config.json")).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("--ac, step directory names, norma.md, next step", () => {
  it("parses ID=TEXT", () => {
    expect(parseAcArg("AC1=All unit tests pass")).toEqual({ id: "AC1", text: "All unit tests pass" });
    expect(parseAcArg("AC-2=a=b")).toEqual({ id: "AC-2", text: "a=b" });
    for (const bad of ["AC1", "=text", "AC1=", "AC1=   ", "a b=c", ""]) expect(parseAcArg(bad), bad).toBeNull();
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseAcArg(s);
        if (r !== null) {
          expect(r.id).toMatch(/^[A-Za-z0-9_.-]+$/);
          expect(r.text.length).toBeGreaterThan(0);
          expect(s.startsWith(`${r.id}=`)).toBe(true);
        }
      }),
    );
  });

  it("step directory names round-trip, and nothing else parses", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(...ROLES), (i, role) => {
        expect(parseStepDirName(stepDirName(i, role))).toEqual({ index: i, role });
      }),
    );
    for (const bad of ["001-plan.tmp-1a2b3c4d", "01-plan", "000-plan", "001-review", "001-plan/", "x001-do"]) expect(parseStepDirName(bad), bad).toBeNull();
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = parseStepDirName(s);
        if (r !== null) expect(stepDirName(r.index, r.role).replace(/^0+/, "")).toBe(s.replace(/^0+/, ""));
      }),
    );
  });

  it("norma.md keeps the goal readable and recoverable", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((g) => g.trim().length > 0 && !g.includes("\n\n")),
        (goal) => {
          const md = formatNormaMd({
            runId: "20260105-100000-ab12cd",
            createdAt: "2026-01-05T10:00:00Z",
            goal,
            criteria: generateCriteria([".notarai/a.spec.yaml"], null),
            budgets: { max_iterations: 5 },
            specs: [".notarai/a.spec.yaml"],
          });
          expect(goalOfNormaMd(md)).toBe(goal.trim());
        },
      ),
    );
  });

  it("generated criteria: drift per spec, documents, and the test command when configured", () => {
    expect(generateCriteria([".notarai/a.spec.yaml", ".notarai/b.spec.yaml"], ["npm", "test"])).toEqual([
      { id: "AC1", text: "no unreconciled drift for .notarai/a.spec.yaml", kind: "drift", spec: ".notarai/a.spec.yaml" },
      { id: "AC2", text: "no unreconciled drift for .notarai/b.spec.yaml", kind: "drift", spec: ".notarai/b.spec.yaml" },
      { id: "AC3", text: "every changed .noma document and transcript valid", kind: "documents" },
      { id: "AC4", text: "the test command passes: npm test", kind: "tests", argv: ["npm", "test"] },
    ]);
  });

  it("the next step: plan → do → check → act → plan (next iteration); a failed step is retried; PASS ends", () => {
    const row = (step_index: number, role: StepRow["role"], iteration: number, status: StepRow["status"] = "ok"): StepRow => ({
      run_id: "r",
      step_index,
      role,
      iteration,
      status,
      step_dir: "",
      started_at: "",
      ended_at: null,
      summary: null,
    });
    expect(nextStep([], null)).toEqual({ role: "plan", iteration: 1 });
    expect(nextStep([row(1, "plan", 1)], null)).toEqual({ role: "do", iteration: 1 });
    expect(nextStep([row(1, "plan", 1), row(2, "do", 1, "skipped")], null)).toEqual({ role: "check", iteration: 1 });
    expect(nextStep([row(3, "check", 1)], "FAIL")).toEqual({ role: "act", iteration: 1 });
    expect(nextStep([row(3, "check", 1)], "PASS")).toBeNull();
    expect(nextStep([row(4, "act", 1)], "FAIL")).toEqual({ role: "plan", iteration: 2 });
    expect(nextStep([row(4, "act", 2, "fail")], "FAIL")).toEqual({ role: "act", iteration: 2 });
  });
});

describe("mcp --step, role tools, git status entries", () => {
  const runId = fc
    .tuple(fc.integer({ min: 0, max: 99_999_999 }), fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 0xffffff }))
    .map(([d, t, r]) => `${String(d).padStart(8, "0")}-${String(t).padStart(6, "0")}-${r.toString(16).padStart(6, "0")}`);

  it("--step values round-trip; anything else is a problem naming what was expected, never a throw", () => {
    fc.assert(
      fc.property(runId, fc.integer({ min: 1, max: 1_000_000 }), fc.constantFrom(...ROLES), (id, index, role) => {
        expect(parseAgentStep(formatAgentStep({ runId: id, index, role }))).toEqual({ ok: true, step: { runId: id, index, role } });
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const r = parseAgentStep(text);
        if (r.ok) expect(formatAgentStep(r.step).replace(/\/0+/, "/")).toBe(text.replace(/\/0+/, "/"));
        else expect(r.problem).toContain("--step: expected <run_id>/<NNN-role>");
      }),
    );
    for (const bad of [
      "",
      "20260105-100000-ab12cd",
      "20260105-100000-ab12cd/004-act/",
      "20260105-100000-AB12CD/004-act",
      "20260105-100000-ab12cd/000-do",
      "20260105-100000-ab12cd/04-do",
    ])
      expect(parseAgentStep(bad).ok, bad).toBe(false);
  });

  it("plan and check get only read-only tools; do and act add the workspace tools that write and run", () => {
    const writes = ["edit_file", "apply_patch", "run_command", "run_tests", "build_workspace", "write_file", "append_file", "create_directory", "move_file"];
    const never = ["mark_reconciled", "clear_cache", "snapshot_state", "patch_block"];
    for (const role of ["plan", "check"] as const) {
      expect(roleTools(role)).toContain("read_file");
      for (const t of [...writes, ...never]) expect(roleTools(role), `${role} ${t}`).not.toContain(t);
    }
    for (const role of ["do", "act"] as const) {
      const plan = roleTools("plan");
      expect(roleTools(role)).toEqual([...plan.slice(0, 8), ...writes.slice(0, 5), ...plan.slice(8, 18), ...writes.slice(5), ...plan.slice(18)]);
      for (const t of never) expect(roleTools(role)).not.toContain(t);
    }
  });

  it("the role policy names real tools, in the MCP catalog's order, and its read-only list is exactly the catalog's", () => {
    const names = TOOL_CATALOG.map((t) => t.name as string);
    for (const role of ["plan", "do", "check", "act"] as const) {
      const tools = roleTools(role);
      for (const t of tools) expect(names, t).toContain(t);
      expect(tools).toEqual(names.filter((n) => tools.includes(n)));
    }
    expect([...READ_TOOLS].sort()).toEqual(
      TOOL_CATALOG.filter((t) => t.annotations.readOnlyHint)
        .map((t) => t.name as string)
        .sort(),
    );
    for (const t of WORK_TOOLS) expect(TOOL_CATALOG.find((c) => c.name === t)?.annotations.readOnlyHint, t).toBe(false);
  });

  it("git status -z entries: every path back, renames with both names; never a throw", () => {
    expect(statusPaths(" M src/a.ts\0?? new file.txt\0R  b.ts\0a.ts\0")).toEqual([
      { code: " M", path: "src/a.ts" },
      { code: "??", path: "new file.txt" },
      { code: "R ", path: "b.ts" },
      { code: "R ", path: "a.ts" },
    ]);
    const entry = fc.tuple(
      fc.constantFrom(" M", "M ", "??", "A ", " D", "AM"),
      fc.string({ minLength: 1 }).filter((p) => !p.includes("\0")),
    );
    fc.assert(
      fc.property(fc.array(entry), (entries) => {
        expect(statusPaths(entries.map(([c, p]) => `${c} ${p}\0`).join(""))).toEqual(entries.map(([code, path]) => ({ code, path })));
      }),
    );
    fc.assert(fc.property(fc.string(), (text) => void statusPaths(text)));
  });
});

describe("stored run state, norma.md's set-up, run.json, git worktree list, the GitHub event", () => {
  it("reads stored values through their schemas; a damaged one is a RunStateError naming the run, the key and what was found", () => {
    const kv = new Map<string, unknown>([
      ["criteria", [{ id: "AC1", text: "t", kind: "drift", spec: ".notarai/a.spec.yaml" }]],
      ["budgets", { max_iterations: "5" }],
    ]);
    expect(readStored(kv, "R", "criteria")).toEqual([{ id: "AC1", text: "t", kind: "drift", spec: ".notarai/a.spec.yaml" }]);
    expect(readStored(kv, "R", "specs")).toBeUndefined();
    expect(() => readStored(kv, "R", "budgets")).toThrow(
      new RunStateError(
        '.norma/norma.db: run R: the stored budgets is damaged (budgets.max_iterations: expected a number, found "5"); the run cannot go on — start a new run (`noma-reconcile runs show R` shows what it did)',
      ),
    );
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(STORED_RUN_STATE) as Array<keyof typeof STORED_RUN_STATE>)), anyJson, (key, value) => {
        try {
          readStored(new Map([[key, value]]), "R", key);
        } catch (e) {
          expect(e).toBeInstanceOf(RunStateError);
          expect((e as Error).message.startsWith(`.norma/norma.db: run R: the stored ${key} is damaged (`)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it("norma.md's criteria and specs read back what formatNormaMd wrote (property)", () => {
    const line = fc.string({ minLength: 1, maxLength: 40 }).filter((t) => !/[\r\n\u2028\u2029]/.test(t) && t.trim() === t && !t.includes("**"));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_.-]{1,8}$/), { minLength: 1, maxLength: 5 }),
        fc.array(line, { minLength: 5, maxLength: 5 }),
        fc.array(line, { maxLength: 3 }),
        (ids, texts, specs) => {
          const criteria = ids.map((id, i) => ({ id, text: texts[i]!, kind: "custom" as const }));
          const md = formatNormaMd({ runId: "R", createdAt: "now", goal: "g", criteria, budgets: { max_iterations: 5 }, specs });
          expect(setupOfNormaMd(md)).toEqual({ criteria: criteria.map((c) => ({ id: c.id, text: c.text })), specs });
        },
      ),
    );
    expect(setupOfNormaMd("nothing here")).toEqual({ criteria: [], specs: [] });
  });

  it("run.json: a record, or null for anything that is not one (never a throw)", () => {
    const dir = tempDir();
    expect(readRunJson(dir)).toBeNull();
    writeFileSync(join(dir, "run.json"), formatRunJson({ version: 1, run_id: "R", created_at: "c", goal: "g", kv: { specs: [] } }));
    expect(readRunJson(dir)).toEqual({ version: 1, run_id: "R", created_at: "c", goal: "g", kv: { specs: [] } });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          anyJson.map((v) => JSON.stringify(v)),
        ),
        (text) => {
          writeFileSync(join(dir, "run.json"), text);
          const r = readRunJson(dir);
          if (r !== null) expect(r.version).toBe(1);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("git worktree list --porcelain -z: what git prints, and any records written the same way (property)", () => {
    const repo = tempRepo({ "a.txt": "a\n" });
    const wt = join(tempDir(), "wt");
    git(repo, ["worktree", "add", "-q", "-b", "side", wt]);
    const gone = join(tempDir(), "gone");
    git(repo, ["worktree", "add", "-q", "--detach", gone]);
    rmSync(gone, { recursive: true });
    const head = git(repo, ["rev-parse", "HEAD"]).trim();
    // The main worktree first; git lists the linked ones in its directory's order (the file system's): sorted here.
    const [main, ...linked] = parseWorktreeList(git(repo, ["worktree", "list", "--porcelain", "-z"]));
    expect(main).toEqual({ path: repo, head, branch: "refs/heads/main", prunable: false });
    expect(linked.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual(
      [
        { path: wt, head, branch: "refs/heads/side", prunable: false },
        { path: gone, head, branch: null, prunable: true },
      ].sort((a, b) => (a.path < b.path ? -1 : 1)),
    );
    const record = fc.record({
      path: fc.string({ minLength: 1 }).filter((p) => !p.includes("\0")),
      head: fc.option(fc.stringMatching(/^[0-9a-f]{40}$/), { nil: null }),
      branch: fc.option(fc.stringMatching(/^refs\/heads\/[a-z/]{1,10}$/), { nil: null }),
      prunable: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 5 }), (records) => {
        const text = records
          .map(
            (r) =>
              `worktree ${r.path}\0${r.head !== null ? `HEAD ${r.head}\0` : ""}${r.branch !== null ? `branch ${r.branch}\0` : "detached\0"}${r.prunable ? "prunable gitdir file points to non-existent location\0" : ""}\0`,
          )
          .join("");
        expect(parseWorktreeList(text)).toEqual(records);
      }),
    );
  });

  it("the pull request of a pull_request event; null for other events and for files that are not one", () => {
    const dir = tempDir();
    const path = join(dir, "event.json");
    writeFileSync(path, JSON.stringify({ pull_request: { number: 3, head: { ref: "f", sha: "s", repo: { full_name: "a/b" } }, base: { ref: "main" } } }));
    expect(pullRequestOfEvent({ GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: path })).toEqual({
      number: 3,
      head: { ref: "f", sha: "s", repo: "a/b" },
      base: { ref: "main" },
    });
    expect(pullRequestOfEvent({ GITHUB_EVENT_NAME: "schedule", GITHUB_EVENT_PATH: path })).toBeNull();
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          anyJson.map((v) => JSON.stringify(v)),
        ),
        (text) => {
          writeFileSync(path, text);
          const pr = pullRequestOfEvent({ GITHUB_EVENT_NAME: "pull_request", GITHUB_EVENT_PATH: path });
          if (pr !== null) expect(typeof pr.head.sha).toBe("string");
        },
      ),
      { numRuns: 200 },
    );
  });
});
