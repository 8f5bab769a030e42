import type { Competition } from "../../core/competition.js";
import { grade } from "./grade.js";

export const competition: Competition = {
  id: "tweet-sentiment-extraction",
  name: "Tweet Sentiment Extraction",
  type: "code",
  complexity: "medium",
  metric: "jaccard-similarity",
  answers: "test.csv",
  sampleSubmission: "sample_submission.csv",
  grade,
};
