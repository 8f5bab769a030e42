import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";
import { prepare } from "./prepare.js";

export const competition: Competition = {
  id: "bird-strikes",
  name: "Bird strikes: did the aircraft get damaged?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
  offline: {
    order: 8,
    lite: true,
    sources: {
      strikes: { kind: "npm", package: "vega-datasets", file: "data/birdstrikes.csv" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    prepare,
  },
};
