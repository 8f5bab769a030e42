import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "telco-churn",
  name: "Telco churn: will the customer leave?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 10,
    sources: {
      churn: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "wa_churn" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
