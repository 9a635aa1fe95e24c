/**
 * `noma-reconcile demo`: build the demo repository in a temp directory, run
 * the PR check on its feature branch, print the report, remove the directory
 * (unless --keep, which also makes `npx noma-reconcile` there run this CLI:
 * install-local-bin.ts). Exits 0: the drift it shows is the point of the demo.
 */
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDemoRepo } from "../../demo/build-demo-repo.js";
import { demoFilesDir } from "../../demo/demo-files.js";
import { runCiCheck } from "../../check/commit/run-ci-check.js";
import { renderCiJson, renderCiText } from "../../check/commit/render-ci-report.js";
import { useColor, type CliIO } from "../cli-io.js";
import { choice } from "../repo-context.js";
import { installLocalBin } from "../../demo/install-local-bin.js";
import { cliEntryPath } from "../../runs/cli-entry-path.js";

const INTRO = `noma-reconcile demo: a billing service on branch "feature", checked against main.
  - main: specs (.notarai/), code (src/billing/), a handbook (docs/billing.noma), all reconciled;
  - an agent patched the handbook through the patch engine (transcript docs/billing.noma.patches)
    and changed src/billing/charge.ts, then reconciled both;
  - a hotfix changed src/billing/refund.ts without reconciling it: the deliberate drift below.
The PR check (\`noma-reconcile ci --base main\`) reports:
`;

export async function demoCommand(options: Record<string, unknown>, io: CliIO): Promise<number> {
  const format = choice("format", options["format"] ?? "text", ["text", "json"] as const);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "noma-reconcile-demo-")));
  const keep = options["keep"] === true;
  // A demo started from inside a git hook must not inherit that repository's git environment.
  const env = { ...io.env };
  for (const k of ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_OBJECT_DIRECTORY", "GIT_PREFIX"]) {
    delete env[k];
    delete process.env[k];
  }
  try {
    await buildDemoRepo(dir, demoFilesDir());
    const report = await runCiCheck({ root: dir, cwd: dir, env: { PATH: env["PATH"] }, base: "main" });
    // A kept repository gets `npx noma-reconcile` (this CLI) for the commands suggested below.
    const cli = keep ? cliEntryPath() : null;
    if (cli !== null) installLocalBin(dir, cli);
    if (format === "json") io.stdout(renderCiJson(report, "error", "demo"));
    else io.stdout(`${INTRO}\n${renderCiText(report, useColor(options["color"], io.env, io.stdoutIsTTY))}`);
    io.stderr(
      keep
        ? `The demo repository is kept at ${dir}. Try:\n  cd ${dir}\n  ` +
            "npx noma-reconcile ci --base main                                # the report above\n  " +
            `npx noma-reconcile run --spec .notarai/billing.spec.yaml --apply  # fix the drift in a worktree (built-in check + the scripted act agent), ` +
            "then bring the run's commit here\n"
        : "The demo repository was removed (--keep keeps it).\n",
    );
    return 0;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}
