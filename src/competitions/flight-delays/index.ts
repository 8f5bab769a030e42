import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "flight-delays",
  name: "Flight delays: how late will the flight arrive?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "root-mean-squared-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 29,
    sources: {
      flights: { kind: "npm", package: "vega-datasets", file: "data/flights-20k.json" },
      airports: { kind: "npm", package: "vega-datasets", file: "data/airports.csv" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
