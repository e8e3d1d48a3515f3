/**
 * `npm run test:durations`: runs `npm test` with Vitest's JSON report and writes how long each file took to
 * tests/durations.json, which the suite's sequencer reads to start the longest files first
 * (tests/support/longest-first.ts). Run it on a quiet machine when files were added or grew.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DURATIONS_FILE } from '../tests/support/longest-first';

interface Report {
  testResults: { name: string; startTime: number; endTime: number }[];
}

const root = path.resolve(import.meta.dirname, '..');
const report = path.join(mkdtempSync(path.join(os.tmpdir(), 'durations-')), 'report.json');
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
const { testResults } = JSON.parse(readFileSync(report, 'utf8')) as Report;
const seconds = Object.fromEntries(
  testResults
    .map((file) => [path.relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10] as const)
    .sort(([a], [b]) => a.localeCompare(b)),
);
writeFileSync(DURATIONS_FILE, `${JSON.stringify(seconds, null, 2)}\n`);
console.log(`${testResults.length} files' durations written to ${path.relative(root, DURATIONS_FILE)}`);
process.exit(run.status ?? 1);
