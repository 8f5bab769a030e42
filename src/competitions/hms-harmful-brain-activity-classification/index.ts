import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("hms-harmful-brain-activity-classification", { grader: () => import("./grade.js") });
