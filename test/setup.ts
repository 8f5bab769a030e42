import { afterAll } from "vitest";
import { removeTempDirs } from "./helpers/data-dir.js";

// Worker processes of the forks pool are ended without running "exit" handlers, so each test file
// removes its temporary directories itself.
afterAll(removeTempDirs);
