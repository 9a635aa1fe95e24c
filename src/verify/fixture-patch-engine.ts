/**
 * The patch engine as the conformance harness sees it. Until the patch engine
 * lands, every patch fixture fails with a clear reason.
 */
import type { FixturePatchEngine } from "./evaluate-fixture.js";

export const fixturePatchEngine: FixturePatchEngine | undefined = undefined;
