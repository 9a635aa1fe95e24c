// The coding agent's gate (`noma-reconcile agent-hook`), which Claude Code, Codex and Gemini CLI run
// on every tool call, each figure beside `node -e 0` measured in the same rounds:
//   (a) PreToolUse of a Write to a code file, through the launcher exactly as .claude/settings.json
//       registers it (`node "$CLAUDE_PROJECT_DIR/.notarai/noma-reconcile.cjs" agent-hook`)   target ≤ 1.5×
//       — and the same straight through the bin (`node dist/cli.cjs agent-hook`), and through
//       `sh -c` as Claude Code runs a hook command (the shell's start included)               (info)
//   (b) PreToolUse of a Bash command that writes no document (`npm test > test.log`)            (info)
//   (c) PreToolUse of an Edit of a .noma document (refused, with the op to send)                (info)
//   (d) PostToolUse of an Edit to a governed code file (the spec named; the remembered spec set) (info)
// A project generated here: the package linked in as `npm i -D` lays it out, `init --agent claude`
// run. Medians of 21 round-robin rounds (each command once per round) and the median of the
// per-round ratios. Figures only; no assertions. `npm run bench -- agent-hook`.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, git, pairedRatio, report, roundRobin } from "./lib/measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE = join(HERE, "..");
const CLI = join(PACKAGE, "dist/cli.cjs");
const ROUNDS = 21;

const SPEC =
  'schema_version: "0.7"\nintent: "The app"\nbehaviors:\n  - name: works\n    given: a call\n    then: it answers\nartifacts:\n  code:\n    - path: "src/**"\n';
const PLAN = '# Plan\n\n::claim{id="c1" confidence=0.5}\nThe app works.\n::\n';

const root = mkdtempSync(join(tmpdir(), "nr-agent-hook-bench-"));
try {
  const project = join(root, "project");
  mkdirSync(project);
  git(project, ["init", "-q", "-b", "main"]);
  for (const [k, v] of [
    ["user.name", "Bench"],
    ["user.email", "bench@example.invalid"],
    ["commit.gpgsign", "false"],
  ])
    git(project, ["config", k, v]);
  const write = (rel, text) => {
    mkdirSync(dirname(join(project, rel)), { recursive: true });
    writeFileSync(join(project, rel), text);
  };
  write("src/app.ts", "export const app = 1;\n");
  write("docs/plan.noma", PLAN);
  write(".notarai/app.spec.yaml", SPEC);
  // As `npm i -D noma-reconcile` lays it out.
  mkdirSync(join(project, "node_modules/.bin"), { recursive: true });
  symlinkSync(PACKAGE, join(project, "node_modules/noma-reconcile"), "dir");
  symlinkSync(relative(join(project, "node_modules/.bin"), CLI), join(project, "node_modules/.bin/noma-reconcile"));
  writeFileSync(join(project, ".git/info/exclude"), "node_modules/\n");
  const init = spawnSync(process.execPath, [CLI, "init", "--agent", "claude"], { cwd: project, encoding: "utf8" });
  if (init.status !== 0) throw new Error(`init: ${init.stderr}`);
  git(project, ["add", "-A"]);
  git(project, ["commit", "-q", "-m", "init"]);

  const env = { ...process.env, CLAUDE_PROJECT_DIR: project };
  delete env.NOMA_RECONCILE_SKIP;
  const call = (event, tool, input) => JSON.stringify({ session_id: "bench", cwd: project, hook_event_name: event, tool_name: tool, tool_input: input });
  const codeWrite = call("PreToolUse", "Write", { file_path: join(project, "src/app.ts"), content: "export const app = 2;\n" });
  const bash = call("PreToolUse", "Bash", { command: "npm test > test.log 2>&1 && git status --short" });
  const docEdit = call("PreToolUse", "Edit", { file_path: join(project, "docs/plan.noma"), old_string: "confidence=0.5", new_string: "confidence=0.9" });
  const postEdit = call("PostToolUse", "Edit", { file_path: join(project, "src/app.ts"), old_string: "1", new_string: "2" });
  const launcher = [join(project, ".notarai/noma-reconcile.cjs"), "agent-hook"];
  const registered = 'node "$CLAUDE_PROJECT_DIR/.notarai/noma-reconcile.cjs" agent-hook';

  // Each answers as expected before it is timed.
  const check = (input, expect) => {
    const r = spawnSync(process.execPath, launcher, { cwd: project, env, input, encoding: "utf8" });
    if (r.status !== 0 || !expect(r.stdout)) throw new Error(`unexpected answer: ${r.status} ${r.stdout} ${r.stderr}`);
  };
  check(codeWrite, (out) => out === "");
  check(bash, (out) => out === "");
  check(docEdit, (out) => out.includes('"permissionDecision":"deny"') && out.includes("update_attribute"));
  check(postEdit, (out) => out.includes("additionalContext") && out.includes(".notarai/app.spec.yaml"));

  const c = (label, cmd, args, input) => ({ label, cmd, args, input, cwd: project, env, okStatus: [0] });
  const [floor, a, aBin, aShell, b, cDoc, dPost] = roundRobin(
    [
      c("node -e 0", process.execPath, ["-e", "0"], ""),
      c("(a)", process.execPath, launcher, codeWrite),
      c("(a) bin", process.execPath, [CLI, "agent-hook"], codeWrite),
      c("(a) sh -c", "sh", ["-c", registered], codeWrite),
      c("(b)", process.execPath, launcher, bash),
      c("(c)", process.execPath, launcher, docEdit),
      c("(d)", process.execPath, launcher, postEdit),
    ],
    { rounds: ROUNDS, warmup: 3 },
  );
  const row = (label, m, target) => [label, fmt(m.ms), "node -e 0", fmt(floor.ms), `${pairedRatio(m, floor).toFixed(2)}×`, target];
  report("the coding agent's gate (agent-hook), one tool call", [
    ["figure", "time", "floor", "floor time", "× floor (per round)", "target"],
    row("(a) Write of a code file, as registered (launcher)", a, "≤ 1.5×"),
    row("    the same, straight through the bin", aBin, "(info)"),
    row("    the same, through sh -c as Claude Code runs it", aShell, "(info)"),
    row("(b) Bash writing no document", b, "(info)"),
    row("(c) Edit of a .noma document: refused, op offered", cDoc, "(info)"),
    row("(d) PostToolUse of a governed file: the spec named", dPost, "(info)"),
  ]);
} finally {
  rmSync(root, { recursive: true, force: true });
}
