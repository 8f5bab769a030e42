import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("movie-review-sentiment-analysis-kernels-only", { grader: () => import("./grade.js") });
