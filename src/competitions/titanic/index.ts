import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "titanic",
  name: "Titanic: who survived?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 1,
    lite: true,
    sources: {
      titanic: {
        kind: "debian",
        package: "python3-sklearn",
        path: "/usr/lib/python3/dist-packages/sklearn/datasets/tests/data/openml/id_40945/data-v1-dl-16826755.arff.gz",
      },
    },
    layout: { train: "train.csv", test: "test.csv", id: "PassengerId" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
