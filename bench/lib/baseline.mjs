// A build of an earlier commit of this repository, for benches that compare with it in the
// same run (the reference ratios were measured against that commit's CLI). Built
// into a temp dir from `git archive` (the work tree is never touched), with this checkout's
// node_modules linked in. NR_BASELINE_DIR=<dir with dist/> uses a build made elsewhere.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** A build's bin: dist/cli.cjs, or dist/cli.js in builds from before it was CommonJS. */
export function binOf(dir) {
  return existsSync(join(dir, "dist/cli.cjs")) ? join(dir, "dist/cli.cjs") : join(dir, "dist/cli.js");
}

/** The bundle with every library function of a build: dist/internal.js, or dist/index.js in builds before the public API was curated. */
function libraryOf(dir) {
  return existsSync(join(dir, "dist/internal.js")) ? join(dir, "dist/internal.js") : join(dir, "dist/index.js");
}

/** { dir, cli, index, label, cleanup } or { reason } when no baseline can be had. */
export function baselineBuild(commit) {
  const given = process.env.NR_BASELINE_DIR;
  if (given !== undefined) {
    const cli = binOf(given);
    return existsSync(cli)
      ? { dir: given, cli, index: libraryOf(given), label: given, cleanup: () => {} }
      : { reason: `NR_BASELINE_DIR=${given} has no dist/cli.cjs or dist/cli.js` };
  }
  if (spawnSync("git", ["cat-file", "-e", `${commit}^{commit}`], { cwd: ROOT }).status !== 0)
    return { reason: `commit ${commit} is not in this repository's history` };
  const dir = mkdtempSync(join(tmpdir(), "nr-bench-baseline-"));
  try {
    const tar = execFileSync("git", ["archive", commit], { cwd: ROOT, maxBuffer: 1 << 28 });
    execFileSync("tar", ["-x", "-C", dir], { input: tar });
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
    execFileSync(process.execPath, [join(dir, "scripts/build.mjs")], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `building ${commit} failed: ${e.message.split("\n")[0]}` };
  }
  return {
    dir,
    cli: binOf(dir),
    index: libraryOf(dir),
    label: `commit ${commit.slice(0, 7)}`,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
