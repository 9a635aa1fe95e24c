// Whether dist/ already holds the build `prepare` would make, so that a second `prepare` on the
// same sources does nothing. npm runs `prepare` twice when it installs this package from a git URL:
// once at the end of the `npm install` it runs in its temporary clone, and once more before it
// packs that clone (npm's pacote); each run was a whole build with declarations.
//
// The stamp, dist/build-stamp.json, is written by a build with `--types` after everything else:
// - `inputs`: a SHA-256 over what the build reads — every file under src/ and scripts/, package.json,
//   package-lock.json, tsconfig.json and tsconfig.build.json (path and bytes), what npm installed
//   (node_modules/.package-lock.json, npm's record of node_modules, rewritten at every install),
//   the Node version and the build's flags; computed before the build starts, so a source changed
//   while it runs makes the next build run again;
// - `dist`: a SHA-256 over every other file of dist/ (path, mode and bytes) as the build left it.
// A build skips only when both match what is on disk now; without node_modules/.package-lock.json
// (another package manager) nothing is skipped. Not shipped (package.json `files`).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const STAMP = "build-stamp.json";
const ROOT_FILES = ["package.json", "package-lock.json", "tsconfig.json", "tsconfig.build.json", "node_modules/.package-lock.json"];

/** Every regular file under `dir` (relative paths, `/`-separated, sorted); links are followed as Node's fs does. */
function filesUnder(dir, rel = "") {
  const out = [];
  for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
    const r = rel === "" ? e.name : `${rel}/${e.name}`;
    const s = statSync(join(dir, r));
    if (s.isDirectory()) out.push(...filesUnder(dir, r));
    else if (s.isFile()) out.push(r);
  }
  return out.sort();
}

/** One hash over files: each one's path, mode (when asked) and bytes, framed so that no two sets of files hash alike. */
function hashFiles(root, paths, withMode) {
  const h = createHash("sha256");
  for (const p of paths) {
    const abs = join(root, p);
    if (!existsSync(abs)) {
      h.update(`${p}\0missing\0`);
      continue;
    }
    const bytes = readFileSync(abs);
    const mode = withMode ? (statSync(abs).mode & 0o777).toString(8) : "";
    h.update(`${p}\0${mode}\0${bytes.length}\0`);
    h.update(bytes);
  }
  return h.digest("hex");
}

/** The fingerprint of what a build with `flags` reads in `root`, or undefined when what npm installed is not recorded. */
export function inputsFingerprint(root, flags) {
  if (!existsSync(join(root, "node_modules/.package-lock.json"))) return undefined;
  const files = [...ROOT_FILES, ...["src", "scripts"].flatMap((d) => filesUnder(join(root, d)).map((f) => `${d}/${f}`))];
  return `${process.version} ${[...flags].sort().join(" ")} ${hashFiles(root, files, false)}`;
}

/** The fingerprint of dist/ as it is now (the stamp left out). */
export function distFingerprint(root) {
  const dist = join(root, "dist");
  const files = filesUnder(dist).filter((f) => f !== STAMP);
  return hashFiles(dist, files, true);
}

/** Whether dist/ is the build of exactly these inputs, untouched since. */
export function upToDate(root, inputs) {
  if (inputs === undefined) return false;
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(root, "dist", STAMP), "utf8"));
  } catch {
    return false;
  }
  return stamp.inputs === inputs && stamp.dist === distFingerprint(root);
}

/** Record that dist/ is the build of `inputs` (the last step of a build). */
export function writeStamp(root, inputs) {
  writeFileSync(join(root, "dist", STAMP), `${JSON.stringify({ inputs, dist: distFingerprint(root) }, null, 1)}\n`);
}
