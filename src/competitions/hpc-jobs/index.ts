import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "hpc-jobs",
  name: "HPC jobs: how long will the job run?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "mean-misclassification-cost",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 11,
    lite: true,
    sources: {
      jobs: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "hpc_data" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
