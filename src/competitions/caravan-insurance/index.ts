import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "caravan-insurance",
  name: "Caravan insurance: who should get the mailing?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "top-20%-recall",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 24,
    sources: {
      tic: { kind: "r", package: "r-cran-kernlab", library: "kernlab", dataset: "ticdata" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
