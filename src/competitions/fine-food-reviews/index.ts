import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "fine-food-reviews",
  name: "Fine food reviews: five stars or not?",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 18,
    lite: true,
    sources: {
      // The package's two samples of the same review collection; the preparer pools and re-splits them.
      train: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "training_data", topic: "small_fine_foods" },
      test: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "testing_data", topic: "small_fine_foods" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
