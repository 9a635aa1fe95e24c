// Glob matching (issue 33.1): the worst case of a backtracking engine against a plain glob,
// each figure beside a floor measured in the same run.
//   the adversarial glob x/*a*a…*b (14 stars) on names x/aaa…a of growing length
//        vs the plain glob x/*b on the same names (our matcher), and V8 running picomatch's
//        expression (the matcher we replaced) where it still finishes
//   common globs over 100,000 paths, ours vs V8 on picomatch's expression
//   compiling hostile 4 KB globs, ours vs picomatch's parser
//   `governs` through the CLI with the adversarial glob vs a plain glob (100-character name)
// Figures only; no assertions.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { globMatcher } from "../dist/internal.js";
import { fmt, ratio, report, time, timeCommand } from "./lib/measure.mjs";

const require = createRequire(import.meta.url);
const picomatch = require("picomatch");
const PICO = { dot: true, windows: false };
const CLI = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli.cjs");

const ADVERSARIAL = "x/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
const PLAIN = "x/*b";
const us = (ms, n) => `${((ms * 1000) / n).toFixed(2)} µs`;

// 1. The worst case on names of growing length: a name tested many times per figure.
{
  const rows = [["name length", "adversarial glob", "plain glob", "ratio", "V8 on picomatch's expression"]];
  const adv = globMatcher(ADVERSARIAL);
  const plain = globMatcher(PLAIN);
  const native = picomatch.makeRe(ADVERSARIAL, PICO);
  for (const n of [20, 24, 100, 1_000, 10_000, 100_000]) {
    const name = `x/${"a".repeat(n - 2)}`;
    const reps = Math.max(1, Math.floor(200_000 / n));
    const a = time(() => {
      for (let i = 0; i < reps; i++) adv.test(name);
    });
    const p = time(() => {
      for (let i = 0; i < reps; i++) plain.test(name);
    });
    // V8's backtracking takes ~0.1 s at 20 characters and doubles every character or two.
    const v = n <= 24 ? fmt(time(() => native.test(name), { runs: 3, warmup: 0 })) : "(does not finish)";
    rows.push([String(n), us(a, reps), us(p, reps), ratio(a, p), v]);
  }
  report("adversarial vs plain glob, per test (warm matcher)", rows);
}

// 2. Common globs over 100,000 generated paths.
{
  const paths = [];
  for (let i = 0; i < 100_000; i++) paths.push(`${["src", "test", "docs", "lib"][i % 4]}/dir${i % 37}/sub${i % 11}/file${i}${i % 3 ? ".ts" : ".md"}`);
  const rows = [["glob", "ours", "V8 (picomatch's expression)", "ratio"]];
  for (const g of ["src/**", "**/*.{ts,tsx}", "**/*.md", "docs/*.md", "test/**/fixtures/**", "src/dir1/sub1/file1.ts"]) {
    const m = globMatcher(g);
    const re = picomatch.makeRe(g, PICO);
    const ours = time(() => {
      for (const p of paths) m.test(p);
    });
    const v8 = time(() => {
      for (const p of paths) re.test(p);
    });
    rows.push([g, fmt(ours), fmt(v8), ratio(ours, v8)]);
  }
  report("100,000 paths per glob", rows);
}

// 3. Compiling hostile 4 KB globs (nesting within the limit).
{
  const L = 4096;
  const pad = (s) => (s + "a".repeat(L)).slice(0, L);
  const nest = (open, inner, close, d) => open.repeat(d) + inner + close.repeat(d);
  const families = {
    "nested *( (32 deep, repeated)": pad(nest("*(", "a", ")", 32).repeat(40)),
    "nested +(a|aa) (16 deep)": pad(nest("+(", "a|aa", ")", 16).repeat(40)),
    "**/a/ repeated": `${"**/a/".repeat(L)}a`.slice(0, L),
    "unclosed ( repeated": pad(`${"?(".repeat(30)}a`),
    "!( repeated": pad("!(a)".repeat(1000)),
    "{a,a,…} long alternation": `{${"a,".repeat(L / 2 - 2)}a}`,
  };
  const rows = [["glob (4 KB)", "ours", "picomatch", "ratio"]];
  for (const [name, g] of Object.entries(families)) {
    const ours = time(() => globMatcher(g), { runs: 5, warmup: 1 });
    const pm = time(() => picomatch.makeRe(g, PICO), { runs: 3, warmup: 1 });
    rows.push([name, fmt(ours), fmt(pm), ratio(ours, pm)]);
  }
  report("compiling a hostile glob", rows);
}

// 4. The CLI: `governs` on a 100-character name, adversarial vs plain glob.
{
  const dir = mkdtempSync(join(tmpdir(), "nr-bench-glob-"));
  try {
    const repo = (glob) => {
      const root = join(dir, glob === ADVERSARIAL ? "adv" : "plain");
      mkdirSync(join(root, ".notarai"), { recursive: true });
      mkdirSync(join(root, "x"), { recursive: true });
      writeFileSync(
        join(root, ".notarai/h.spec.yaml"),
        `schema_version: "0.7"\nintent: bench\nbehaviors:\n  - name: b\n    given: g\n    then: t\nartifacts:\n  code:\n    - path: "${glob}"\n`,
      );
      writeFileSync(join(root, `x/${"a".repeat(98)}`), "x\n");
      const git = (args) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
      git(["init", "-q", "-b", "main"]);
      git(["add", "-A"]);
      git(["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init"]);
      return root;
    };
    const adv = repo(ADVERSARIAL);
    const plain = repo(PLAIN);
    const name = `x/${"a".repeat(98)}`;
    const a = timeCommand(process.execPath, [CLI, "governs", name], { cwd: adv });
    const p = timeCommand(process.execPath, [CLI, "governs", name], { cwd: plain });
    report("`governs` on a 100-character name", [["adversarial glob", fmt(a), "plain glob", fmt(p), ratio(a, p)]]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
