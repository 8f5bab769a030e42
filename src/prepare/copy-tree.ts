/** Folder copies for preparers: file by file, so folders of any size stream through. */
import fs from "node:fs";
import path from "node:path";
import { UserError } from "../core/errors.js";

/** `shutil.copytree(src, dst, dirs_exist_ok=True)`: every file and folder under src, recreated under dst. */
export function copyTree(src: string, dst: string, what = "folder"): void {
  if (!fs.existsSync(src) || !fs.statSync(src).isDirectory()) throw new UserError(`${src} is missing: expected a ${what}`);
  fs.mkdirSync(dst, { recursive: true });
  for (const e of fs.readdirSync(src, { withFileTypes: true })) {
    const from = path.join(src, e.name);
    if (e.isDirectory()) copyTree(from, path.join(dst, e.name), what);
    else fs.copyFileSync(from, path.join(dst, e.name));
  }
}
