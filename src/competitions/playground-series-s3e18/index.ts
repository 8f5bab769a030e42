import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("playground-series-s3e18", { grader: () => import("./grade.js") });
