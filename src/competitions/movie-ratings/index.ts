import { fileURLToPath } from "node:url";
import type { Competition } from "../../core/competition.js";

export const competition: Competition = {
  id: "movie-ratings",
  name: "Movie ratings: predict a film's IMDB score",
  type: "simple",
  complexity: "low",
  category: "Tabular",
  metric: "root-mean-squared-error",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grader: () => import("./grade.js"),
  offline: {
    order: 3,
    lite: true,
    sources: {
      movies: { kind: "npm", package: "vega-datasets", file: "data/movies.json" },
    },
    layout: { train: "train.csv", test: "test.csv", id: "id" },
    assets: fileURLToPath(new URL(".", import.meta.url)),
    preparer: () => import("./prepare.js"),
  },
};
