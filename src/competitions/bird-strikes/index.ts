import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "bird-strikes",
  name: "Bird strikes: did the aircraft get damaged?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 8,
    lite: true,
    sources: {
      strikes: { kind: "npm", package: "vega-datasets", file: "data/birdstrikes.csv" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
