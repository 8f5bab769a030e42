import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "movie-review-sentiment-analysis-kernels-only",
  name: "Movie Review Sentiment Analysis (Kernels Only)",
  type: "code",
  metric: "accuracy",
  answers: "answers.csv",
  sampleSubmission: "sampleSubmission.csv",
  grade,
};
