import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("hotel-id-2021-fgvc8", { grader: () => import("./grade.js") });
