// Start-up of the commands the test suite and agents run most, in a small repository (issue 38):
// each command's CPU time (user + system, every thread) and wall time, round-robin with
// `node -e 0` so that a figure and its floor share the machine's load, with the compile cache
// warm (the first rounds are warm-up and fill it). Each ratio is the median over rounds of
// command / `node -e 0` in the same round.
//
// NR_STARTUP_BASE=<dir holding a built dist/> times that build too, in the same rounds (before /
// after: copy dist/ somewhere before changing the build). NR_STARTUP_ONLY=<comma-separated labels>
// picks rows; NR_STARTUP_ROUNDS the rounds (default 11).
// Figures only; no assertions.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { pairedRatio, roundRobin } from "./lib/measure.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "../dist/cli.cjs");
const BASE = process.env.NR_STARTUP_BASE;
const ROUNDS = Number(process.env.NR_STARTUP_ROUNDS ?? 11);
const ONLY = process.env.NR_STARTUP_ONLY?.split(",");

const DOC =
  '---\ntitle: Plan\n---\n\n# Plan {id="top"}\n\n::claim{id="c1" confidence=0.5}\nA claim.\n::\n\n::evidence{id="e1" for="c1"}\nSeen in production.\n::\n';
const SPEC =
  'schema_version: "0.7"\nintent: All of it.\nbehaviors:\n  - name: all\n    given: a change\n    then: reconciled\nartifacts:\n  code:\n    - path: "src/**"\n  docs:\n    - path: "*.noma"\n';
const AGENT = `const fs = require("node:fs");
const req = JSON.parse(fs.readFileSync(0, "utf8"));
const files = [];
if (req.step.role === "check") {
  fs.writeFileSync(req.paths.step_dir + "/verdict.json", JSON.stringify({ version: 1, verdict: "PASS", criteria: [{ id: "AC1", pass: true }] }));
  fs.writeFileSync(req.paths.step_dir + "/scorecard.md", "PASS\\n");
  files.push("verdict.json", "scorecard.md");
}
process.stdout.write(JSON.stringify({ version: 1, status: "ok", summary: req.step.role + " done", files, next_actions: [], errors: [] }));
`;
const MCP_INPUT = `${[
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } },
  { jsonrpc: "2.0", method: "notifications/initialized" },
  { jsonrpc: "2.0", id: 2, method: "tools/list" },
]
  .map((m) => JSON.stringify(m))
  .join("\n")}\n`;
const LSP_INPUT = [
  { jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: null, rootUri: null, capabilities: {} } },
  { jsonrpc: "2.0", method: "initialized", params: {} },
  { jsonrpc: "2.0", id: 2, method: "shutdown" },
  { jsonrpc: "2.0", method: "exit" },
]
  .map((m) => JSON.stringify(m))
  .map((m) => `Content-Length: ${Buffer.byteLength(m)}\r\n\r\n${m}`)
  .join("");
const HOOK_INPUT = JSON.stringify({
  hook_event_name: "PreToolUse",
  tool_name: "Write",
  tool_input: { file_path: "src/a.ts", content: "x\n" },
  cwd: "",
});

const git = (cwd, args) => execFileSync("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] }).toString();

/** A small repository: one spec, two source files, a document with a transcript, reconciled, a branch with one edit, one run. */
function smallRepo(cli) {
  const root = mkdtempSync(join(tmpdir(), "nr-bench-startup-"));
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "user.name", "Bench"]);
  git(root, ["config", "user.email", "bench@example.invalid"]);
  mkdirSync(join(root, ".notarai"), { recursive: true });
  mkdirSync(join(root, "src"));
  mkdirSync(join(root, ".norma"));
  writeFileSync(join(root, ".notarai/all.spec.yaml"), SPEC);
  writeFileSync(join(root, "src/a.ts"), "export const a = 1;\n");
  writeFileSync(join(root, "src/b.ts"), "export const b = 2;\n");
  writeFileSync(join(root, "doc.noma"), DOC);
  writeFileSync(join(root, "agent.cjs"), AGENT);
  const agent = { type: "exec", cmd: [process.execPath, "agent.cjs"] };
  writeFileSync(
    join(root, ".norma/config.json"),
    JSON.stringify({ agents: { plan: agent, do: agent, check: agent, act: agent }, budgets: { max_iterations: 1 } }),
  );
  const op = JSON.stringify({ op: "update_attribute", id: "c1", key: "confidence", value: 0.6 });
  execFileSync(process.execPath, [cli, "patch", "doc.noma", "--op", op, "--actor-name", "bench"], { cwd: root, stdio: "ignore" });
  execFileSync(process.execPath, [cli, "mark-reconciled", "--all"], { cwd: root, stdio: "ignore" });
  git(root, ["add", "-A"]);
  git(root, ["commit", "-qm", "start"]);
  git(root, ["checkout", "-qb", "topic"]);
  writeFileSync(join(root, "src/a.ts"), "export const a = 3;\n");
  git(root, ["commit", "-qam", "edit"]);
  execFileSync(process.execPath, [cli, "run", "--goal", "bench", "--ac", "AC1=the agent says so"], { cwd: root, stdio: "ignore" });
  const corpus = join(root, "corpus");
  mkdirSync(join(corpus, "valid"), { recursive: true });
  writeFileSync(join(corpus, "valid/one.noma"), DOC);
  return root;
}

/** Each row: label, arguments, standard input, the exit codes it may end with. */
const ROWS = [
  ["--version (the bin alone)", ["--version"]],
  ["check doc.noma", ["check", "doc.noma"], undefined, [0, 1]],
  [
    "patch (invalid op: refused)",
    ["patch", "doc.noma", "--op", '{"op":"update_attribute","id":"nope","key":"x","value":1}', "--actor-name", "b"],
    undefined,
    [1, 2],
  ],
  ["changed --spec", ["changed", "--spec", ".notarai/all.spec.yaml"], undefined, [0, 1]],
  ["transcript verify doc.noma", ["transcript", "verify", "doc.noma"]],
  ["runs list", ["runs", "list"]],
  ["run --help", ["run", "--help"]],
  ["init --dry-run", ["init", "--dry-run"]],
  ["mark-reconciled src/b.ts", ["mark-reconciled", "src/b.ts"]],
  ["schema patch-op", ["schema", "patch-op"]],
  ["state show", ["state", "show"], undefined, [0, 2]],
  ["ci --base main", ["ci", "--base", "main"], undefined, [0, 1]],
  ["agent-hook (Write of code)", ["agent-hook"], HOOK_INPUT],
  ["governs src/a.ts", ["governs", "src/a.ts"]],
  ["specs validate", ["specs", "validate"]],
  ["coverage", ["coverage"], undefined, [0, 1]],
  ["verify corpus", ["verify", "corpus"], undefined, [0, 1]],
  ["fmt --check doc.noma", ["fmt", "--check", "doc.noma"], undefined, [0, 1]],
  ["ids doc.noma", ["ids", "doc.noma"]],
  ["parse doc.noma", ["parse", "doc.noma"]],
  ["mcp: initialize + tools/list", ["mcp"], MCP_INPUT],
  ["check --format json", ["check", "doc.noma", "--format", "json"], undefined, [0, 1]],
  ["runs show", ["runs", "show"]],
  ["ledger verify", ["ledger", "verify"], undefined, [0, 1, 2]],
  ["archive list", ["archive", "list"]],
  ["lsp: initialize + shutdown + exit", ["lsp", "--stdio"], LSP_INPUT],
  ["run (one iteration, exec agents)", ["run", "--goal", "bench", "--ac", "AC1=the agent says so"]],
].filter(([label]) => ONLY === undefined || ONLY.some((o) => label.startsWith(o)) || label.startsWith("--version"));

const builds = [{ name: "this build", cli: CLI }, ...(BASE !== undefined ? [{ name: "base", cli: join(BASE, "dist/cli.cjs") }] : [])];
const cacheBase = mkdtempSync(join(tmpdir(), "nr-bench-startup-cc-"));
const jobs = [{ label: "node -e 0", cmd: process.execPath, args: ["-e", "0"] }];
const repos = [];
for (const b of builds) {
  const root = smallRepo(b.cli);
  repos.push(root);
  const env = { ...process.env, NO_COLOR: "1", NOMA_RECONCILE_COMPILE_CACHE_DIR: join(cacheBase, b.name.replace(/\W/g, "-")), ...b.env };
  for (const [label, args, input, ok] of ROWS)
    jobs.push({
      label: `${label} [${b.name}]`,
      row: label,
      build: b.name,
      cmd: process.execPath,
      args: [b.cli, ...args],
      cwd: root,
      input,
      env,
      okStatus: ok ?? [0],
    });
}
const uptime = () =>
  execFileSync("uptime")
    .toString()
    .trim()
    .replace(/.*load average: /, "load ");
const loadBefore = uptime();
const t = roundRobin(jobs, { rounds: ROUNDS, warmup: 2, cpu: true });
const floor = t[0];
const f = (ms) => `${ms.toFixed(0)} ms`;
console.log(
  `start-up, small repository, ${ROUNDS} rounds, warm compile cache; node -e 0: ${f(floor.cpu.ms)} CPU, ${f(floor.ms)} wall; ${loadBefore} → ${uptime()}`,
);
console.log(
  `| command | ${builds.map((b) => `CPU ${b.name} (× node -e 0)`).join(" | ")} | ${builds.map((b) => `wall ${b.name} (×)`).join(" | ")}${BASE ? " | CPU this / base |" : " |"}`,
);
console.log(`|---|${builds.map(() => "---:|").join("")}${builds.map(() => "---:|").join("")}${BASE ? "---:|" : ""}`);
for (const [label] of ROWS) {
  const per = builds.map((b) => t[jobs.findIndex((j) => j.row === label && j.build === b.name)]);
  const cells = per.map((r) => `${f(r.cpu.ms)} (${pairedRatio(r.cpu, floor.cpu).toFixed(2)}×)`);
  const walls = per.map((r) => `${f(r.ms)} (${pairedRatio(r, floor).toFixed(2)}×)`);
  const rel = BASE ? ` | ${pairedRatio(per[0].cpu, per[1].cpu).toFixed(2)}` : "";
  console.log(`| ${label} | ${cells.join(" | ")} | ${walls.join(" | ")}${rel} |`);
}
for (const r of repos) rmSync(r, { recursive: true, force: true });
rmSync(cacheBase, { recursive: true, force: true });
