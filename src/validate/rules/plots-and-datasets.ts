import { directiveInterior } from "../../noma/directive-interior.js";
import { datasetColumns } from "../../noma/dataset-columns.js";
import { attrOf, type DirectiveFact } from "../directive-fact.js";
import { has, str } from "../rule-values.js";
import type { Validation } from "../validation.js";

/** Plots (their datasets are other blocks) and dataset files (read through a callback). */
export function plotsAndDatasets(v: Validation): void {
  const columnsOf = new Map<DirectiveFact, string[] | null>();
  for (const p of v.named("plot")) {
    const dataset = str(attrOf(p, "dataset"));
    if (!has(p, "data") && dataset === undefined) {
      v.report("plot-missing-data", "::plot has neither data= nor dataset=.", p);
    }
    if (dataset !== undefined) {
      const target = v.resolve(dataset);
      if (target === undefined || target.type !== "directive" || target.name !== "dataset") {
        v.report("plot-unknown-dataset", `::plot dataset="${dataset}" does not name a ::dataset block.`, p);
      } else {
        const column = str(attrOf(p, "column"));
        if (column !== undefined) {
          // Several plots often read one dataset: its columns are read once.
          let columns = columnsOf.get(target);
          if (columns === undefined) columnsOf.set(target, (columns = datasetColumns(directiveInterior(v.doc, target), str(attrOf(target, "format")))));
          if (columns !== null && !columns.includes(column)) {
            v.report("plot-unknown-column", `::plot column="${column}" is not a column of dataset "${dataset}" (columns: ${columns.join(", ")}).`, p);
          }
        }
      }
    }
    const data = str(attrOf(p, "data"));
    const labels = str(attrOf(p, "xlabels"));
    if (data !== undefined && labels !== undefined) {
      const style = (s: string): "comma" | "space" | null => (s.includes(",") ? "comma" : /\S\s+\S/.test(s.trim()) ? "space" : null);
      const a = style(data);
      const b = style(labels);
      if (a !== null && b !== null && a !== b) {
        v.report("plot-mixed-delimiters", "::plot mixes comma-separated and space-separated values in data= and xlabels=; use commas throughout.", p);
      }
    }
  }
  const exists = v.options.datasetSrcExists;
  if (exists !== undefined) {
    for (const d of v.named("dataset")) {
      const src = str(attrOf(d, "src"));
      if (src !== undefined && !exists(src)) v.report("dataset-src-missing", `::dataset src="${src}" cannot be loaded.`, d);
    }
  }
}
