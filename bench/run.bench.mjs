// The run loop (`noma-reconcile run`, src/runs/):
// (a) overhead per step: a run of 39 steps (plan, do, check, act × 10 iterations, the check
//     failing until the last) with a trivial exec agent (its act step proposes a new one-line file each time: a run whose
//     act step changes nothing twice in a row is stopped as stuck), against spawning the same agent directly
//     39 times with the same requests — target ≤ 1.3×. Pairs alternate (loop, direct) so both
//     share this machine's load; the figures are medians over the pairs.
// (b) `runs list` on a .norma/norma.db of 1,000 runs / 20,000 steps / 60,000 events (and their
//     run and step directories, which recovery scans first), beside `node -e 0`.
// (c) one `run --spec` CLI process on a fresh copy of the demo repository (`demo --keep`: drift, the built-in check's
//     FAIL, the act agent's patch, PASS, marking, the snapshot, the result's commit): CPU of the whole process tree
//     (the agent and git included), with SQLite on the baseline WebAssembly tier (what `run` does) and on V8's tiering
//     (NOMA_RECONCILE_WASM_TIERING=default: what it did before), round-robin beside `node -e 0`.
// BENCH_RUN_PARTS=c runs (c) alone (default: abc).
import { spawnSync, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { normaTransaction, runLoop } from "../dist/internal.js";
import { cpuTime, fmt, nodeFloor, range, ratio, report, timeCommand } from "./lib/measure.mjs";

const CLI = fileURLToPath(new URL("../dist/cli.cjs", import.meta.url));
const ITERATIONS = 10;
const STEPS = ITERATIONS * 4 - 1;
const PAIRS = Number(process.env.BENCH_RUN_PAIRS ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const now = () => Number(process.hrtime.bigint()) / 1e6;

// The trivial agent: reads the request; as check, writes verdict.json (FAIL until the last iteration) and scorecard.md.
const AGENT = `const fs = require("node:fs");
const req = JSON.parse(fs.readFileSync(0, "utf8"));
const files = [];
if (req.step.role === "check") {
  const pass = req.step.iteration >= ${ITERATIONS};
  fs.writeFileSync(req.paths.step_dir + "/verdict.json", JSON.stringify({ version: 1, verdict: pass ? "PASS" : "FAIL", criteria: [{ id: "AC1", pass }] }));
  fs.writeFileSync(req.paths.step_dir + "/scorecard.md", pass ? "PASS\\n" : "FAIL\\n");
  files.push("verdict.json", "scorecard.md");
}
if (req.step.role === "act") {
  // A new one-line file each iteration: an act step that changes nothing twice is stopped as stuck.
  const path = "bench/iteration-" + req.step.iteration + ".txt";
  fs.writeFileSync(req.paths.step_dir + "/patch.diff", ["--- /dev/null", "+++ b/" + path, "@@ -0,0 +1 @@", "+" + req.step.iteration, ""].join("\\n"));
  files.push("patch.diff");
}
process.stdout.write(JSON.stringify({ version: 1, status: "ok", summary: req.step.role + " done", files, next_actions: [], errors: [] }));
`;

// The loop gives exec agents a minimal environment (src/runs/agents/agent-env.ts); the direct spawns get the same,
// so neither side pays for a variable the other does not see (NODE_EXTRA_CA_CERTS alone costs node ~40 ms here).
const AGENT_ENV = Object.fromEntries(["PATH", "HOME", "USER", "LANG", "TMPDIR"].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));

function repo() {
  const root = mkdtempSync(join(tmpdir(), "nr-bench-run-"));
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: root });
  writeFileSync(join(root, "agent.cjs"), AGENT);
  const agent = { type: "exec", cmd: [process.execPath, "agent.cjs"] };
  mkdirSync(join(root, ".norma"), { recursive: true });
  writeFileSync(
    join(root, ".norma/config.json"),
    JSON.stringify({ agents: { plan: agent, do: agent, check: agent, act: agent }, budgets: { max_iterations: ITERATIONS } }),
  );
  // A run works in its own worktree, branched from a commit.
  execFileSync("git", ["add", "agent.cjs"], { cwd: root });
  execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.invalid", "commit", "-qm", "agent"], { cwd: root });
  return root;
}

async function loopOnce(root) {
  const t0 = now();
  const r = await runLoop({ root, goal: "bench", ac: [{ id: "AC1", text: "the agent says so" }], mcpCommand: null });
  const ms = now() - t0;
  if (r.status !== "passed" || r.steps.length !== STEPS) throw new Error(`bench run ended ${r.status} after ${r.steps.length} steps: ${r.reason}`);
  return ms;
}

/** The same agent, spawned directly with the requests the loop gave it (read back from the run's input.json files). */
function directOnce(root, requests, scratch) {
  const t0 = now();
  for (const req of requests) {
    const body = JSON.stringify({ ...req, paths: { ...req.paths, step_dir: scratch } }, null, 2);
    const r = spawnSync(process.execPath, ["agent.cjs"], { cwd: root, input: body, env: AGENT_ENV, stdio: ["pipe", "pipe", "pipe"] });
    if (r.status !== 0) throw new Error(`agent failed: ${r.stderr}`);
  }
  return now() - t0;
}

const PARTS = new Set((process.env.BENCH_RUN_PARTS ?? "abc").split(""));
const rows = [["figure", "time", "floor", "floor time", "× floor", "target"]];

// (a)
if (PARTS.has("a")) {
  const loops = [];
  const directs = [];
  {
    const warm = repo();
    await loopOnce(warm); // loads sql.js, BLAKE3 and the modules once, as a long-lived CLI process would have
    const runDir = join(
      warm,
      ".norma/runs",
      execFileSync("ls", [join(warm, ".norma/runs")])
        .toString()
        .trim()
        .split("\n")[0],
    );
    const requests = execFileSync("ls", [join(runDir, "steps")])
      .toString()
      .trim()
      .split("\n")
      .map((d) => JSON.parse(readFileSync(join(runDir, "steps", d, "input.json"), "utf8")));
    const scratch = mkdtempSync(join(tmpdir(), "nr-bench-direct-"));
    directOnce(warm, requests, scratch);
    for (let i = 0; i < PAIRS; i++) {
      const root = repo();
      loops.push(await loopOnce(root));
      directs.push(directOnce(warm, requests, scratch));
      rmSync(root, { recursive: true, force: true });
    }
    rmSync(warm, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
  const loopMs = median(loops);
  const directMs = median(directs);
  const pairRatios = loops.map((l, i) => l / directs[i]);

  rows.push(
    [`(a) one run of ${STEPS} steps`, fmt(loopMs), `the agent spawned ${STEPS}× directly`, fmt(directMs), ratio(loopMs, directMs), "≤ 1.30×"],
    ["(a) per step", fmt(loopMs / STEPS), "per spawn", fmt(directMs / STEPS), `+${fmt((loopMs - directMs) / STEPS)} per step`, ""],
    ["(a) ratio per pair (min–max)", `${Math.min(...pairRatios).toFixed(2)}–${Math.max(...pairRatios).toFixed(2)}×`, "", "", "", ""],
  );
}

// (b)
if (PARTS.has("b")) {
  const RUNS = 1000;
  const STEPS_PER_RUN = 20;
  const big = mkdtempSync(join(tmpdir(), "nr-bench-runs-"));
  execFileSync("git", ["init", "-q", "-b", "main"], { cwd: big });
  await normaTransaction(big, (tx) => {
    const roles = ["plan", "do", "check", "act"];
    for (let r = 0; r < RUNS; r++) {
      const t = new Date(Date.UTC(2026, 0, 1) + r * 60_000).toISOString();
      const id = `${t.slice(0, 10).replace(/-/g, "")}-${t.slice(11, 19).replace(/:/g, "")}-${r.toString(16).padStart(6, "0")}`;
      const dir = `.norma/runs/${id}`;
      tx.insertRun({
        run_id: id,
        created_at: t,
        goal: `Reconcile .notarai/s${r % 7}.spec.yaml: no unreconciled drift, valid documents and transcripts`,
        status: r % 3 === 0 ? "stopped" : "passed",
        iteration: 5,
        current_step_index: STEPS_PER_RUN,
        verdict: r % 3 === 0 ? "FAIL" : "PASS",
        run_dir: dir,
      });
      tx.setKv(id, "criteria", [{ id: "AC1", text: "no unreconciled drift", kind: "drift" }]);
      for (let s = 1; s <= STEPS_PER_RUN; s++) {
        const role = roles[(s - 1) % 4];
        const stepDir = `${dir}/steps/${String(s).padStart(3, "0")}-${role}`;
        tx.insertStep({
          run_id: id,
          step_index: s,
          role,
          iteration: 1 + Math.floor((s - 1) / 4),
          status: "ok",
          step_dir: stepDir,
          started_at: t,
          ended_at: t,
          summary: `${role} done: a summary of one or two sentences, as agents write them.`,
        });
        mkdirSync(join(big, stepDir), { recursive: true });
      }
      for (let e = 0; e < 60; e++) tx.event(id, "step_committed", `step ${e} committed: ok`, { step_index: e }, t);
    }
  });
  const listAll = timeCommand(process.execPath, [CLI, "runs", "list", "--format", "json"], { cwd: big, runs: 7 });
  const listTop = timeCommand(process.execPath, [CLI, "runs", "list", "--limit", "20"], { cwd: big, runs: 7 });
  const show = timeCommand(process.execPath, [CLI, "runs", "show", "--format", "json"], { cwd: big, runs: 7 });
  const floor = nodeFloor(9);
  const dbKb = Math.round(readFileSync(join(big, ".norma/norma.db")).length / 1024);
  rmSync(big, { recursive: true, force: true });

  rows.push(
    [
      `(b) runs list --format json (1,000 runs, 20,000 steps, 60,000 events; ${dbKb} KB)`,
      fmt(listAll),
      "node -e 0",
      fmt(floor),
      ratio(listAll, floor),
      "report",
    ],
    ["(b) runs list --limit 20 (text)", fmt(listTop), "node -e 0", fmt(floor), ratio(listTop, floor), "report"],
    ["(b) runs show (newest, json)", fmt(show), "node -e 0", fmt(floor), ratio(show, floor), "report"],
  );
}

// (c)
if (PARTS.has("c")) {
  const DEMO_SPEC = ".notarai/billing.spec.yaml";
  const made = spawnSync(process.execPath, [CLI, "demo", "--keep"], { encoding: "utf8" });
  const demoOut = `${made.stdout}${made.stderr}`;
  const demo = /kept at (\S+?)\.(?:\s|$)/.exec(demoOut)?.[1];
  if (demo === undefined) throw new Error(`demo --keep: where is the repository? ${demoOut.slice(-300)}`);
  const ROUNDS = Number(process.env.BENCH_RUN_CLI_ROUNDS ?? 5);
  // Node reads NODE_EXTRA_CA_CERTS at every start (≈ 70 ms of CPU here), and no run makes a TLS connection.
  const { NODE_EXTRA_CA_CERTS: _ca, ...quiet } = process.env;
  const envOf = (extra) => ({ ...quiet, CI: "1", ...extra });
  const cliRun = (env) => {
    const copy = mkdtempSync(join(tmpdir(), "nr-bench-run-cli-"));
    cpSync(demo, copy, { recursive: true, verbatimSymlinks: true });
    try {
      return cpuTime({ label: "run", cmd: process.execPath, args: [CLI, "run", "--spec", DEMO_SPEC], cwd: copy, env, okStatus: [0] });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  };
  const baselineCpu = [];
  const tieredCpu = [];
  const nodeCpu = [];
  cliRun(envOf({}));
  for (let r = 0; r < ROUNDS; r++) {
    baselineCpu.push(cliRun(envOf({})));
    tieredCpu.push(cliRun(envOf({ NOMA_RECONCILE_WASM_TIERING: "default" })));
    nodeCpu.push(cpuTime({ label: "node -e 0", cmd: process.execPath, args: ["-e", "0"], env: envOf({}), okStatus: [0] }));
  }
  rmSync(demo, { recursive: true, force: true });
  const [bMs, tMs, nMs] = [median(baselineCpu), median(tieredCpu), median(nodeCpu)];
  const perRound = baselineCpu.map((b, i) => b / tieredCpu[i]);
  rows.push(
    [
      `(c) one \`run --spec\` of the demo repository, CPU of the process tree (${ROUNDS} rounds)`,
      fmt(bMs),
      "node -e 0 (CPU)",
      fmt(nMs),
      ratio(bMs, nMs),
      "report",
    ],
    ["(c) the same, SQLite on V8's tiering (NOMA_RECONCILE_WASM_TIERING=default)", fmt(tMs), "node -e 0 (CPU)", fmt(nMs), ratio(tMs, nMs), "report"],
    [
      "(c) baseline tier ÷ V8's tiering, per round: median, min–max",
      `${median(perRound).toFixed(2)}×`,
      "",
      "",
      `${range(perRound)
        .map((x) => x.toFixed(2))
        .join("–")}×`,
      "< 1×",
    ],
  );
}

report(`run loop (${STEPS} steps per run, trivial exec agent; ${PAIRS} pairs)`, rows);
