import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Every .ts and .tsx file below `dir`, as full paths; folders named in `skipFolders` are not entered. */
export function sourceFiles(dir: string, skipFolders: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skipFolders.includes(entry.name) ? [] : sourceFiles(full, skipFolders);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
