// Glob matching (issue 33.1): the worst case of a backtracking engine against a plain glob,
// each figure beside a floor measured in the same run.
//   the adversarial glob x/*a*a…*b (14 stars) on names x/aaa…a of growing length
//        vs the plain glob x/*b on the same names (our matcher), and V8 running picomatch's
//        expression (the matcher we replaced) where it still finishes
//   ordinary globs (a typical set and this repository's spec globs) over 100,000 paths:
//        V8 on picomatch's expression vs the linear matcher vs the fast path (V8 for a glob in
//        the safe subset, glob/backtracking-bound.ts); the worst case inside the subset on
//        names of 20–100,000 characters
//   compiling hostile 4 KB globs, ours vs picomatch's parser
//   `governs` through the CLI with the adversarial glob vs a plain glob (100-character name)
// Figures only; no assertions.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { globMatcher, globTester, normalizeGlob } from "../dist/internal.js";
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

// 2. Ordinary globs over 100,000 generated paths: V8 on picomatch's expression (the floor),
//    the linear matcher (every glob, before the fast path), and the product's tester (the fast
//    path: V8 for a glob in the safe subset, else the linear matcher).
{
  const paths = [];
  const tops = ["src", "test", "docs", "lib", "packages"];
  const exts = [".ts", ".md", ".js", ".tsx", ".json"];
  for (let i = 0; i < 100_000; i++) {
    const top = tops[i % tops.length];
    const head = top === "packages" ? `packages/pkg${i % 13}/src` : top;
    paths.push(`${head}/dir${i % 37}/sub${i % 11}/file${i}${exts[i % exts.length]}`);
  }
  const rows = [["glob", "V8", "linear", "fast path", "linear / V8", "fast / V8", "path taken"]];
  const globs = [
    "src/**/*.ts",
    "docs/*.md",
    "**/*.{js,ts}",
    "packages/*/src/**",
    "src/**",
    "**/*.{ts,tsx}",
    "**/*.md",
    "test/**/fixtures/**",
    "src/dir1/sub1/file1.ts",
  ];
  for (const g of globs) {
    const m = globMatcher(g);
    const f = globTester(g);
    const re = picomatch.makeRe(g, PICO);
    const opts = { runs: 3, warmup: 1 };
    const v8 = time(() => {
      for (const p of paths) re.test(p);
    }, opts);
    const lin = time(() => {
      for (const p of paths) m.test(p);
    }, opts);
    const fast = time(() => {
      for (const p of paths) f.test(p);
    }, opts);
    rows.push([g, fmt(v8), fmt(lin), fmt(fast), ratio(lin, v8), ratio(fast, v8), f.native ? "V8" : "linear"]);
  }
  // The repository's own spec globs, every path against every glob (what `coverage` does).
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const own = [];
  for (const f of readdirSync(join(root, ".notarai"))) {
    if (!f.endsWith(".spec.yaml")) continue;
    for (const m of readFileSync(join(root, ".notarai", f), "utf8").matchAll(/^\s*- path: "([^"]+)"/gm)) own.push(normalizeGlob(m[1]));
  }
  const lins = own.map((g) => globMatcher(g));
  const fasts = own.map((g) => globTester(g));
  const res = own.map((g) => picomatch.makeRe(g, PICO));
  const once = { runs: 1, warmup: 0 };
  const all = (ms) => () => {
    for (const p of paths) for (const m of ms) m.test(p);
  };
  const v8 = time(all(res), once);
  const lin = time(all(lins), once);
  const fast = time(all(fasts), once);
  const native = fasts.filter((f) => f.native).length;
  rows.push([
    `this repository's ${own.length} spec globs, each path against all`,
    fmt(v8),
    fmt(lin),
    fmt(fast),
    ratio(lin, v8),
    ratio(fast, v8),
    `V8 for ${native} of ${own.length}`,
  ]);
  report("100,000 paths per glob: V8 (floor) vs the linear matcher vs the fast path", rows);
}

// 2b. The worst case inside the safe subset: a glob the classifier admits, on names built to make
//     V8 try the most (the star's literal tail almost matching at every position; a `/` at every
//     other character, each one a place where `**` may end), against the linear matcher on the
//     same glob and name. Linear: the time per character stays flat from 20 to 100,000 characters.
{
  const worst = { "**/*aaaaaaaaaaaaaaab": (n) => `x/${"a".repeat(n - 2)}`, "**/*.{ts,tsx}": (n) => "a/".repeat(n / 2) };
  const rows = [["glob", "name", "name length", "fast path (V8)", "linear", "fast / linear", "fast ns per character"]];
  for (const [g, name] of Object.entries(worst)) {
    const f = globTester(g);
    const m = globMatcher(g);
    if (!f.native) throw new Error(`${g} is expected in the safe subset`);
    for (const n of [20, 100, 1_000, 10_000, 100_000]) {
      const s = name(n);
      const reps = Math.max(3, Math.floor(400_000 / n));
      const a = time(() => {
        for (let i = 0; i < reps; i++) f.test(s);
      });
      const p = time(() => {
        for (let i = 0; i < reps; i++) m.test(s);
      });
      rows.push([g, n === 20 ? s : `${s.slice(0, 8)}…`, String(n), us(a, reps), us(p, reps), ratio(a, p), ((a * 1e6) / reps / n).toFixed(2)]);
    }
  }
  report("the worst case inside the safe subset, per test", rows);
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
