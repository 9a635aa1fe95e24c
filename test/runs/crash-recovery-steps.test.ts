/**
 * kill -9 during a run, then recovery: the second slice of the fault-injection points (points 16–31:
 * the steps' directories). What each test proves: crash-recovery.test.ts; the checks: helpers/crash-run.ts.
 */
import { describe, it } from "vitest";
import { killedAt, POINTS, seed } from "./helpers/crash-run.js";

describe(`kill -9 during a run, then recovery (seed ${seed})`, () => {
  it.each(POINTS.slice(15, 31))("killed at %s: the next command recovers; resume finishes", killedAt);
});
