/**
 * kill -9 during a run, then recovery: the last slice of the fault-injection points (the last step
 * commits, the patch, the result's commit) and kills at random moments. What each test proves:
 * crash-recovery.test.ts; the checks: helpers/crash-run.ts.
 */
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readNormaState } from "../../src/runs/norma-db.js";
import { CLI } from "../helpers/run-cli.js";
import { checkRecovered, crashRepo, finishRun, killedAt, POINTS, recordUserCheckout, rng, seed } from "./helpers/crash-run.js";
import { cli, SPEC } from "./helpers/run-repo.js";

describe(`kill -9 during a run, then recovery (seed ${seed})`, () => {
  it.each(POINTS.slice(31))("killed at %s: the next command recovers; resume finishes", killedAt);

  it("killed at random moments, many times over one repository: every time it recovers and resumes", async () => {
    const random = rng(seed);
    const root = crashRepo();
    recordUserCheckout(root);
    // How long a whole run takes here (this machine, now): the kills fall inside it.
    const t0 = Date.now();
    const probe = crashRepo();
    expect(cli(probe, ["run", "--spec", SPEC]).code).toBe(0);
    const span = Date.now() - t0;
    const kills = Number(process.env["NOMA_RECONCILE_CRASH_KILLS"] ?? 8);
    for (let i = 0; i < kills; i++) {
      const at = Math.floor(random() * span);
      const where = `random kill ${i + 1} after ${at} ms (seed ${seed})`;
      const state = await readNormaState(root);
      const run = state?.runs[0];
      if (run !== undefined && run.status === "passed") break;
      // Start or resume, and kill it part-way.
      const resume = run !== undefined && state!.kv(run.run_id).has("criteria");
      const env = { ...process.env, CI: "1", NO_COLOR: "1" };
      const child = spawn(process.execPath, [CLI, "run", ...(resume ? ["--resume", run!.run_id] : ["--spec", SPEC])], { cwd: root, env, stdio: "ignore" });
      const timer = setTimeout(() => child.kill("SIGKILL"), at);
      await new Promise((r) => child.on("close", r));
      clearTimeout(timer);
      const atKill = await readNormaState(root);
      await checkRecovered(root, atKill, where);
    }
    await finishRun(root, `after the random kills (seed ${seed})`);
  });
});
