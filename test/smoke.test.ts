import { describe, expect, it } from "vitest";
import { parseNoma } from "../src/internal.js";

describe("smoke", () => {
  it("parses a heading into a section with a slug id", () => {
    const doc = parseNoma("# Hello World\n\ntext\n");
    expect(doc.ids).toEqual(["hello-world"]);
  });
});
