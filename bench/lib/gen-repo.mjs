// A generated repository of `n` ~1 KB files under nested directories (src/m*/p*/q*/f*.txt),
// one commit on main with one spec governing src/**, and a branch `feature` that changes 200
// files in a second commit. Shared by the reconciliation benches.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { git } from "./measure.mjs";
import { fileText } from "./gen-file-text.mjs";

export const SPEC = ".notarai/all.spec.yaml";

export function pathOf(i) {
  return `src/m${i % 40}/p${Math.floor(i / 40) % 25}/q${Math.floor(i / 1000) % 10}/f${i}.txt`;
}

/** Generate the repository at `root` unless a complete one of `n` files is there already. */
export function ensureRepo(root, n, log = (s) => process.stderr.write(`${s}\n`)) {
  if (existsSync(join(root, ".bench-complete"))) return;
  rmSync(root, { recursive: true, force: true });
  const t0 = Date.now();
  mkdirSync(root, { recursive: true });
  git(root, ["init", "-q", "-b", "main"]);
  git(root, ["config", "user.name", "Bench"]);
  git(root, ["config", "user.email", "bench@example.invalid"]);
  git(root, ["config", "commit.gpgsign", "false"]);
  const dirs = new Set();
  for (let i = 0; i < n; i++) {
    const p = join(root, pathOf(i));
    const d = dirname(p);
    if (!dirs.has(d)) {
      mkdirSync(d, { recursive: true });
      dirs.add(d);
    }
    writeFileSync(p, fileText(i));
  }
  mkdirSync(join(root, ".notarai"), { recursive: true });
  writeFileSync(
    join(root, SPEC),
    'schema_version: "0.7"\nintent: Everything in this repository.\nbehaviors:\n  - name: all\n    given: any change\n    then: it is reconciled\nartifacts:\n  code:\n    - path: "src/**"\n',
  );
  git(root, ["add", "-A"]);
  git(root, ["commit", "-qm", `${n} files`]);
  git(root, ["checkout", "-qb", "feature"]);
  for (let i = 0; i < 200; i++) writeFileSync(join(root, pathOf((i * 397) % n)), `${fileText(i)}feature change ${i}\n`);
  git(root, ["commit", "-qam", "feature: 200 files"]);
  writeFileSync(join(root, ".bench-complete"), String(n));
  log(`generated ${n} files in ${((Date.now() - t0) / 1000).toFixed(1)} s at ${root}`);
}
