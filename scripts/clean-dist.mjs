#!/usr/bin/env node
// Remove dist/ before a build, so modules deleted or moved in src/ leave no stale copies that the
// package would ship or a test could import.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "dist");
fs.rmSync(dist, { recursive: true, force: true });
