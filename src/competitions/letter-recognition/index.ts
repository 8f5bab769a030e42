import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "letter-recognition",
  name: "Letter recognition: which capital letter is it?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "accuracy",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 12,
    sources: {
      letters: { kind: "r", package: "r-cran-mlbench", library: "mlbench", dataset: "LetterRecognition" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
