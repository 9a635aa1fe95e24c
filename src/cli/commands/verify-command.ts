/**
 * `noma-reconcile verify <dir>`: the Annex C.4 conformance harness.
 * Reads the corpus in place (read-only); the corpus may live outside the repository.
 */
import { isCorpusDir, verifyCorpus } from "../../verify/verify-corpus.js";
import { resolve } from "node:path";
import type { CliIO } from "../cli-io.js";
import { fixturePatchEngine } from "../../verify/fixture-patch-engine.js";

export async function verifyCommand(dir: string | undefined, io: CliIO): Promise<number> {
  if (dir === undefined || dir.length === 0) {
    io.stderr("noma-reconcile verify: missing <fixture-dir> (the corpus root, e.g. examples/conformance)\n");
    return 2;
  }
  const abs = resolve(io.cwd, dir);
  if (!isCorpusDir(abs)) {
    io.stderr(`noma-reconcile verify: ${dir}: no such directory\n`);
    return 2;
  }
  const report = verifyCorpus(abs, fixturePatchEngine, dir);
  io.stdout(report.text);
  if (report.results.length === 0) io.stderr(`noma-reconcile verify: no fixtures (directories with input.noma) under ${dir}\n`);
  return report.exitCode;
}
