// Reconciliation on a generated repository of 100,000 ~1 KB files (nested directories, one
// commit, one spec governing everything, and a feature branch changing 200 files), each
// figure beside a floor measured in the same run:
//   cold `changed` (hash everything)      vs git status --porcelain; hashing vs reading the bytes
//                                          and vs `b3sum --num-threads 1` over the same files
//   warm `changed`, 10 files modified     vs git status --porcelain
//   `affected --base main` (200-file branch) vs git status --porcelain
//   one silent git call through our adapter vs execFile (and simple-git, if NR_SIMPLE_GIT_DIR
//                                          points at an install outside the repository)
//   BLAKE3 MB/s on one 1 GiB file          vs b3sum (and blake3-wasm 3.0.0 if NR_BLAKE3_V3_DIR is set)
// Figures only; no assertions. The repository is generated once per process into a temp dir
// (NR_BENCH_REPO=<dir> reuses/keeps one; NR_BENCH_FILES=<n> changes the size).
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { currentHashes, execGit, execGitAsync, hashFile, listRepoFiles, loadBlake3, markReconciled, readWorktreeStatus } from "../dist/internal.js";
import { fmt, git, nodeFloor, ratio, report, time, timeCommand } from "./lib/measure.mjs";
import { fileText } from "./lib/gen-file-text.mjs";
import { ensureRepo, pathOf, SPEC } from "./lib/gen-repo.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, "../dist/cli.cjs");
const N = Number(process.env.NR_BENCH_FILES ?? 100_000);
const log = (s) => process.stderr.write(`${s}\n`);

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeAsync(fn, { runs = 7, warmup = 2 } = {}) {
  for (let i = 0; i < warmup; i++) await fn();
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await fn();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(samples);
}

function cli(args, cwd) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`noma-reconcile ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return r;
}

const keep = process.env.NR_BENCH_REPO;
const root = keep ?? join(mkdtempSync(join(tmpdir(), "nr-bench-reconcile-")), "repo");
const scratch = mkdtempSync(join(tmpdir(), "nr-bench-scratch-"));
try {
  ensureRepo(root, N, log);
  git(root, ["checkout", "-q", "--", "."]);
  git(root, ["clean", "-qfdx", "--", "src"]);
  rmSync(join(root, ".notarai/.cache"), { recursive: true, force: true });
  const files = listRepoFiles(root).filter((f) => f.startsWith("src/"));
  const mb = (files.length * 1001) / 1e6;

  // Floors.
  const node = nodeFloor();
  const status = () => timeCommand("git", ["status", "--porcelain"], { cwd: root, runs: 7 });
  const status0 = status();

  // Cold: the CLI hashing everything (no cache), three runs, each from scratch.
  const coldRuns = [];
  for (let r = 0; r < 3; r++) {
    rmSync(join(root, ".notarai/.cache"), { recursive: true, force: true });
    const t0 = process.hrtime.bigint();
    cli(["changed", "--spec", SPEC, "--format", "json"], root);
    coldRuns.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  const cold = median(coldRuns);

  // Cold hashing in-process, against reading the same bytes and against b3sum.
  const st = readWorktreeStatus(root);
  const hashAllMs = await timeAsync(() => currentHashes(root, files, st, { blobHashes: new Map(), statHashes: new Map() }), { runs: 3, warmup: 1 });
  const readAll = time(
    () => {
      for (const f of files) readFileSync(join(root, f));
    },
    { runs: 3, warmup: 1 },
  );
  const list = Buffer.from(files.map((f) => `${f}\0`).join(""));
  // b3sum (Debian package `b3sum`) is optional: its rows print n/a without it.
  const hasB3sum = spawnSync("b3sum", ["--num-threads", "1", "--no-names"], { input: "" }).status === 0;
  if (!hasB3sum) log("b3sum not found on PATH (apt-get install b3sum): its floors print n/a");
  const b3sum = hasB3sum ? timeCommand("xargs", ["-0", "b3sum", "--num-threads", "1"], { cwd: root, input: list, runs: 3, warmup: 1 }) : null;

  // Mark everything reconciled (one call), then modify 10 files: the warm case.
  const t0 = process.hrtime.bigint();
  await markReconciled(root, { files });
  const markMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const dbMb = statSync(join(root, ".notarai/.cache/notarai.db")).size / 1e6;
  for (let i = 0; i < 10; i++) writeFileSync(join(root, pathOf((i * 7919) % N)), `${fileText(i)}edited\n`);
  const warmOut = cli(["changed", "--spec", SPEC], root).stdout.trim().split("\n").length;
  const warm = timeCommand(process.execPath, [CLI, "changed", "--spec", SPEC], { cwd: root, runs: 7 });
  const status1 = status();

  // affected for the 200-file branch.
  const affectedOut = JSON.parse(cli(["affected", "--base", "main", "--format", "json"], root).stdout).result.changed_files.length;
  const affected = timeCommand(process.execPath, [CLI, "affected", "--base", "main"], { cwd: root, runs: 7 });
  const diff = timeCommand(process.execPath, [CLI, "diff", "--spec", SPEC, "--base", "main", "--format", "json"], { cwd: root, runs: 5 });
  const status2 = status();
  const statusMid = median([status0, status1, status2]);

  report(
    `repository: ${files.length} files (${mb.toFixed(0)} MB), 1 commit + a 200-file branch; node -e 0 = ${fmt(node)}; git status --porcelain = ${fmt(status0)} / ${fmt(status1)} / ${fmt(status2)}`,
    [
      ["figure", "time", "floor", "floor time", "× floor", "target"],
      ["cold `changed` (CLI, hashes all)", fmt(cold), "git status --porcelain", fmt(statusMid), ratio(cold, statusMid), ""],
      ["cold hashing, in-process (read + BLAKE3 + blob id)", fmt(hashAllMs), "reading the bytes", fmt(readAll), ratio(hashAllMs, readAll), ""],
      ["", "", "b3sum --num-threads 1", b3sum === null ? "n/a" : fmt(b3sum), b3sum === null ? "" : ratio(hashAllMs, b3sum), "≤ 2×"],
      [`warm \`changed\` (CLI, 10 modified → ${warmOut} listed)`, fmt(warm), "git status --porcelain", fmt(status1), ratio(warm, status1), "≤ 2×"],
      [`\`affected --base main\` (CLI, ${affectedOut} changed)`, fmt(affected), "git status --porcelain", fmt(status2), ratio(affected, status2), ""],
      ["`diff --spec --base main` (CLI, json)", fmt(diff), "git status --porcelain", fmt(status2), ratio(diff, status2), ""],
      [`mark ${files.length} files reconciled (one library call)`, fmt(markMs), `cache DB ${dbMb.toFixed(1)} MB`, "", "", ""],
    ],
  );

  // One silent git call (prints nothing): our adapter vs execFile, and simple-git if provided.
  const silent = ["diff", "--cached", "--name-only"];
  const adapter = time(() => execGit(silent, { cwd: root }), { runs: 15 });
  const direct = time(() => execFileSync("git", silent, { cwd: root, stdio: ["pipe", "pipe", "pipe"] }), { runs: 15 });
  const pExecFile = promisify(execFile);
  const asyncDirect = await timeAsync(() => pExecFile("git", silent, { cwd: root }), { runs: 15 });
  const adapterAsync = await timeAsync(() => execGitAsync(silent, { cwd: root }), { runs: 15 });
  const rows = [
    ["silent git call (`git diff --cached --name-only`)", "time", "floor", "floor time", "× floor", "target"],
    ["our adapter (execGit, execFileSync)", fmt(adapter), "execFileSync", fmt(direct), ratio(adapter, direct), "≤ 1.1×"],
    ["", "", "execFile (async)", fmt(asyncDirect), ratio(adapter, asyncDirect), "≤ 1.1×"],
    ["our async adapter (execGitAsync)", fmt(adapterAsync), "execFile (async)", fmt(asyncDirect), ratio(adapterAsync, asyncDirect), "≤ 1.1×"],
  ];
  const sgDir = process.env.NR_SIMPLE_GIT_DIR;
  if (sgDir !== undefined) {
    const req = createRequire(join(sgDir, "package.json"));
    const { simpleGit } = req("simple-git");
    const sg = simpleGit(root);
    const sgTime = await timeAsync(() => sg.raw(silent), { runs: 15 });
    rows.push(["simple-git raw()", fmt(sgTime), "execFile (async)", fmt(asyncDirect), ratio(sgTime, asyncDirect), ""]);
  }
  console.log("");
  report("git adapter", rows);

  // One 1 GiB file.
  const big = join(scratch, "one-gib.bin");
  const fd = openSync(big, "w");
  const block = Buffer.alloc(8 << 20);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  for (let i = 0; i < 128; i++) {
    block.writeUInt32LE(i, 0);
    writeSync(fd, block);
  }
  closeSync(fd);
  const b3 = await loadBlake3();
  const gib = time(() => hashFile(big, b3), { runs: 3, warmup: 1 });
  const readGib = time(
    () => {
      const f = openSync(big, "r");
      const buf = Buffer.allocUnsafe(8 << 20);
      while (readSync(f, buf, 0, buf.length, null) > 0);
      closeSync(f);
    },
    { runs: 3, warmup: 1 },
  );
  const b3sumGib = hasB3sum ? timeCommand("b3sum", ["--num-threads", "1", big], { runs: 3, warmup: 1 }) : null;
  const gibRows = [
    ["1 GiB file", "time", "MB/s", "floor", "floor time", "× floor"],
    [
      "blake3-wasm 2.1.5 (hashFile, 1 MiB reads)",
      fmt(gib),
      ((1 << 30) / 1e6 / (gib / 1000)).toFixed(0),
      "reading the bytes",
      fmt(readGib),
      ratio(gib, readGib),
    ],
    ["", "", "", "b3sum --num-threads 1", b3sumGib === null ? "n/a" : fmt(b3sumGib), b3sumGib === null ? "" : ratio(gib, b3sumGib)],
  ];
  const v3Dir = process.env.NR_BLAKE3_V3_DIR;
  if (v3Dir !== undefined) {
    const req = createRequire(join(v3Dir, "package.json"));
    const v3 = req(v3Dir);
    await v3.load();
    const v3Time = time(
      () => {
        const f = openSync(big, "r");
        const buf = Buffer.allocUnsafe(1 << 20); // 3.0.0 returns wrong digests for update() calls of 2 MiB or more
        const h = v3.createHash();
        let n;
        while ((n = readSync(f, buf, 0, buf.length, null)) > 0) h.update(buf.subarray(0, n));
        h.digest();
        closeSync(f);
      },
      { runs: 3, warmup: 1 },
    );
    gibRows.push([
      "blake3-wasm 3.0.0 (override; 1 MiB updates)",
      fmt(v3Time),
      ((1 << 30) / 1e6 / (v3Time / 1000)).toFixed(0),
      "b3sum --num-threads 1",
      b3sumGib === null ? "n/a" : fmt(b3sumGib),
      b3sumGib === null ? "" : ratio(v3Time, b3sumGib),
    ]);
  }
  console.log("");
  report("BLAKE3 throughput", gibRows);
} finally {
  rmSync(scratch, { recursive: true, force: true });
  if (keep === undefined) rmSync(dirname(root), { recursive: true, force: true });
  else {
    git(root, ["checkout", "-q", "--", "."]);
  }
}
