import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "grant-applications",
  name: "Grant applications: will the university's proposal be funded?",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "auc-roc",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 27,
    sources: {
      // One data() topic holds three objects: the applications up to 2008's hold-out, the
      // package's own 2008 test sample, and the row numbers of the pre-2008 applications.
      other: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "grants_other", topic: "grants" },
      test: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "grants_test", topic: "grants" },
      before2008: { kind: "r", package: "r-cran-modeldata", library: "modeldata", dataset: "grants_2008", topic: "grants" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
