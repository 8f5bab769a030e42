import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("cdiscount-image-classification-challenge", { grader: () => import("./grade.js") });
