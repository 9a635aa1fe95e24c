import { describe, expect, it } from "vitest";
import { closestName, didYouMean, editDistance } from "../../src/errors/did-you-mean.js";

describe("did you mean", () => {
  it("counts a swap of two neighbours as one edit", () => {
    expect(editDistance("chekc", "check")).toBe(1);
    expect(editDistance("updte_attribute", "update_attribute")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("kitten", "sitting")).toBe(3);
  });

  it("suggests the closest known name when it is close enough, else nothing", () => {
    expect(closestName("chekc", ["check", "ci", "cache"])).toBe("check");
    expect(closestName("max_iteration", ["max_iterations", "max_patch_kb"])).toBe("max_iterations");
    expect(closestName("STAGED", ["staged"])).toBe("staged");
    expect(closestName("mark", ["mark-reconciled", "run"])).toBe("mark-reconciled");
    expect(closestName("xyzzy", ["check", "ci"])).toBeUndefined();
    expect(closestName("zz", ["ci"])).toBeUndefined();
    expect(didYouMean("transcript", ["transcripts", "profile"])).toBe(' (did you mean "transcripts"?)');
    expect(didYouMean("bogus", ["transcripts"])).toBe("");
  });
});
