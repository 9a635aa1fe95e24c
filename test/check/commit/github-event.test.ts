/**
 * The GitHub event file → base commit (pure):
 * - pull_request(+_target): base.sha (with head.sha); merge_group: base_sha; push: before;
 *   an all-zero `before` is a new branch;
 * - without an event name, the payload's shape decides; unrelated events and
 *   malformed shas name no base; extra fields never matter (property).
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { baseFromGithubEvent, parseGithubEvent } from "../../../src/internal.js";

const sha = fc.stringMatching(/^[0-9a-f]{40}$/);
const junk = fc.dictionary(
  fc.stringMatching(/^[a-z_]{1,8}$/).filter((k) => !["pull_request", "merge_group", "before"].includes(k)),
  fc.jsonValue(),
  { maxKeys: 4 },
);

describe("baseFromGithubEvent", () => {
  it("pull_request: base.sha, with the head sha, whatever else the payload holds", () => {
    fc.assert(
      fc.property(sha, sha, junk, fc.constantFrom("pull_request", "pull_request_target", undefined), (base, head, extra, name) => {
        const event = parseGithubEvent(JSON.stringify({ ...extra, pull_request: { number: 7, base: { sha: base, ref: "main" }, head: { sha: head } } }));
        expect(baseFromGithubEvent(name, event)).toEqual({ kind: "commit", source: "pull_request", sha: base, headSha: head });
      }),
    );
  });

  it("merge_group: base_sha", () => {
    fc.assert(
      fc.property(sha, junk, fc.constantFrom("merge_group", undefined), (base, extra, name) => {
        expect(baseFromGithubEvent(name, { ...extra, merge_group: { base_sha: base, head_sha: "f".repeat(40) } })).toEqual({
          kind: "commit",
          source: "merge_group",
          sha: base,
        });
      }),
    );
  });

  it("push: before; all zeros is a new branch", () => {
    fc.assert(
      fc.property(
        sha.filter((s) => !/^0+$/.test(s)),
        junk,
        fc.constantFrom("push", undefined),
        (before, extra, name) => {
          expect(baseFromGithubEvent(name, { ...extra, before, after: "a".repeat(40) })).toEqual({ kind: "commit", source: "push", sha: before });
        },
      ),
    );
    expect(baseFromGithubEvent("push", { before: "0".repeat(40) })).toEqual({ kind: "new-branch", source: "push" });
  });

  it("names no base for other events, missing fields and malformed shas", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom("workflow_dispatch", "schedule", "release"), (payload, name) => {
        expect(baseFromGithubEvent(name, payload)).toEqual({ kind: "none" });
      }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (payload) => {
        const r = baseFromGithubEvent(undefined, payload);
        expect(["none", "commit", "new-branch"]).toContain(r.kind);
      }),
    );
    expect(baseFromGithubEvent("pull_request", { pull_request: { base: { sha: "main" } } })).toEqual({ kind: "none" });
    expect(baseFromGithubEvent("push", { before: "--output=/tmp/x" })).toEqual({ kind: "none" });
    expect(baseFromGithubEvent("pull_request", null)).toEqual({ kind: "none" });
    expect(() => parseGithubEvent("{not json")).toThrow();
  });
});
