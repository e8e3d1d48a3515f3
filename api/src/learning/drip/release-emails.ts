import type { Clock } from '../../clock';
import type { Db } from '../../db/connection';
import type { JobQueue } from '../../jobs/queue';
import type { Logger } from '../../logger';
import type { Outbox } from '../../mail/outbox';
import { releaseOpenedEmail } from '../../mail/release-emails';
import { canonicalTimeZone } from '../../shared/time-zone';
import type { CourseOutline, OutlineLesson } from '../outline';
import { coursesWithReleases, learnersOfCourse, markSwept, sweepMarks, type StartWindow } from './queries';
import { openingOf, type Release } from './release';
import { DAY_MS } from '../../shared/durations';

/** Releases older than this are not announced: a schedule set after the day it names, or a sweep long stopped. */
const ANNOUNCE_WITHIN_MS = 3 * DAY_MS;

/**
 * How far a release's first instant can lie from the UTC instant it is reckoned from: a zone's midnight is up to 14
 * hours from UTC's, a start's local midnight up to a day (and a changed offset) before the start. Two days is wide.
 */
const ZONE_SLACK_MS = 2 * DAY_MS;

/**
 * The starts of the learners for whom one of these releases can open after `after` and by `now`: day N opens near
 * N days after the start; a date, near that date for everyone who started before. A superset, wide by the slack:
 * each learner found is then checked exactly in their own zone. Content under several releases opens with the
 * latest, so within the window of that one.
 */
function startsOpeningWithin(releases: readonly Release[], after: number, now: number): StartWindow[] {
  return releases.flatMap((release): StartWindow[] => {
    if ('afterDays' in release) {
      const days = release.afterDays * DAY_MS;
      return [{ from: new Date(after - days - ZONE_SLACK_MS), to: new Date(now - days + ZONE_SLACK_MS) }];
    }
    const day = Date.parse(`${release.on}T00:00:00Z`);
    return day + ZONE_SLACK_MS > after && day - ZONE_SLACK_MS <= now ? [{ from: null, to: new Date(now) }] : [];
  });
}

/** A release's schedule as its sweep mark keeps it ("+3d", "2026-11-10"): a changed one is read afresh. */
const scheduleOf = (releases: readonly Release[]) =>
  releases.map((release) => ('on' in release ? release.on : `+${release.afterDays}d`)).join(' ');

/** Something released on its own schedule: a module (its link's release), or a lesson waiting for more than its module. */
export interface Released {
  contentId: string;
  title: string;
  what: 'module' | 'lesson';
  releases: Release[];
  /** Where its email lands: the lesson, or the module's first opening with it. */
  lesson: OutlineLesson;
}

export function releasedIn(outline: CourseOutline): Released[] {
  const released: Released[] = [];
  for (const module of outline.modules) {
    const lessons = outline.lessons.filter((l) => l.moduleId === module.id);
    // The module's email lands on its first lesson that opens with it (one waiting for a later day of its own would
    // greet the learner with "Opens on …"), else on its first.
    const landing = lessons.find((l) => l.releases.length === 1) ?? lessons[0];
    if (module.release && landing)
      released.push({
        contentId: module.id,
        title: module.title,
        what: 'module',
        releases: [module.release],
        lesson: landing,
      });
    for (const lesson of lessons) {
      if (lesson.releases.length > (module.release ? 1 : 0))
        released.push({ contentId: lesson.id, title: lesson.title, what: 'lesson', releases: lesson.releases, lesson });
    }
  }
  return released;
}

/**
 * The emails saying a release has opened (docs/domain.md §11): a sweep, run by a recurring job, finds each learner's
 * releases opened since they got the course and since the last sweep read that release (its mark; within the last
 * few days), and emails each once. The row and the email are written in one transaction and the row's key decides,
 * so sweeps racing on several replicas send one email; a mark moves only once its course is swept, so a sweep that
 * failed, or servers down for days, leave the next one to read from where the last finished.
 */
export function releaseEmails({
  db,
  clock,
  outbox,
  logger,
  outlineOf,
  publicUrl,
}: {
  db: Db;
  clock: Clock;
  outbox: Outbox;
  logger: Logger;
  outlineOf: (courseId: string) => Promise<CourseOutline>;
  publicUrl: string;
}) {
  async function announce(
    outline: CourseOutline,
    item: Released,
    learner: { userId: string; email: string },
    openedAt: Date,
  ): Promise<boolean> {
    return db.transaction(async (trx) => {
      const claimed = await trx('releaseEmails')
        .insert({ userId: learner.userId, courseId: outline.id, contentId: item.contentId, openedAt })
        .onConflict(['userId', 'courseId', 'contentId'])
        .ignore()
        .returning('userId');
      if (claimed.length === 0) return false;
      const lessonUrl = `${publicUrl}/courses/${outline.slug ?? outline.id}/lessons/${item.lesson.slug ?? item.lesson.id}`;
      const email = releaseOpenedEmail(learner.email, {
        courseTitle: outline.title,
        title: item.title,
        what: item.what,
        lessonUrl,
      });
      const emailId = await outbox.enqueue(trx, email);
      await trx('releaseEmails')
        .where({ userId: learner.userId, courseId: outline.id, contentId: item.contentId })
        .update({ emailId });
      return true;
    });
  }

  return {
    /** One sweep: queues the emails of releases opened since the last; answers how many. */
    async sendDue(): Promise<number> {
      const now = clock.now();
      const oldest = now.getTime() - ANNOUNCE_WITHIN_MS;
      let sent = 0;
      for (const courseId of await coursesWithReleases(db)) {
        const outline = await outlineOf(courseId);
        const items = releasedIn(outline).map((item) => ({ item, schedule: scheduleOf(item.releases) }));
        if (items.length === 0) continue;
        const marks = await sweepMarks(db, courseId);
        // What this sweep reads of each: openings after its mark (read already, announced or not due), within 3 days.
        const unread = items.map(({ item, schedule }) => {
          const mark = marks.get(item.contentId);
          const after =
            mark && mark.schedule === schedule ? Math.max(mark.sweptUntil.getTime(), oldest - 1) : oldest - 1;
          return { item, after };
        });
        // Only the learners something can open for in this sweep are read: not the whole course every five minutes.
        const starts = unread.flatMap(({ item, after }) => startsOpeningWithin(item.releases, after, now.getTime()));
        for (const learner of await learnersOfCourse(db, courseId, now, starts)) {
          const reader = {
            start: learner.start,
            timeZone: learner.timeZone && canonicalTimeZone(learner.timeZone) ? learner.timeZone : 'UTC',
          };
          for (const { item, after } of unread) {
            const at = openingOf(item.releases, reader)?.at;
            // Opened, after the course became theirs (not open already when they got it), and not read yet.
            if (!at || at > now || at <= learner.start || at.getTime() <= after) continue;
            if (await announce(outline, item, learner, at)) sent += 1;
          }
        }
        await markSwept(
          db,
          courseId,
          items.map(({ item, schedule }) => ({ contentId: item.contentId, schedule })),
          now,
        );
      }
      if (sent) {
        outbox.flushInBackground();
        logger.info({ releaseEmails: sent }, 'release emails queued');
      }
      return sent;
    },
  };
}

export type ReleaseEmails = ReturnType<typeof releaseEmails>;

export const RELEASE_EMAILS = 'release-emails';

/** The sweep every 5 minutes, once per period across every replica: a release's email comes at most 5 minutes late. */
export function defineReleaseEmailJob(jobs: JobQueue, emails: Pick<ReleaseEmails, 'sendDue'>): void {
  jobs.define({
    name: RELEASE_EMAILS,
    cron: '*/5 * * * *',
    retryLimit: 1,
    retryDelaySeconds: 30,
    expireInSeconds: 5 * 60,
    run: async () => void (await emails.sendDue()),
  });
}
