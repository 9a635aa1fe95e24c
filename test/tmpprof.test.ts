import { it } from "vitest";
import { parseNoma, validateNoma } from "../src/index.js";
import { applyOp } from "../src/patch/apply-op.js";
it("prof", () => {
  const rows = Array.from({ length: 20000 }, (_, i) => ({ name: `n${i}`, value: i, ok: i % 2 === 0 }));
  const json = `::dataset{id="d" format="json"}\n${JSON.stringify(rows, null, 2)}\n::\n`;
  const yaml = `::dataset{id="y"}\nschema:\n  name: string\n  value: number\n  ok: boolean\nrows:\n${rows.map((r) => `  - name: ${r.name}\n    value: ${r.value}\n    ok: ${r.ok}`).join("\n")}\n::\n`;
  for (const [src, id] of [[json, "d"], [yaml, "y"]] as const) {
    const doc = parseNoma(src); void doc.children;
    let s = performance.now(); applyOp(doc, { op: "update_dataset_cell", id, row: 15000, column: "value", value: 7 } as never); console.log("op", performance.now() - s);
    s = performance.now(); validateNoma(doc); console.log("validate", performance.now() - s);
  }
});
