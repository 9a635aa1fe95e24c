/**
 * Issue 15 item 6: the conditions of five rules, re-derived from the spec (§4.4) and the
 * open-points guide §B where the spec is silent. Each row: documents the rule must accept
 * (real documents use them) and documents it must report.
 * - out-of-profile-directive: a profile restricts the directives of other kinds of document
 *   (research, memory, ADR, spec, investment, API); structural, presentational, data and
 *   review directives and extension names pass under every profile (§1.3).
 * - memory-invalid-type: the kinds agent memories are filed under, in any case, `-`/space as `_`.
 * - computed-unknown-dependency: controls and computed blocks by id, alias (§2.2: aliases
 *   serve validator cross-reference checks) or id with `-` as `_`; `id.attr` paths;
 *   a computed_plot's variable from var=/variable=/domain_var=/x_var=/domain="t: …".
 * - change-request-invalid-action: insert/delete/replace and words for them, any case; no
 *   action= is read from the fields (from+to replace, to/text insert, from delete), and one
 *   with no action= at all is never reported (issue 27: the reference reports nothing).
 * - citation-missing-source: source=, url= or doi= with a value; a bare flag, href= or isbn=
 *   alone names no source.
 */
import { describe, expect, it } from "vitest";
import { parseNoma, validateNoma } from "../../src/internal.js";

const NOW = new Date("2026-11-22T12:00:00Z");

function codes(src: string): string[] {
  const doc = parseNoma(src);
  const fromTable = validateNoma(doc, { now: NOW }).map((d) => d.code);
  // The same answer when validated from the built tree.
  const built = parseNoma(src);
  void built.children;
  expect(validateNoma(built, { now: NOW }).map((d) => d.code)).toEqual(fromTable);
  return fromTable;
}

function count(src: string, code: string): number {
  return codes(src).filter((c) => c === code).length;
}

const fm = (profile: string, body: string): string => `---\nprofile: ${profile}\n---\n${body}`;

describe("out-of-profile-directive", () => {
  it("accepts structural, presentational, data and extension directives under any profile", () => {
    const body =
      '::callout{kind="tip"}\nx\n::\n\n::metric{id="arr" value=3}\n::\n\n::html{trusted}\n<b>x</b>\n::\n\n::dataset{id="d"}\nrows:\n  - [a, 1]\n::\n\n::risk{owner="li"}\nr\n::\n\n::decision{status="open"}\nd\n::\n\n::quote\nq\n::\n';
    for (const p of ["minimal", "technical", "research", "memory", "adr", "spec", "agent-memory", "investment-thesis"]) {
      expect(count(fm(p, body), "out-of-profile-directive"), p).toBe(0);
    }
  });

  it("accepts each profile's own kind, and the kinds the profile builds on", () => {
    expect(
      count(fm("investment-thesis", '::thesis{id="t"}\n::\n\n::claim{id="c" confidence=0.5}\n::\n\n::evidence{for="c"}\n::\n'), "out-of-profile-directive"),
    ).toBe(0);
    expect(
      count(fm("spec", '::requirement{id="r"}\n::\n\n::adr{id="a" status="x" owner="y" date="2026-01-01" decision="z"}\n::\n'), "out-of-profile-directive"),
    ).toBe(0);
    expect(
      count(
        '---\nprofiles: [research, memory]\n---\n::claim{id="c" confidence=0.5}\n::\n\n::evidence{for="c"}\n::\n\n::memory{id="m" type="fact"}\n::\n',
        "out-of-profile-directive",
      ),
    ).toBe(0);
  });

  it("reports another kind's directives", () => {
    expect(count(fm("technical", '::claim{id="c"}\n::\n\n::evidence{for="c"}\n::\n'), "out-of-profile-directive")).toBe(2);
    expect(count(fm("research", '::memory{id="m" type="fact"}\n::\n'), "out-of-profile-directive")).toBe(1);
    expect(count(fm("minimal", '::adr{id="a"}\n::\n'), "out-of-profile-directive")).toBe(1);
  });
});

describe("memory-invalid-type", () => {
  it("accepts the kinds memories are filed under, in any case and spelling of separators", () => {
    for (const t of [
      "user-preference",
      "project decision",
      "fact",
      "semantic",
      "Episodic",
      "procedural",
      "preference",
      "lesson",
      "insight",
      "feedback",
      "project",
      "user",
      "Reference",
      "constraint",
      "relationship",
      "working",
    ]) {
      expect(count(`::memory{id="m" type="${t}"}\n::\n`, "memory-invalid-type"), t).toBe(0);
    }
  });

  it("reports what is no memory type: a typo, a number, a bare flag", () => {
    expect(count('::memory{id="m" type="preferance"}\n::\n', "memory-invalid-type")).toBe(1);
    expect(count('::memory{id="m" type=3}\n::\n', "memory-invalid-type")).toBe(1);
    expect(count('::memory{id="m" type}\n::\n', "memory-invalid-type")).toBe(1);
  });
});

describe("computed-unknown-dependency", () => {
  const controls = '::control{id="growth-rate" type="number" default=2 aliases="g"}\n::\n\n::control{id="base" type="number" default=10}\n::\n\n';

  it("resolves ids, aliases, ids with - written _, and id.attr paths", () => {
    for (const f of ["base * g", "base * growth_rate", "base.value * growth_rate.default", "base * 2 + if(true, 1, 0)"]) {
      expect(
        codes(`${controls}::computed_metric{id="m" formula="${f}"}\n::\n`).filter((c) => c === "computed-unknown-dependency" || c === "formula-parse-error"),
        f,
      ).toEqual([]);
    }
    expect(
      count(
        `${controls}::computed_metric{id="m" formula="base * 2" aliases="twice"}\n::\n\n::computed_metric{id="n" formula="twice + 1"}\n::\n`,
        "computed-unknown-dependency",
      ),
    ).toBe(0);
  });

  it("reads a computed_plot's variable from var=, variable=, domain_var=, x_var= or domain=", () => {
    for (const attrs of ['var="t"', 'variable="t"', 'domain_var="t"', 'x_var="t"', 'domain="t: 0..10"', 'domain="t=0..10"']) {
      expect(count(`${controls}::computed_plot{id="p" formula="base * t" ${attrs}}\n::\n`, "computed-unknown-dependency"), attrs).toBe(0);
    }
  });

  it("reports a name nothing declares, by the name the formula uses", () => {
    const d = validateNoma(parseNoma(`${controls}::computed_metric{id="m" formula="price.value * base"}\n::\n`), { now: NOW }).filter(
      (x) => x.code === "computed-unknown-dependency",
    );
    expect(d.map((x) => x.message)).toEqual([
      '::computed_metric formula uses "price.value", which is not a ::control, a computed block or a plot-domain variable.',
    ]);
    expect(count(`${controls}::computed_metric{id="m" formula="growth - rate"}\n::\n`, "computed-unknown-dependency")).toBe(2);
  });
});

describe("change-request-invalid-action", () => {
  it("accepts the three actions and words for them, in any case", () => {
    for (const a of ["insert", "Replace", "DELETE", "add", "remove", "replacement", "modify", "update", "deletion"]) {
      expect(count(`::change_request{action="${a}" from="a" to="b" text="c"}\n::\n`, "change-request-invalid-action"), a).toBe(0);
    }
  });

  it("reads a missing action from the fields", () => {
    expect(codes('::change_request{from="a" to="b"}\n::\n')).toEqual([]);
    expect(codes('::change_request{text="new"}\n::\n')).toEqual([]);
    expect(codes('::change_request{from="old"}\n::\n')).toEqual([]);
    expect(codes('::change_request{action="insert"}\nThe inserted words.\n::\n')).toEqual([]);
  });

  it("reports an unknown action", () => {
    expect(count('::change_request{action="rewrite" from="a" to="b"}\n::\n', "change-request-invalid-action")).toBe(1);
    expect(count('::change_request{action=true from="a"}\n::\n', "change-request-invalid-action")).toBe(1);
  });

  it("reports nothing for a change request without action=, whatever else it has", () => {
    expect(codes('::change_request{author="li"}\n::\n')).toEqual([]);
    expect(codes('::change_request{id="cr" target="p" author="li"}\nTighten the second sentence.\n::\n\n::note{id="p"}\nx\n::\n')).toEqual([]);
  });
});

describe("citation-missing-source", () => {
  it("accepts source=, url= or doi= with a value", () => {
    for (const a of ['source="Smith 2020"', 'url="https://example.org"', 'doi="10.1000/xyz"', "doi=10.1000"]) {
      expect(count(`::citation{id="c" ${a}}\n::\n`, "citation-missing-source"), a).toBe(0);
    }
  });

  it("reports a citation whose source is a bare flag, empty, or only href= or isbn=", () => {
    for (const a of ["url", 'source=""', 'href="https://example.org"', 'isbn="978-3-16-148410-0"', 'for="c1" title="T"']) {
      expect(count(`::citation{id="c" ${a}}\n::\n`, "citation-missing-source"), a).toBe(1);
    }
  });
});
