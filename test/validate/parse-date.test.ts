/**
 * parseDate reads YYYY-MM-DD by hand (every citation's `accessed=`, at every validation):
 * it must answer exactly what the general reading (Date.parse with the calendar check)
 * answers, for any ten characters and for every real and unreal day.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseDate, parsedDate } from "../../src/validate/rule-values.js";

describe("parseDate", () => {
  it("reads every day of the years around epochs and era boundaries as the calendar does", () => {
    const years = [0, 1, 2, 3, 4, 99, 100, 399, 400, 401, 1600, 1899, 9996, 9999];
    for (let y = 1900; y <= 2100; y++) years.push(y);
    for (const year of years) {
      for (let t = new Date(0).setUTCFullYear(year, 0, 1); new Date(t).getUTCFullYear() === year; t += 86_400_000) {
        const d = new Date(t);
        const text = `${String(year).padStart(4, "0")}-${String(d.getUTCMonth() + 1).padStart(2, "0")}-${String(d.getUTCDate()).padStart(2, "0")}`;
        if (parseDate(text) !== t) expect(parseDate(text), text).toBe(t);
      }
    }
  });

  it("answers what the general reading answers for any date-shaped or nearly date-shaped text", () => {
    const digit = fc.constantFrom("0", "1", "2", "3", "4", "5", "6", "9", "-", " ", "a", "٣");
    const shaped = fc
      .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`);
    const text = fc.oneof(
      shaped,
      fc.array(digit, { minLength: 8, maxLength: 12 }).map((a) => a.join("")),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(text, (v) => {
        expect(parseDate(v)).toBe(parsedDate(v));
      }),
      { numRuns: 20_000 },
    );
  });

  it("knows the calendar: leap days, month lengths", () => {
    expect(parseDate("2024-02-29")).toBe(Date.UTC(2024, 1, 29));
    expect(parseDate("2023-02-29")).toBeNull();
    expect(parseDate("1900-02-29")).toBeNull();
    expect(parseDate("2000-02-29")).toBe(Date.UTC(2000, 1, 29));
    expect(parseDate("2026-04-31")).toBeNull();
    expect(parseDate("2026-13-01")).toBeNull();
    expect(parseDate("0099-12-31")).toBe(Date.parse("0099-12-31T00:00:00Z"));
    // Year 0 is a leap year (divisible by 400); both readings agree (the general one once read it as 1900).
    expect(parseDate("0000-02-29")).toBe(Date.parse("0000-02-29T00:00:00Z"));
    expect(parsedDate("0000-02-29")).toBe(Date.parse("0000-02-29T00:00:00Z"));
    expect(parsedDate("0000-02-29T12:00:00Z")).toBe(Date.parse("0000-02-29T12:00:00Z"));
    expect(parseDate("1900-02-29T00:00:00Z")).toBeNull();
    expect(parseDate("2026-01-01T10:00:00Z")).toBe(Date.UTC(2026, 0, 1, 10));
  });
});
