import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("plant-seedlings-classification", { grader: () => import("./grade.js") });
