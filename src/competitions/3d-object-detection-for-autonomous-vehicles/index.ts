import { upstreamCompetition } from "../catalog.js";

export const competition = upstreamCompetition("3d-object-detection-for-autonomous-vehicles", { grader: () => import("./grade.js") });
