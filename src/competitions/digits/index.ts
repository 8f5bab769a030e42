import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "digits",
  name: "Handwritten digits: which digit is it?",
  type: "simple",
  complexity: "low",
  category: "Image Classification",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 4,
    lite: true,
    sources: {
      digits: {
        kind: "debian",
        package: "python3-sklearn",
        path: "/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz",
      },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
