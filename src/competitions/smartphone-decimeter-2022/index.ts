import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("smartphone-decimeter-2022", { grader: () => import("./grade.js") });
