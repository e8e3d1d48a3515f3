import bookmarks from '../bookmarks';
import certificates from '../certificates';
import comments from '../comments';
import contentResourceResources from '../content-resource-resources';
import contentResources from '../content-resources';
import lessonProgress from '../lesson-progress';
import productContentResources from '../product-content-resources';
import quizAttempts from '../quiz-attempts';
import userPrefs from '../user-prefs';
import videos from '../videos';
import { accessOf } from './access';
import type { ConsoleResource } from './types';

// Course content and learners' activity; who may read and write each is in ./access.
export const CONTENT_RESOURCES: ConsoleResource[] = [
  { ...accessOf('content-resources'), ...contentResources, group: 'Learning' },
  {
    ...accessOf('content-resource-resources'),
    ...contentResourceResources,
    group: 'Learning',
  },
  {
    ...accessOf('product-content-resources'),
    ...productContentResources,
    group: 'Learning',
  },
  { ...accessOf('videos'), ...videos, group: 'Learning' },
  { ...accessOf('lesson-progress'), ...lessonProgress, group: 'Learning' },
  { ...accessOf('quiz-attempts'), ...quizAttempts, group: 'Learning' },
  { ...accessOf('comments'), ...comments, group: 'Learning' },
  { ...accessOf('bookmarks'), ...bookmarks, group: 'Learning' },
  { ...accessOf('certificates'), ...certificates, group: 'Learning' },
  { ...accessOf('user-prefs'), ...userPrefs, group: 'Learning' },
];
