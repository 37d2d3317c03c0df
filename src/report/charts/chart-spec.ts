import type { TopLevelSpec } from "vega-lite";
import type { ChartName } from "../paths.js";

/** A chart of one experiment: the static files and the HTML report draw the same spec. */
export interface ChartSpec {
  name: ChartName;
  /** Short human title, used as the heading above the chart in the HTML report. */
  title: string;
  spec: TopLevelSpec;
}
