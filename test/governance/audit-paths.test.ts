/**
 * The audit-record rule itself (pure), and that every question governance answers
 * — governorsOf, governs, categoryTest (the warm path's walk), isExcluded — agrees
 * on it.
 */
import { describe, expect, it } from "vitest";
import { auditTest, buildGovernance, buildSpecSet, DEFAULT_AUDIT_LOCATIONS, validateSpecText } from "../../src/internal.js";
import { specYaml } from "../reconcile/helpers/specs.js";

const EVERYTHING = ".notarai/all.spec.yaml";

function governance(audit = DEFAULT_AUDIT_LOCATIONS) {
  const spec = validateSpecText(EVERYTHING, specYaml({ artifacts: { all: ["**"] } }));
  return buildGovernance(buildSpecSet([spec]), audit);
}

describe("audit records", () => {
  it("by default: the evidence ledger, archived versions, .norma/ but its config.json, transcripts", () => {
    const kind = auditTest();
    expect(
      Object.fromEntries(
        [
          "docs/evidence_ledger.tools.log",
          "docs/evidence_ledger.tools.log.bak",
          "archive/2026/05/docs/plan.md.tar.zst",
          "archive/2026/05/docs/plan.md",
          "archive/notes.md",
          "archive/2026/notes.tar.zst",
          ".norma/norma.db",
          ".norma/runs/20260105-100000-ab12cd/steps/003-check/scorecard.md",
          ".norma/.gitignore",
          ".norma/config.json",
          "docs/plan.noma.patches",
          "Docs/Plan.NOMA.PATCHES",
          "docs/plan.noma",
          "src/patches.ts",
        ].map((p) => [p, kind(p)]),
      ),
    ).toEqual({
      "docs/evidence_ledger.tools.log": "ledger",
      "docs/evidence_ledger.tools.log.bak": null,
      "archive/2026/05/docs/plan.md.tar.zst": "archive",
      "archive/2026/05/docs/plan.md": null,
      "archive/notes.md": null,
      "archive/2026/notes.tar.zst": null,
      ".norma/norma.db": "run-loop",
      ".norma/runs/20260105-100000-ab12cd/steps/003-check/scorecard.md": "run-loop",
      ".norma/.gitignore": "run-loop",
      ".norma/config.json": null,
      "docs/plan.noma.patches": "transcript",
      "Docs/Plan.NOMA.PATCHES": "transcript",
      "docs/plan.noma": null,
      "src/patches.ts": null,
    });
  });

  it("where the configuration puts the ledger and the archive (./ and a trailing / as written are the same place)", () => {
    const kind = auditTest({ ledger: "./records/tools.log", archive: "records/old/" });
    expect(kind("records/tools.log")).toBe("ledger");
    expect(kind("records/old/2026/01/src/a.ts.tar.zst")).toBe("archive");
    expect(kind("docs/evidence_ledger.tools.log")).toBeNull();
    expect(kind("archive/2026/01/src/a.ts.tar.zst")).toBeNull();
  });

  it("governance leaves them out in every question it answers, even under a ** glob", () => {
    const g = governance({ ledger: "records/tools.log", archive: "old" });
    const walk = g.categoryTest(EVERYTHING);
    for (const p of ["records/tools.log", "old/2026/01/a.md.tar.zst", ".norma/norma.db", "docs/a.noma.patches"]) {
      expect({
        p,
        governors: g.governorsOf(p),
        governs: g.governs(EVERYTHING, p),
        walk: walk(p),
        excluded: g.isExcluded(p),
        audit: g.auditKind(p) !== null,
      }).toEqual({ p, governors: [], governs: null, walk: null, excluded: true, audit: true });
    }
    for (const p of ["docs/evidence_ledger.tools.log", "old/notes.md", ".norma/config.json", "docs/a.noma"]) {
      expect({ p, governors: g.governorsOf(p).length, walk: walk(p), excluded: g.isExcluded(p) }).toEqual({ p, governors: 1, walk: "all", excluded: false });
    }
  });
});
