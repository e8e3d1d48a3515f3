/**
 * Lighthouse's mobile performance of the school's three busiest public pages: home, the main course's product page
 * (a sale running in the demo) and its first free lesson. Each page is run three times and the median run kept (the
 * machine's load moves one run by several points). Lighthouse 12.8.2 runs through npx with Debian's Chromium
 * (CHROMIUM_PATH, else /usr/bin/chromium), so its many packages stay out of the project's install.
 *
 * Alone: `node --import tsx tests/bench/lighthouse.ts http://localhost:3000` prints the table;
 * LIGHTHOUSE_REPORT_DIR=bench-results/lighthouse keeps every run's JSON report (main-thread work, long tasks, unused
 * JavaScript) to see where the time went.
 */
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const LIGHTHOUSE = 'lighthouse@12.8.2';
const RUNS = 3;
const ATTEMPTS = 3;
const run = promisify(execFile);

interface PageScore {
  page: 'home' | 'product' | 'lesson';
  url: string;
  /** Lighthouse's performance score, 0–100. */
  performance: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

interface StoreProduct {
  slug: string;
  productType: string;
  sale: unknown;
  courses: { slug: string }[];
}
interface CourseLesson {
  slug: string;
  free: boolean;
}
interface CourseOutline {
  course: { slug: string };
  modules: { lessons: CourseLesson[]; sections: { lessons: CourseLesson[] }[] }[];
}

async function getJson<T>(url: string): Promise<T> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return (await response.json()) as T;
}

/** The pages measured, found through the store's API: the main course's product page and its first free lesson. */
async function pageUrls(baseUrl: string): Promise<{ page: PageScore['page']; url: string }[]> {
  const { data: products } = await getJson<{ data: StoreProduct[] }>(`${baseUrl}/api/store/products`);
  // The course's own product (named as its course is: typescript-fundamentals sells typescript-fundamentals-7ccd…),
  // on sale if one is; the catalog's order is not stable between databases.
  const withCourse = products.filter((p) => p.productType === 'self-paced' && p.courses.length > 0);
  const own = (p: StoreProduct) => p.courses.some((course) => course.slug.startsWith(`${p.slug}-`));
  const rank = (p: StoreProduct) => (own(p) ? 2 : 0) + (p.sale ? 1 : 0);
  const main = [...withCourse].sort((a, b) => rank(b) - rank(a))[0];
  if (!main) throw new Error('the store sells no self-paced course to measure');
  const outline = await getJson<CourseOutline>(`${baseUrl}/api/store/courses/${main.courses[0]!.slug}`);
  const lessons = outline.modules.flatMap((m) => [...m.lessons, ...m.sections.flatMap((s) => s.lessons)]);
  const free = lessons.find((lesson) => lesson.free);
  if (!free) throw new Error(`the course ${outline.course.slug} has no free lesson to measure`);
  return [
    { page: 'home', url: `${baseUrl}/` },
    { page: 'product', url: `${baseUrl}/products/${main.slug}` },
    { page: 'lesson', url: `${baseUrl}/courses/${outline.course.slug}/lessons/${free.slug}` },
  ];
}

interface LighthouseReport {
  runtimeError?: { code: string; message: string };
  categories: { performance: { score: number | null } };
  audits: Record<string, { numericValue?: number }>;
}

/** Tries a run again when Lighthouse fails to record it (NO_NAVSTART and the like happen on a loaded machine). */
async function lighthouseOnce(url: string): Promise<{ report: LighthouseReport; json: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseRun(url);
    } catch (error) {
      if (attempt === ATTEMPTS) throw error;
      console.warn(`Lighthouse failed on ${url} (attempt ${attempt} of ${ATTEMPTS}), trying again`);
    }
  }
}

async function lighthouseRun(url: string): Promise<{ report: LighthouseReport; json: string }> {
  const { stdout } = await run(
    'npx',
    [
      '--yes',
      LIGHTHOUSE,
      url,
      '--chrome-flags=--headless=new --no-sandbox',
      '--only-categories=performance',
      '--output=json',
      '--output-path=stdout',
      '--quiet',
    ],
    {
      env: { ...process.env, CHROME_PATH: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  const report = JSON.parse(stdout) as LighthouseReport;
  if (report.runtimeError) throw new Error(`Lighthouse: ${report.runtimeError.code} ${report.runtimeError.message}`);
  return { report, json: stdout };
}

function scoreOf(page: PageScore['page'], url: string, report: LighthouseReport): PageScore {
  const metric = (audit: string) => report.audits[audit]?.numericValue ?? Number.NaN;
  return {
    page,
    url,
    performance: Math.round((report.categories.performance.score ?? 0) * 100),
    lcpMs: Math.round(metric('largest-contentful-paint')),
    tbtMs: Math.round(metric('total-blocking-time')),
    cls: Math.round(metric('cumulative-layout-shift') * 1000) / 1000,
  };
}

/** The run in the middle by score (then by blocking time), so its numbers come from one and the same load. */
function medianRun(runs: PageScore[]): PageScore {
  const sorted = [...runs].sort((a, b) => a.performance - b.performance || b.tbtMs - a.tbtMs);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Lighthouse's mobile performance of home, the main course's product page and a free lesson: each a median of 3. */
export async function lighthouseScores(baseUrl: string, options: { reportDir?: string } = {}): Promise<PageScore[]> {
  const base = baseUrl.replace(/\/+$/, '');
  const reportDir = options.reportDir ?? process.env.LIGHTHOUSE_REPORT_DIR;
  if (reportDir) await mkdir(reportDir, { recursive: true });
  const scores: PageScore[] = [];
  for (const { page, url } of await pageUrls(base)) {
    const runs: PageScore[] = [];
    for (let i = 1; i <= RUNS; i++) {
      const { report, json } = await lighthouseOnce(url);
      runs.push(scoreOf(page, url, report));
      if (reportDir) await writeFile(path.join(reportDir, `${page}-${i}.json`), json);
    }
    scores.push(medianRun(runs));
  }
  return scores;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const baseUrl = process.argv[2] ?? 'http://localhost:3000';
  const load = () => os.loadavg()[0]!.toFixed(1);
  const before = load();
  const scores = await lighthouseScores(baseUrl);
  console.table(scores.map(({ url: _url, ...score }) => score));
  console.log(`load average (1 min): ${before} before, ${load()} after`);
}
