import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("rsna-2022-cervical-spine-fracture-detection", { grader: () => import("./grade.js") });
