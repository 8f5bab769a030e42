import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("petfinder-pawpularity-score", { grader: () => import("./grade.js") });
