// Build the shipped bundles with esbuild: dist/cli.js (the `noma-reconcile` bin)
// and dist/index.js (the library). ESM with code splitting, so every command
// body (and every heavy dependency it pulls in) is a separate chunk that is
// loaded only when that command runs. With `--types`, also emit .d.ts files.
import { build } from "esbuild";
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const started = Date.now();

// The MCP tools' JSON Schemas, generated from their zod schemas here once rather than at
// every server start (tens of ms); the bundle carries them as a JSON string constant
// (src/mcp/tool-json-schemas.ts; a string, because esbuild injects an object define into every module).
async function generateToolSchemas() {
  const out = await build({ absWorkingDir: root, entryPoints: ["src/mcp/generate-tool-json-schemas.ts"], bundle: true, format: "esm", platform: "node", target: "node20", write: false, logLevel: "warning" });
  const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString("base64")}`);
  return mod.toolJsonSchemas();
}
const toolSchemas = await generateToolSchemas();

rmSync(join(root, "dist"), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: "src/cli/main.ts", index: "src/index.ts" },
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
  define: { __NOMA_RECONCILE_VENDOR_YAML__: "true", __NOMA_RECONCILE_VERSION__: JSON.stringify(pkg.version), __NOMA_RECONCILE_TOOL_SCHEMAS__: JSON.stringify(JSON.stringify(toolSchemas)) },
  // Loaded lazily at run time from node_modules (WASM files beside them; zstd-wasm reads its .wasm from beside its module).
  external: ["sql.js", "blake3-wasm", "@bokuweb/zstd-wasm", "yaml"],
  legalComments: "none",
  logLevel: "warning",
  metafile: false,
});
// The YAML library as one CommonJS file, required on first use (src/yaml/yaml-lib.ts): the
// parser is synchronous, and most commands never need YAML.
await build({
  absWorkingDir: root,
  entryPoints: { yaml: "node_modules/yaml/dist/index.js" },
  outdir: "dist/vendor",
  outExtension: { ".js": ".cjs" },
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  legalComments: "none",
  logLevel: "warning",
});
chmodSync(join(root, "dist/cli.js"), 0o755);

if (process.argv.includes("--types")) {
  execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"], {
    cwd: root,
    stdio: "inherit",
  });
}
process.stderr.write(`built dist/ in ${Date.now() - started} ms\n`);
