import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "h-and-m-personalized-fashion-recommendations",
  name: "H&M Personalized Fashion Recommendations",
  type: "simple",
  complexity: "medium",
  category: "Recommender Systems",
  metric: "MAP@12",
  answers: "answers.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
