import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("detecting-insults-in-social-commentary", { grade });
