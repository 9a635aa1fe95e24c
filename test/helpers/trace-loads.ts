/**
 * Which of our sources (and which packages) a run of the real CLI loaded, observed, not guessed:
 * - ES modules (the commands' modules, when a command runs without its cached body): a module
 *   loader hook (node:module register) writes every loaded URL; which of our sources each output
 *   holds, the build says (dist/inputs.json, from esbuild's metafile);
 * - CommonJS files (the vendored dist/vendor/*.cjs): the keys of require.cache, written at exit;
 * - modules inside a cached command body (dist/bodies/*.cjs, compiled from its file with
 *   node:vm, which no loader sees): a body is one esbuild CommonJS bundle whose commands are
 *   lazy loaders, so each of its modules is a function that runs once, the first time the module
 *   is imported, and esbuild's helper finds that function as the one key of an object named after
 *   the module's path (`__esm({"src/x.ts"() {...}})`, looked up with Object.getOwnPropertyNames).
 *   A preloaded script wraps Object.getOwnPropertyNames and writes each such key when it is asked
 *   for: the modules whose top-level code ran. Callers also assert that a path which must load a
 *   module is seen loading it, so a change in esbuild's helper fails the tests rather than blinding them.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { CLI } from "./run-cli.js";
import { tempDir } from "./temp-repo.js";

const DIST = join(CLI, "..");

/** Our source files each built output holds (dist-relative output path → src/… inputs). */
export const INPUTS = JSON.parse(readFileSync(join(DIST, "inputs.json"), "utf8")) as Record<string, string[]>;

export interface TracedRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** ES modules loaded from dist/ (dist-relative paths). */
  esm: string[];
  /** CommonJS files required (absolute paths; dist/ ones dist-relative). */
  cjs: string[];
  /** Modules initialised inside a cached body: `src/…` paths and `node_modules/<package>/…` paths. */
  inits: string[];
}

/**
 * Run `node dist/cli.cjs ...args` in `cwd` with every load recorded. The compile cache is a directory
 * of the trace's own, so a command with a body runs from it, as for a user, whatever ~/.cache holds.
 */
export function traceLoads(args: string[], options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv }): TracedRun {
  const dir = tempDir("nr-trace-");
  const esmOut = join(dir, "esm.txt");
  const cjsOut = join(dir, "cjs.txt");
  const initOut = join(dir, "inits.txt");
  for (const f of [esmOut, cjsOut, initOut]) writeFileSync(f, "");
  const loader = `import { appendFileSync } from "node:fs";
export async function load(url, context, next) { appendFileSync(${JSON.stringify(esmOut)}, url + "\\n"); return next(url, context); }`;
  const esm = join(dir, "esm-trace.mjs");
  writeFileSync(esm, `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(loader)}`)});\n`);
  const cjs = join(dir, "cjs-trace.cjs");
  writeFileSync(
    cjs,
    `const fs = require("node:fs");
const names = Object.getOwnPropertyNames;
const inits = [];
Object.getOwnPropertyNames = function (o) {
  const keys = names(o);
  if (keys.length === 1 && /\\.(ts|js|mjs|cjs)$/.test(keys[0]) && typeof o[keys[0]] === "function") inits.push(keys[0]);
  return keys;
};
process.on("exit", () => {
  fs.appendFileSync(${JSON.stringify(initOut)}, inits.join("\\n") + "\\n");
  fs.appendFileSync(${JSON.stringify(cjsOut)}, Object.keys(require.cache).join("\\n") + "\\n");
});
`,
  );
  const r = spawnSync(process.execPath, ["--require", cjs, "--import", pathToFileURL(esm).href, CLI, ...args], {
    cwd: options.cwd,
    input: options.input,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", CI: "1", NOMA_RECONCILE_COMPILE_CACHE_DIR: join(dir, "cache"), ...options.env },
  });
  const lines = (file: string) =>
    readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.length > 0);
  const rel = (p: string) => (p.startsWith(`${DIST}/`) ? p.slice(DIST.length + 1) : p);
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    esm: lines(esmOut)
      .filter((u) => u.startsWith(`file://${DIST}/`))
      .map((u) => rel(fileURLToPath(u))),
    cjs: [...new Set(lines(cjsOut).filter((p) => p !== cjs))].map(rel),
    // A package's module is named by its path from the bundle's working directory (through a linked node_modules, ../…/node_modules/…).
    inits: [...new Set(lines(initOut).map((k) => k.replace(/^(\.\.\/)*(.*\/)?node_modules\//, "node_modules/")))],
  };
}

/** The sources of ours a traced run loaded: those of the ES modules it loaded and those initialised in a body. */
export function loadedSources(t: TracedRun): string[] {
  const fromEsm = t.esm.flatMap((o) => INPUTS[o] ?? []);
  return [...new Set([...fromEsm, ...t.inits.filter((k) => k.startsWith("src/"))])].sort();
}
