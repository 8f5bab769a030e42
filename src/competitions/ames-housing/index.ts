import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "ames-housing",
  name: "Ames housing: what did the house sell for?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "root-mean-squared-log-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 9,
    sources: {
      ames: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "ames" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
