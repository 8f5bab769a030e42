import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "fortune-cookies",
  name: "Fortune cookies: which collection is this saying from?",
  type: "simple",
  complexity: "low",
  category: "Text Classification",
  metric: "multi-class-log-loss",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 28,
    sources: {
      // One plain-text file per collection (with .dat indexes and .u8 links beside it); the
      // preparer reads the files named in CLASSES.
      fortunes: { kind: "debian", package: "fortunes", path: "/usr/share/games/fortunes" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
