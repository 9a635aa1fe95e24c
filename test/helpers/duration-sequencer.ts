/**
 * The order test files start in: longest first, by the durations in test/durations.json (seconds
 * per file, from a full run). Two workers share the files as they free up, so a long file that
 * starts last is a tail nobody shares; started first, the short files fill in around it. Vitest's
 * own order needs its results cache, which a clean clone (CI) does not have, and keeps each project
 * together, which puts the whole slow project at the end. A file missing from the list (a new one)
 * takes vitest's cached duration when there is one, else it runs after the listed ones, larger
 * files first. The order changes only how fast the run finishes, never what a test sees.
 * `node scripts/test-durations.mjs` rewrites the list from vitest's cache after a full run.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const DURATIONS = new URL("../durations.json", import.meta.url);

function readDurations(): Map<string, number> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(DURATIONS, "utf8"));
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return new Map();
    return new Map(Object.entries(parsed).filter((e): e is [string, number] => typeof e[1] === "number" && Number.isFinite(e[1])));
  } catch {
    return new Map();
  }
}

export class DurationSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = readDurations();
    const root = this.ctx.config.root;
    const estimate = (spec: TestSpecification): { known: boolean; seconds: number; size: number; path: string } => {
      const path = relative(root, spec.moduleId).split("\\").join("/");
      const listed = durations.get(path);
      if (listed !== undefined) return { known: true, seconds: listed, size: 0, path };
      const key = `${spec.project.name}:${path}`;
      const cached = this.ctx.cache.getFileTestResults(key);
      if (cached !== undefined) return { known: true, seconds: cached.duration / 1000, size: 0, path };
      return { known: false, seconds: 0, size: this.ctx.cache.getFileStats(key)?.size ?? 0, path };
    };
    const keyed = files.map((spec) => ({ spec, ...estimate(spec) }));
    keyed.sort((a, b) => {
      if (a.known !== b.known) return a.known ? -1 : 1;
      if (a.seconds !== b.seconds) return b.seconds - a.seconds;
      if (a.size !== b.size) return b.size - a.size;
      return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    });
    return keyed.map((k) => k.spec);
  }
}
