#!/usr/bin/env node
// Our new-york-city-taxi-fare-prediction preparer from the built dist/, as the CLI would run it.
// Usage: ours.mjs RAW PUBLIC PRIVATE
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { prepare } = await import(path.join(repo, "dist", "competitions", "new-york-city-taxi-fare-prediction", "prepare.js"));
const [raw, pub, priv] = process.argv.slice(2);
await prepare({ raw, public: pub, private: priv });
