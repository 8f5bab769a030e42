import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "movielens-recommend",
  name: "MovieLens: which movies will each user rate next?",
  type: "simple",
  complexity: "medium",
  category: "Recommender Systems",
  metric: "MAP@10",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 23,
    sources: {
      ratings: { kind: "r", package: "r-cran-dslabs", library: "dslabs", dataset: "movielens" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "userId" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
