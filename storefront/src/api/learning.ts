import { deleteJson, getJson, patchJson, postJson, putJson } from './client';

/** Lessons done out of all, and the rounded percentage. */
export interface Progress {
  completed: number;
  total: number;
  percent: number;
}

export interface LessonLink {
  id: string;
  title: string;
  slug: string | null;
}

/** Why a learner cannot open the paid lessons of a course (DOMAIN §11). */
export type Lock =
  | { reason: 'sign-in' }
  | { reason: 'purchase' }
  /** A regional-price (Restricted) purchase used outside the country it was bought for. */
  | { reason: 'region'; purchaseCountry?: string | null }
  /** The purchase was refunded, disputed or banned. */
  | { reason: 'ended'; status?: string };

export interface LessonItem extends LessonLink {
  /** Open to everyone (marked free, or the first lesson of its module). */
  free: boolean;
  /** Open to this learner. */
  open: boolean;
  completed: boolean;
}

export interface CourseSection {
  id: string;
  title: string;
  progress: Progress;
  lessons: LessonItem[];
}

export interface CourseModule {
  id: string;
  title: string;
  slug: string | null;
  progress: Progress;
  /** Lessons placed in the module itself, outside any section. */
  lessons: LessonItem[];
  sections: CourseSection[];
}

export interface CourseRef {
  id: string;
  title: string;
  slug: string | null;
}

/** GET /api/store/courses/:course */
export interface CourseView {
  course: CourseRef & { description: string | null };
  /** The products on sale that grant the course. */
  products: { id: string; name: string; slug: string | null }[];
  access: { full: true } | ({ full: false } & Lock);
  progress: Progress;
  modules: CourseModule[];
  /** Where to continue; null when signed out, or nothing is left to study. */
  continue: LessonLink | null;
}

/** GET /api/store/courses/:course/lessons/:lesson */
export interface LessonView {
  course: CourseRef;
  module: { id: string; title: string };
  section: { id: string; title: string } | null;
  lesson: LessonLink & { free: boolean };
  open: boolean;
  lock: Lock | null;
  /** Rich text already sanitized by the API (no scripts, no event handlers); null when the lesson is locked. */
  body: string | null;
  completed: boolean;
  bookmarked: boolean;
  previous: LessonLink | null;
  next: LessonLink | null;
}

export interface MyCourse {
  course: CourseRef;
  progress: Progress;
  continue: LessonLink | null;
  lastStudiedAt: string | null;
}

export interface ProgressAnswer {
  lessonId: string;
  completed: boolean;
  module: { moduleId: string; sections: ({ id: string } & Progress)[] } & Progress;
}

export interface Bookmark {
  id: string;
  lesson: LessonLink;
  course: { slug: string | null; title: string | null } | null;
  createdAt: string;
}

export interface LessonComment {
  id: string;
  text: string;
  author: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
  editedAt: string | null;
  mine: boolean;
  /** Hidden by staff: only its author still sees it. */
  hidden: { reason: string | null } | null;
}

export const MAX_COMMENT_LENGTH = 5000;

const enc = encodeURIComponent;
/** Where a course's page is: its slug when it has one. */
export const coursePath = (course: { id: string; slug: string | null }) => `/courses/${enc(course.slug ?? course.id)}`;
export const lessonPath = (course: { id: string; slug: string | null }, lesson: LessonLink) =>
  `${coursePath(course)}/lessons/${enc(lesson.slug ?? lesson.id)}`;

export function getCourse(course: string): Promise<CourseView> {
  return getJson(`/api/store/courses/${enc(course)}`);
}

export function getLesson(course: string, lesson: string): Promise<LessonView> {
  return getJson(`/api/store/courses/${enc(course)}/lessons/${enc(lesson)}`);
}

/** The learner's courses, most recently studied first. */
export async function listMyCourses(): Promise<MyCourse[]> {
  return (await getJson<{ data: MyCourse[] }>('/api/store/learning')).data;
}

export function setLessonCompleted(lessonId: string, completed: boolean, course: string | null): Promise<ProgressAnswer> {
  const path = `/api/store/progress/lessons/${enc(lessonId)}`;
  if (completed) return putJson(path, course ? { course } : {});
  return deleteJson<ProgressAnswer>(course ? `${path}?${new URLSearchParams({ course })}` : path);
}

export async function listBookmarks(): Promise<Bookmark[]> {
  return (await getJson<{ data: Bookmark[] }>('/api/store/bookmarks')).data;
}

export function setBookmarked(lessonId: string, bookmarked: boolean, course: { slug: string | null; title: string }): Promise<{ lessonId: string; bookmarked: boolean }> {
  const path = `/api/store/bookmarks/${enc(lessonId)}`;
  return bookmarked ? putJson(path, { course }) : deleteJson(path);
}

export async function listComments(lessonId: string): Promise<LessonComment[]> {
  return (await getJson<{ data: LessonComment[] }>(`/api/store/lessons/${enc(lessonId)}/comments`)).data;
}

export function postComment(lessonId: string, text: string): Promise<LessonComment> {
  return postJson(`/api/store/lessons/${enc(lessonId)}/comments`, { text });
}

export function editComment(commentId: string, text: string): Promise<LessonComment> {
  return patchJson(`/api/store/comments/${enc(commentId)}`, { text });
}

export function deleteComment(commentId: string): Promise<void> {
  return deleteJson(`/api/store/comments/${enc(commentId)}`);
}
