import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "satellite-landcover",
  name: "Satellite land cover: what is on the ground under this pixel?",
  type: "simple",
  complexity: "low",
  category: "Image Classification",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 25,
    sources: {
      satellite: { kind: "r", package: "r-cran-mlbench", library: "mlbench", dataset: "Satellite" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
