import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("plant-pathology-2020-fgvc7", { grader: () => import("./grade.js") });
