import type { Db } from '../../db/connection';
import { contentTree } from '../content-tree';
import { courseOutline } from '../outline';
import { releasedIn } from './release-emails';
import { openingOf, type PlannedRelease, type ReleaseReader } from './release';

/**
 * What of these courses a reader would find released later (docs/domain.md §11), for a start at `reader.start`: the
 * console's pricing simulator shows it beside what a purchase grants. Everything else is open at once.
 */
export async function releasePlan(db: Db, courseIds: string[], reader: ReleaseReader, now: Date) {
  const tree = contentTree({ db });
  const planned: PlannedRelease[] = [];
  for (const courseId of courseIds) {
    const outline = courseOutline(await tree.tree(courseId));
    for (const item of releasedIn(outline)) {
      const opening = openingOf(item.releases, reader);
      if (!opening?.on || !opening.at || opening.at <= now) continue;
      planned.push({
        courseId,
        courseTitle: outline.title,
        title: item.title,
        what: item.what,
        opensOn: opening.on,
        opensAt: opening.at,
        timeZone: opening.timeZone,
      });
    }
  }
  return planned.sort((a, b) => a.opensAt.getTime() - b.opensAt.getTime());
}
