import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "seattle-weather",
  name: "Seattle weather: what kind of day was it?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 2,
    lite: true,
    sources: {
      weather: { kind: "npm", package: "vega-datasets", file: "data/seattle-weather.csv" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
