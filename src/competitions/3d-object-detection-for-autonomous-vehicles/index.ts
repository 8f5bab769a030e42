import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("3d-object-detection-for-autonomous-vehicles", { grade });
