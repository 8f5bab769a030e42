import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("ranzcr-clip-catheter-line-classification", { grader: () => import("./grade.js") });
