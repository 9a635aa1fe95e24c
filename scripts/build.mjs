// Build the shipped bundles with esbuild: dist/cli.cjs (the `noma-reconcile` bin)
// and dist/index.js (the library). ESM with code splitting, so every command
// body (and every heavy dependency it pulls in) is a separate chunk that is
// loaded only when that command runs. With `--types`, also emit .d.ts files.
import { build } from "esbuild";
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { builtinModules } from "node:module";
import { isAscii } from "node:buffer";
import { fileURLToPath } from "node:url";
import { basename, dirname, join, relative, sep } from "node:path";
import { inputsFingerprint, upToDate, writeStamp } from "./build-stamp.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const started = Date.now();
const withTypes = process.argv.includes("--types");

// `prepare` (the build with types) on sources dist/ was already built from, untouched since: nothing
// to do (npm runs `prepare` twice when it installs this package from a git URL; scripts/build-stamp.mjs).
const buildInputs = withTypes ? inputsFingerprint(root, ["--types"]) : undefined;
if (upToDate(root, buildInputs)) {
  process.stderr.write("dist/ is already the build of these sources (dist/build-stamp.json): nothing to do\n");
  process.exit(0);
}

// The MCP tools' JSON Schemas, generated from their zod schemas here once rather than at
// every server start (tens of ms); the bundle carries them as a JSON string constant
// (src/mcp/tool-json-schemas.ts; a string, because esbuild injects an object define into every module).
async function generateToolSchemas() {
  const out = await build({
    absWorkingDir: root,
    entryPoints: ["src/mcp/generate-tool-json-schemas.ts"],
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    write: false,
    logLevel: "warning",
  });
  const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
  return mod.toolJsonSchemas();
}
const toolSchemas = await generateToolSchemas();

/**
 * dist/licenses.txt: the name, version, licence and licence text of every package whose code a
 * bundle holds (from esbuild's metafiles), since the bundles keep no legal comments and the
 * package ships no node_modules.
 */
function writeLicenses(metafiles) {
  const dirs = new Set();
  for (const m of metafiles)
    for (const input of Object.keys(m.inputs)) {
      const at = input.lastIndexOf("node_modules/");
      if (at < 0) continue;
      const parts = input.slice(at + "node_modules/".length).split("/");
      dirs.add(`${input.slice(0, at)}node_modules/${parts.slice(0, parts[0].startsWith("@") ? 2 : 1).join("/")}`);
    }
  const out = [`Third-party code bundled in ${pkg.name} ${pkg.version} (dist/), with the licence of each package.`, ""];
  for (const dir of [...dirs].sort()) {
    const meta = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
    const file = readdirSync(join(root, dir)).find((f) => /^licen[cs]e(\.(md|txt))?$/i.test(f));
    // A package without a licence file (zstd-wasm): what its README says of its licence, and who wrote it.
    const readme = file === undefined ? readFileSync(join(root, dir, "README.md"), "utf8") : "";
    const section = /^## Licen[cs]e\s*$([\s\S]*?)(?=^## |(?![\s\S]))/im.exec(readme)?.[1]?.trim();
    if (file === undefined && section === undefined) throw new Error(`${dir}: no licence text to ship with its bundled code`);
    const author = typeof meta.author === "string" ? meta.author : (meta.author?.name ?? "");
    const text =
      file !== undefined ? readFileSync(join(root, dir, file), "utf8").trimEnd() : `${section}\n(${meta.repository?.url ?? meta.repository ?? ""}; ${author})`;
    out.push("=".repeat(78), `${meta.name} ${meta.version} (${meta.license})`, "=".repeat(78), text, "");
  }
  writeFileSync(join(root, "dist/licenses.txt"), `${out.join("\n")}\n`);
}

rmSync(join(root, "dist"), { recursive: true, force: true });

// The hot commands once more, each as one CommonJS file (dist/bodies/<name>.cjs), which the bin
// compiles with V8's code cache (src/cli/startup/load-cached-body.ts); the less frequent
// one-shot commands together in one more, dist/bodies/commands.cjs (src/cli/bodies/commands-body.ts). The bin learns each body's
// content hash (its cache key) and the Node built-ins it loads (loaded before the short-run
// V8 flag is set, so they keep Node's own code cache) through a define.
const BODIES = {
  check: "src/cli/bodies/check-body.ts",
  "check-fixes": "src/cli/bodies/check-fixes-body.ts",
  patch: "src/cli/bodies/patch-body.ts",
  render: "src/cli/bodies/render-body.ts",
  changed: "src/cli/bodies/changed-body.ts",
  diff: "src/cli/bodies/diff-body.ts",
  affected: "src/cli/bodies/affected-body.ts",
  commands: "src/cli/bodies/commands-body.ts",
  services: "src/cli/bodies/services-body.ts",
};
/**
 * Loaded lazily at run time: from dist/vendor/ in the bundle (built below, each beside the
 * WebAssembly file it reads), from node_modules when running from source (src/vendored.ts).
 * External here only so that the from-source branch is left as it is.
 */
const EXTERNAL = ["sql.js", "blake3-wasm", "@bokuweb/zstd-wasm", "yaml"];
/** CommonJS outputs of our code: import.meta.url made from __filename. */
const IMPORT_META_SHIM = { banner: { js: "const __nrImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" }, external: EXTERNAL };
/** What every CommonJS output shares (the bodies, the bin, the vendored YAML library). */
const commonjs = {
  absWorkingDir: root,
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
};
/**
 * A body runs as a vm.Script, where import() has no module loader behind it: a Node built-in
 * imported on first use is required in the bodies, and so is zstd, which
 * src/workspace/load-zstd.ts imports (the ES module build's way to load a CommonJS file
 * asynchronously), is required in the bodies instead, from the same vendored file. Each
 * replacement must find its text: the build fails rather than ship a body whose import() would throw.
 */
const BODY_REWRITES = {
  "src/workspace/load-zstd.ts": [
    ['import(pathToFileURL(vendoredPath("zstd.cjs")).href)', 'Promise.resolve(require(vendoredPath("zstd.cjs")))'],
    ['import("@bokuweb/zstd-wasm")', 'Promise.resolve(require("@bokuweb/zstd-wasm"))'],
  ],
};
const bodyRewrites = {
  name: "body-requires",
  setup(b) {
    b.onLoad({ filter: /\/src\/.*\.ts$/ }, (args) => {
      let text = readFileSync(args.path, "utf8");
      const rewrites = BODY_REWRITES[relative(root, args.path).split(sep).join("/")];
      if (rewrites === undefined && !/\bawait import\("node:/.test(text)) return undefined;
      for (const [from, to] of rewrites ?? []) {
        if (!text.includes(from)) throw new Error(`${args.path}: no \`${from}\` to make a require() in the bodies (scripts/build.mjs)`);
        text = text.replace(from, to);
      }
      // A Node built-in imported on first use: required (the same module object; its named exports are its properties).
      text = text.replace(/\bawait import\(("node:[a-z_/]+")\)/g, "await Promise.resolve(require($1))");
      return { contents: text, loader: "ts" };
    });
  },
};
const bodies = await build({
  ...commonjs,
  entryPoints: BODIES,
  outdir: "dist/bodies",
  plugins: [bodyRewrites],
  ...IMPORT_META_SHIM,
  define: {
    "import.meta.url": "__nrImportMetaUrl",
    __NOMA_RECONCILE_VENDOR__: "true",
    __NOMA_RECONCILE_VERSION__: JSON.stringify(pkg.version),
    __NOMA_RECONCILE_HOMEPAGE__: JSON.stringify(pkg.homepage),
    __NOMA_RECONCILE_TOOL_SCHEMAS__: JSON.stringify(JSON.stringify(toolSchemas)),
  },
  // Without comments or indentation: a smaller source to read each run, and one byte per
  // character (esbuild escapes non-ASCII in code; comments were the only non-ASCII text),
  // which Node decodes and V8 scans faster. Names are kept, so stack traces still read.
  minifyWhitespace: true,
  metafile: true,
});
const builtins = new Set(builtinModules);
const bodyInfo = {};
for (const [out, meta] of Object.entries(bodies.metafile.outputs)) {
  const name = Object.entries(BODIES).find(([, entry]) => entry === meta.entryPoint)?.[0];
  if (name === undefined) continue;
  const bytes = readFileSync(join(root, out));
  if (!isAscii(bytes)) throw new Error(`${out}: not ASCII (load-cached-body.ts reads a body as Latin-1)`);
  const text = bytes.toString("latin1");
  // A body runs as a vm.Script, where import() has no loader behind it: everything must be require().
  const dynamic = /\bimport\(\s*["'`]/.exec(text);
  if (dynamic !== null)
    throw new Error(
      `${out}: a dynamic import() of an external module (${text.slice(dynamic.index, dynamic.index + 60)}); make it a require() or keep it out of the body`,
    );
  const needs = [...new Set(meta.imports.filter((i) => i.external && (i.path.startsWith("node:") || builtins.has(i.path))).map((i) => i.path))];
  // The global `performance` loads node:perf_hooks on first use.
  if (/\bperformance\.now\(/.test(text)) needs.push("node:perf_hooks");
  needs.sort();
  bodyInfo[name] = { id: createHash("sha256").update(text).digest("hex"), builtins: needs };
}
// The library (dist/index.js) and every command body the bin imports (dist/commands/*.js):
// ES modules with code splitting, so a command pays only for what it imports.
const main = readFileSync(join(root, "src/cli/main.ts"), "utf8");
const commands = [...new Set([...main.matchAll(/import\("\.\/commands\/([a-z-]+)\.js"\)/g)].map((m) => m[1]))];
const defines = {
  __NOMA_RECONCILE_VENDOR__: "true",
  __NOMA_RECONCILE_VERSION__: JSON.stringify(pkg.version),
  __NOMA_RECONCILE_HOMEPAGE__: JSON.stringify(pkg.homepage),
  __NOMA_RECONCILE_TOOL_SCHEMAS__: JSON.stringify(JSON.stringify(toolSchemas)),
  __NOMA_RECONCILE_BODIES__: JSON.stringify(JSON.stringify(bodyInfo)),
};
const esm = await build({
  absWorkingDir: root,
  entryPoints: {
    index: "src/index.ts",
    internal: "src/internal.ts",
    ...Object.fromEntries(commands.map((c) => [`commands/${c}`, `src/cli/commands/${c}.ts`])),
  },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  banner: {
    // Some bundled CommonJS code calls require(); give ESM chunks a real one.
    js: "import { createRequire as __nrCreateRequire } from 'node:module'; const require = __nrCreateRequire(import.meta.url);",
  },
  define: defines,
  external: EXTERNAL,
  legalComments: "none",
  // As the bodies: no comments or indentation (a smaller package to install and less to read
  // at each start); names are kept, so stack traces still read.
  minifyWhitespace: true,
  logLevel: "warning",
  metafile: true,
});
// Which of our source files each output holds (dist/inputs.json): what tests of the start-up
// paths read to tell which code a command loaded, without looking inside the bundles.
const inputsOf = (outputs) =>
  Object.fromEntries(
    Object.entries(outputs)
      .filter(([out]) => !out.endsWith(".map"))
      .map(([out, meta]) => [
        out.replace(/^dist\//, ""),
        Object.keys(meta.inputs)
          .filter((i) => i.startsWith("src/"))
          .sort(),
      ]),
  );
writeFileSync(join(root, "dist/inputs.json"), `${JSON.stringify({ ...inputsOf(bodies.metafile.outputs), ...inputsOf(esm.metafile.outputs) }, null, 1)}\n`);
// The bin, dist/cli.cjs: CommonJS, because Node 20 spends ≈ 40 ms setting up its ES module
// loader for an ES module entry (an empty .mjs: 1.4× `node -e 0`; an empty .cjs: 1.0×). A
// command loaded through its cached body (check, patch) never needs that loader; the others
// import their ES module (dist/commands/<name>.js), which sets it up then.
const bin = await build({
  ...commonjs,
  entryPoints: { cli: "src/cli/main.ts" },
  outdir: "dist",
  metafile: true,
  ...IMPORT_META_SHIM,
  define: { ...defines, "import.meta.url": "__nrImportMetaUrl" },
  plugins: [
    {
      name: "commands-stay-es-modules",
      setup(b) {
        b.onResolve({ filter: /^\.\/commands\/[a-z-]+\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
  ],
});
// dist/agent-hook.cjs, the coding agent's gate (src/cli/agent-hook-run.ts): required by the bin only for
// `agent-hook`, which runs on every tool call of an agent, so that neither the bin's other commands pay
// for its code nor it for theirs. It loads no parser, YAML or zod; what judges documents is the ES
// module dist/commands/agent-hook-command.js, imported for the calls that need it.
const agentHook = await build({
  ...commonjs,
  entryPoints: { "agent-hook": "src/cli/agent-hook-run.ts" },
  outdir: "dist",
  ...IMPORT_META_SHIM,
  define: { ...defines, "import.meta.url": "__nrImportMetaUrl" },
  metafile: true,
});
const inputs = JSON.parse(readFileSync(join(root, "dist/inputs.json"), "utf8"));
writeFileSync(join(root, "dist/inputs.json"), `${JSON.stringify({ ...inputs, ...inputsOf(agentHook.metafile.outputs) }, null, 1)}\n`);
// dist/cli.js, the bin's former path (configurations written before may name it): the same CLI.
writeFileSync(
  join(root, "dist/cli.js"),
  '#!/usr/bin/env node\n// The CLI is dist/cli.cjs (the bin); this path is kept for configurations that name it.\nimport "./cli.cjs";\n',
);
// The runtime dependencies, vendored: the package ships only what runs, and installs with no
// dependencies (docs/install.md). Each is one CommonJS file in dist/vendor/, required on first
// use (src/vendored.ts), beside the one WebAssembly build it reads from its own directory:
// - the YAML library (src/yaml/yaml-lib.ts): the parser is synchronous, and most commands never need YAML;
// - sql.js's WebAssembly build for Node (sql-wasm.js finds sql-wasm.wasm beside it); none of its other builds;
// - blake3-wasm's Node build: its functions and its binding from one module instance (src/cache/blake3.ts);
// - zstd-wasm's CommonJS build (it reads zstd.wasm from beside it).
// zod, picomatch, smol-toml and modern-tar are bundled into the chunks above.
const VENDOR = {
  yaml: { entry: "node_modules/yaml/dist/index.js" },
  "sql-wasm": { entry: "node_modules/sql.js/dist/sql-wasm.js", wasm: "node_modules/sql.js/dist/sql-wasm.wasm" },
  blake3: {
    stdin: 'module.exports = { b3: require("blake3-wasm"), binding: require("blake3-wasm/dist/wasm/nodejs/blake3_js.js") };\n',
    wasm: "node_modules/blake3-wasm/dist/wasm/nodejs/blake3_js_bg.wasm",
  },
  zstd: { entry: "node_modules/@bokuweb/zstd-wasm/dist/common/index.node.js", wasm: "node_modules/@bokuweb/zstd-wasm/dist/common/zstd.wasm" },
};
const vendorMeta = [];
for (const [name, v] of Object.entries(VENDOR)) {
  const r = await build({
    ...commonjs,
    ...(v.stdin !== undefined ? { stdin: { contents: v.stdin, resolveDir: root, sourcefile: `${name}-entry.cjs` } } : { entryPoints: [v.entry] }),
    outfile: `dist/vendor/${name}.cjs`,
    metafile: true,
  });
  vendorMeta.push(r.metafile);
  if (v.wasm !== undefined) copyFileSync(join(root, v.wasm), join(root, "dist/vendor", basename(v.wasm)));
}
// The licences of everything bundled (our chunks and the vendored files): the bundles keep no legal comments.
writeLicenses([bodies.metafile, esm.metafile, bin.metafile, ...vendorMeta]);
chmodSync(join(root, "dist/cli.cjs"), 0o755);
chmodSync(join(root, "dist/cli.js"), 0o755);

if (withTypes) {
  // The declarations by TypeScript 7, the native compiler (the package `typescript-7`, an npm alias; ≈ 5× less CPU than
  // 5.9 here); the TypeScript JS API that scripts/vendor-types.mjs uses is 5.9's (the package `typescript`): docs/design/build.md.
  // `--noCheck`: the declarations only, without type-checking all of src/ again (that is `npm run typecheck`'s job, in `npm test`);
  // the same .d.ts files byte for byte, for 3.0 s of CPU instead of 7.9 s (docs/perf/typescript.md).
  execFileSync(process.execPath, [join(root, "node_modules/typescript-7/bin/tsc"), "-p", "tsconfig.build.json", "--noCheck"], {
    cwd: root,
    stdio: "inherit",
  });
  // Only what the `types` entry reaches, and the declarations of the packages it names copied in (scripts/vendor-types.mjs).
  const { vendorTypes } = await import("./vendor-types.mjs");
  vendorTypes(root, join(root, "dist/types"));
  // Last: what dist/ now holds is the build of `buildInputs` (taken before the build began).
  if (buildInputs !== undefined) writeStamp(root, buildInputs);
}
process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`);
