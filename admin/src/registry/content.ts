import bookmarks from '../bookmarks';
import certificates from '../certificates';
import comments from '../comments';
import contentResourceResources from '../content-resource-resources';
import contentResources from '../content-resources';
import lessonProgress from '../lesson-progress';
import productContentResources from '../product-content-resources';
import userPrefs from '../user-prefs';
import videos from '../videos';
import type { ConsoleResource } from './types';

// Course content and learners' activity. Roles mirror api/src/admin/resources/{learning,catalog,identity}.ts (write
// defaults to support there too; read-only resources simply have no write screens), as tests/unit/console-roles.test.ts checks.
const CONTENT_READERS = ['support', 'finance', 'contributor'] as const;
const CONTENT_EDITORS = ['support', 'contributor'] as const;

export const CONTENT_RESOURCES: ConsoleResource[] = [
  { name: 'content-resources', read: CONTENT_READERS, write: CONTENT_EDITORS, ...contentResources, group: 'Learning' },
  {
    name: 'content-resource-resources',
    read: CONTENT_READERS,
    write: CONTENT_EDITORS,
    ...contentResourceResources,
    group: 'Learning',
  },
  {
    name: 'product-content-resources',
    read: CONTENT_READERS,
    write: ['support'],
    ...productContentResources,
    group: 'Learning',
  },
  // Served by their own routes (api/src/video/admin-routes.ts), not a generic resource: same roles as content.
  { name: 'videos', read: CONTENT_READERS, write: CONTENT_EDITORS, ...videos, group: 'Learning' },
  { name: 'lesson-progress', read: ['support'], ...lessonProgress, group: 'Learning' },
  { name: 'comments', read: ['support'], ...comments, group: 'Learning' },
  { name: 'bookmarks', read: ['support'], ...bookmarks, group: 'Learning' },
  { name: 'certificates', read: ['support'], ...certificates, group: 'Learning' },
  { name: 'user-prefs', read: ['support'], ...userPrefs, group: 'Learning' },
];
