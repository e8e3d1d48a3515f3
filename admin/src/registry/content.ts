import bookmarks from '../bookmarks';
import comments from '../comments';
import contentResourceResources from '../content-resource-resources';
import contentResources from '../content-resources';
import lessonProgress from '../lesson-progress';
import productContentResources from '../product-content-resources';
import userPrefs from '../user-prefs';
import type { ConsoleResource } from './types';

// Course content and learners' activity. Roles mirror api/src/admin/resources/{learning,catalog,identity}.ts.
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
  { name: 'lesson-progress', read: ['support'], write: [], ...lessonProgress, group: 'Learning' },
  { name: 'comments', read: ['support'], write: [], ...comments, group: 'Learning' },
  { name: 'bookmarks', read: ['support'], write: [], ...bookmarks, group: 'Learning' },
  { name: 'user-prefs', read: ['support'], write: [], ...userPrefs, group: 'Learning' },
];
