import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "chicago-ridership",
  name: "Chicago L: how many riders enter Clark/Lake today?",
  type: "simple",
  complexity: "low",
  category: "Time series",
  metric: "root-mean-squared-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 26,
    sources: {
      chicago: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "Chicago" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
