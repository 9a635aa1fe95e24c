/**
 * Every `--format json` output is the one envelope, and each command's real output (the
 * built CLI, spawned on temp repositories) validates against the schema that
 * `noma-reconcile schema output/<name>` prints. The outputs not produced here are named
 * (and why) so a new command cannot slip through untested.
 */
import { readdirSync, writeFileSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { outputJsonSchema, outputSchema } from "../../src/cli/output-schemas.js";
import { OUTPUT_NAMES, outputSchemaId, type OutputName } from "../../src/report/json-envelope.js";
import { runWorkspaceTool } from "../../src/workspace/run-workspace-tool.js";
import { openWorkspace } from "../../src/workspace/workspace.js";
import { appendLedger } from "../../src/workspace/append-ledger.js";
import { repoTemplates } from "../helpers/repo-templates.js";
import { runCli } from "../helpers/run-cli.js";
import { git, tempDir, tempRepo } from "../helpers/temp-repo.js";
import { specYaml } from "../reconcile/helpers/specs.js";
import { HttpServer } from "../workspace/helpers/http-server.js";

const DOC = '# Plan {id="plan"}\n\n::claim{id="c1" confidence=0.5}\nGrows.\n::\n\n::evidence{id="e1" for="c1"}\nMeasured.\n::\n';
const seen = new Set<OutputName>();

/** Run the command, parse stdout and validate it against the output's schema. */
function valid(name: OutputName, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Record<string, unknown> {
  const r = runCli([...args, "--format", "json"], { cwd, env });
  expect(r.code, `${args.join(" ")}: ${r.stderr}`).toBeLessThan(2);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  const parsed = outputSchema(name).safeParse(out);
  expect(parsed.success, `${name}: ${parsed.success ? "" : JSON.stringify(parsed.error.issues, null, 1)}`).toBe(true);
  expect(Object.keys(out)).toEqual(["schema", "tool", "command", "ok", "summary", "result", "warnings"]);
  expect(out["schema"]).toBe(outputSchemaId(name));
  seen.add(name);
  return out;
}

const templates = repoTemplates();

/** A repository on branch feature, one commit ahead of main: a copy of the one built once (test/helpers/repo-templates.ts). */
function project(): string {
  return templates.copy("project", build);
}

function build(): string {
  const root = tempRepo({
    ".notarai/system.spec.yaml": specYaml({ subsystems: ["./cli.spec.yaml"], artifacts: { docs: ["docs/**"] } }),
    ".notarai/cli.spec.yaml": specYaml({ artifacts: { code: ["src/**"] } }),
    "src/a.ts": "a\n",
    "docs/plan.noma": DOC,
    "docs/base.noma": DOC,
    "README.md": "r\n",
  });
  git(root, ["checkout", "-q", "-b", "feature"]);
  writeFileSync(join(root, "src/a.ts"), "a2\n");
  git(root, ["commit", "-qam", "change"]);
  return root;
}

describe("--format json: one envelope, each output valid against its schema", () => {
  it("document commands: check, fmt, ids, patch, transcript verify and accept", () => {
    const root = project();
    valid("check", ["check"], root);
    valid("fmt", ["fmt", "--check"], root);
    valid("ids", ["ids", "docs/plan.noma"], root);
    valid("patch", ["patch", "docs/plan.noma", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.6}'], root);
    const rejected = valid("patch", ["patch", "docs/plan.noma", "--op", '{"op":"delete_block","id":"nope"}'], root);
    expect(rejected).toMatchObject({ ok: false, result: { outcome: "rejected" } });
    writeFileSync(join(root, "docs/book.noma.yml"), "chapters:\n  - plan.noma\n");
    const book = valid("patch-book", ["patch", "docs/book.noma.yml", "--op", '{"op":"update_attribute","id":"c1","key":"confidence","value":0.7}'], root);
    expect(book).toMatchObject({ ok: true, result: { outcome: "applied", chapters: [{ file: "docs/plan.noma", op_indexes: [0], outcome: "applied" }] } });
    valid("transcript-verify", ["transcript", "verify", "docs/plan.noma", "--base", "docs/base.noma"], root);
    appendFileSync(join(root, "docs/plan.noma"), "\nTyped by hand.\n");
    valid("transcript-accept", ["transcript", "accept", "docs/plan.noma", "--reason", "typed by hand"], root);
    const fixed = valid("check", ["check", "--fix-dry-run"], root);
    expect(fixed["command"]).toBe("check");
  });

  it("the PR check and the reconciliation commands", () => {
    const root = project();
    const ci = valid("ci", ["ci", "--base", "main"], root);
    expect(ci["command"]).toBe("ci");
    valid("specs-validate", ["specs", "validate"], root);
    valid("governs", ["governs", "src/a.ts", "README.md"], root);
    valid("coverage", ["coverage"], root);
    const affected = valid("affected", ["affected"], root);
    expect(affected["summary"]).toMatchObject({ base: { ref: "main", source: "default-branch" } });
    valid("diff", ["diff", "--spec", ".notarai/cli.spec.yaml", "--base", "main"], root);
    valid("changed", ["changed", "--spec", ".notarai/cli.spec.yaml"], root);
    valid("mark-reconciled", ["mark-reconciled", "src/a.ts"], root);
    valid("mark-reconciled-all", ["mark-reconciled", "--all", "--dry-run"], root);
    valid("cache-status", ["cache", "status"], root);
    valid("state-snapshot", ["state", "snapshot"], root);
    valid("state-show", ["state", "show"], root);
    valid("state-reset", ["state", "reset"], root);
    valid("cache-clear", ["cache", "clear"], root);
    valid("runs-list", ["runs", "list"], root);
  });

  it("init, and the workspace's archive and ledger", async () => {
    valid("init", ["init", "--dry-run"], tempRepo({ "a.txt": "a\n" }));
    const root = tempRepo({ "docs/a.md": "v1\n" });
    const ws = openWorkspace(root);
    await runWorkspaceTool(ws, "edit_file", { path: "docs/a.md", contents: "v2\n" });
    valid("archive-list", ["archive", "list"], root);
    valid("archive-restore", ["archive", "restore", "docs/a.md", "--number", "1"], root);
    valid("ledger-verify", ["ledger", "verify"], root);
    // An intent without its outcome (a request killed mid-way) is listed, not a finding.
    await appendLedger(ws, [{ action: "write_file", path: "docs/b.md", details: { via: "library", phase: "intent", sha256: "ab".repeat(32), bytes: 3 } }]);
    const interrupted = valid("ledger-verify", ["ledger", "verify"], root);
    expect(interrupted).toMatchObject({ ok: true, summary: { interrupted: 1 }, result: { interrupted: [{ action: "write_file", path: "docs/b.md" }] } });
  });

  it("the demo's PR check is the ci output; a run and runs show in the kept demo repository", () => {
    const tmp = tempDir();
    const demo = valid("ci", ["demo", "--keep"], tempDir(), { TMPDIR: tmp });
    expect(demo["command"]).toBe("demo");
    const repo = join(tmp, readdirSync(tmp)[0]!);
    const run = valid("run", ["run", "--spec", ".notarai/billing.spec.yaml"], repo);
    expect(run["ok"]).toBe(true);
    // The run's commit on its branch: the fixed code, the handbook and its transcript, the snapshot.
    const result = run["result"] as { run_id: string; commit: { files: Array<{ path: string }> } };
    expect(result.commit.files.map((f) => f.path)).toEqual([
      ".notarai/reconciliation_state.json",
      "docs/billing.noma",
      "docs/billing.noma.patches",
      "src/billing/refund.ts",
    ]);
    valid("runs-show", ["runs", "show"], repo);
    const page = valid("runs-html", ["runs", "show", "--html", ".norma/report.html"], repo);
    expect(page).toMatchObject({ command: "runs show --html", result: { file: ".norma/report.html", runs: 1 } });
    expect(valid("runs-html", ["runs", "report", ".norma/runs.html"], repo)).toMatchObject({ command: "runs report", result: { run_id: null, runs: 1 } });
    valid("runs-apply", ["runs", "apply", result.run_id], repo);
    valid("runs-prune", ["runs", "prune", "--dry-run"], repo);
    valid("reconcile", ["reconcile"], repo);
  });

  it("serve --http: its one line once listening", async () => {
    const root = tempRepo({ "a.txt": "a\n" });
    const s = await new HttpServer(root, ["--format", "json"], { NOMA_RECONCILE_TOKEN: undefined }).ready();
    for (let i = 0; i < 500 && !s.stdout.includes("\n"); i++) await new Promise((r) => setTimeout(r, 10));
    await s.stop();
    const out = JSON.parse(s.stdout) as Record<string, unknown>;
    const parsed = outputSchema("serve").safeParse(out);
    expect(parsed.success, parsed.success ? "" : JSON.stringify(parsed.error.issues)).toBe(true);
    expect(s.stdout.trimEnd().includes("\n")).toBe(false);
    seen.add("serve");
  });

  it("every output was produced above", () => {
    expect(OUTPUT_NAMES.filter((n) => !seen.has(n))).toEqual([]);
  });

  it("`schema output/<name>` prints the JSON Schema generated from the schema the outputs were validated with", () => {
    const dir = tempDir();
    for (const name of OUTPUT_NAMES) {
      const r = runCli(["schema", `output/${name}`], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      const printed = JSON.parse(r.stdout) as Record<string, unknown>;
      expect(printed).toEqual(outputJsonSchema(name));
      expect(printed["$schema"]).toBe("https://json-schema.org/draft/2020-12/schema");
      expect((printed["properties"] as Record<string, { const?: string }>)["schema"]!.const).toBe(outputSchemaId(name));
      expect(z.toJSONSchema(outputSchema(name), { io: "output", unrepresentable: "any" })).toMatchObject({ required: printed["required"] });
    }
    expect(runCli(["schema", "output/nope"], { cwd: dir }).code).toBe(2);
  });
});
