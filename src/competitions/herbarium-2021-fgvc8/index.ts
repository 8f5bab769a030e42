import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("herbarium-2021-fgvc8", { grader: () => import("./grade.js") });
