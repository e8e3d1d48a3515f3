import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds each test file took in a recorded run (tests/durations.json, written by `npm run test:durations`). */
export const DURATIONS_FILE = path.resolve(import.meta.dirname, '../durations.json');

/** The reliability suite's files first (the longest), then browser and process files, then unit, then API files. */
const PROJECT_ORDER = ['reliability', 'e2e', 'unit', 'api'];

function recorded(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Runs the longest files first, so the last minutes are not one long browser file on one worker while the others
 * sit idle (a clean clone has no results cache, and Vitest would then start larger files first, not slower ones).
 * Files of one project stay together: API and unit files share a worker's modules only with their project's next
 * file. A file with no recorded time (new) counts as the longest of its project, so it is not left for the end.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = recorded();
    const root = this.ctx.config.root;
    const took = (spec: TestSpecification) =>
      seconds[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? Number.POSITIVE_INFINITY;
    const rank = (spec: TestSpecification) => {
      const index = PROJECT_ORDER.indexOf(spec.project.name);
      return index === -1 ? PROJECT_ORDER.length : index;
    };
    return [...files].sort((a, b) => rank(a) - rank(b) || took(b) - took(a));
  }
}
