/**
 * Where the conformance corpora are: the upstream one, read in place beside the
 * project (never copied), and ours under fixtures/conformance.
 */
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const UPSTREAM = fileURLToPath(new URL("../../../shared/conformance", import.meta.url));
export const OURS = fileURLToPath(new URL("../../fixtures/conformance", import.meta.url));
export const upstreamPresent = existsSync(UPSTREAM);

if (!upstreamPresent) {
  console.warn(`\n[conformance] SKIPPING the upstream Noma corpus: ${UPSTREAM} is absent (it lives in ../shared/conformance beside the project).\n`);
}

/** `track/name` of every fixture directory in a corpus (those holding input.noma). */
export function fixtureNames(root: string, tracks: readonly string[]): string[] {
  const out: string[] = [];
  for (const track of tracks) {
    if (!existsSync(`${root}/${track}`)) continue;
    for (const name of readdirSync(`${root}/${track}`).sort()) {
      if (existsSync(`${root}/${track}/${name}/input.noma`)) out.push(`${track}/${name}`);
    }
  }
  return out;
}
