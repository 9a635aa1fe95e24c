// Regenerate the JSON Schemas shipped in the package's schemas/ from the built CLI:
//   schemas/config.schema.json        ← `noma-reconcile schema config`       (.notarai/config.yaml)
//   schemas/norma-config.schema.json  ← `noma-reconcile schema norma-config` (.norma/config.json)
// Projects point at them from their files (docs/configuration.md), e.g.
//   # yaml-language-server: $schema=../node_modules/noma-reconcile/schemas/config.schema.json
// Run after `npm run build`; `--check` only reports stale files (exit 1).
// test/cli/config-schemas.test.ts checks the committed files against the CLI.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist/cli.cjs");
const check = process.argv.includes("--check");
const FILES = { "schemas/config.schema.json": "config", "schemas/norma-config.schema.json": "norma-config" };

let stale = 0;
mkdirSync(join(root, "schemas"), { recursive: true });
for (const [file, name] of Object.entries(FILES)) {
  const wanted = execFileSync(process.execPath, [cli, "schema", name], { encoding: "utf8" });
  let current = null;
  try {
    current = readFileSync(join(root, file), "utf8");
  } catch {}
  if (current === wanted) continue;
  stale++;
  if (check) console.error(`${file} is stale: run npm run build && node scripts/generate-schemas.mjs`);
  else {
    writeFileSync(join(root, file), wanted);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = check && stale > 0 ? 1 : 0;
