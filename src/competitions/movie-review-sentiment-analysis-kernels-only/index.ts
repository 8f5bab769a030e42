import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("movie-review-sentiment-analysis-kernels-only", { grade });
