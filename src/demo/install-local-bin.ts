/**
 * `demo --keep`: make `npx noma-reconcile` work in the kept repository — it has no
 * package.json and noma-reconcile may not be installed anywhere, so npx would otherwise
 * look for it on the registry. Writes `node_modules/.bin/noma-reconcile` (and a `.cmd`
 * for Windows), small launchers of the CLI that built the repository, and keeps
 * `node_modules/` out of git through `.git/info/exclude` (the repository's files and
 * its PR check stay as they are). npx runs a command it finds in the local
 * `node_modules/.bin` without asking the registry.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export function installLocalBin(dir: string, cliPath: string): string {
  const bin = join(dir, "node_modules", ".bin");
  mkdirSync(bin, { recursive: true });
  const launcher = join(bin, "noma-reconcile");
  writeFileSync(
    launcher,
    `#!/usr/bin/env node\n// Written by \`noma-reconcile demo --keep\`: runs the CLI that built this ` +
      `repository.\nimport(${JSON.stringify(pathToFileURL(cliPath).href)});\n`,
  );
  chmodSync(launcher, 0o755);
  writeFileSync(join(bin, "noma-reconcile.cmd"), `@node "${cliPath}" %*\r\n`);
  const exclude = join(dir, ".git", "info", "exclude");
  const current = existsSync(exclude) ? readFileSync(exclude, "utf8") : "";
  if (!current.split(/\r?\n/).includes("/node_modules/")) {
    mkdirSync(join(dir, ".git", "info"), { recursive: true });
    appendFileSync(exclude, `${current.length > 0 && !current.endsWith("\n") ? "\n" : ""}/node_modules/\n`);
  }
  return launcher;
}
