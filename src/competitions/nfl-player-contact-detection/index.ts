import { upstreamCompetition } from "../catalog.js";
import { grade } from "./grade.js";

export const competition = upstreamCompetition("nfl-player-contact-detection", { grade });
