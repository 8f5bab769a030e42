import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("tweet-sentiment-extraction", { grader: () => import("./grade.js") });
