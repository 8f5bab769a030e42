import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("plant-pathology-2021-fgvc8", { grader: () => import("./grade.js") });
