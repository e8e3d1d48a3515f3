import type * as Learning from '@contract/learning/schemas';
import type { ListAnswer, Wire } from '@contract/shared/wire';
import { deleteJson, getJson, patchJson, postJson, putJson } from './client';

export type Progress = Wire<Learning.Progress>;
export type LessonLink = Wire<Learning.LessonLink>;
/** Why a learner cannot open the paid lessons of a course (docs/domain.md §11). */
export type Lock = Wire<Learning.Lock>;
export type LessonItem = Wire<Learning.LessonItem>;
/** GET /api/store/courses/:course */
export type CourseView = Wire<Learning.CourseView>;
/** GET /api/store/courses/:course/lessons/:lesson */
export type LessonView = Wire<Learning.LessonView>;
export type MyCourse = Wire<Learning.MyCourse>;
export type ProgressAnswer = Wire<Learning.ProgressAnswer>;
export type Bookmark = Wire<Learning.Bookmark>;
export type LessonComment = Wire<Learning.LessonComment>;

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
  return (await getJson<ListAnswer<MyCourse>>('/api/store/learning')).data;
}

export function setLessonCompleted(
  lessonId: string,
  completed: boolean,
  course: string | null,
): Promise<ProgressAnswer> {
  const path = `/api/store/progress/lessons/${enc(lessonId)}`;
  if (completed) return putJson(path, course ? { course } : {});
  return deleteJson<ProgressAnswer>(course ? `${path}?${new URLSearchParams({ course })}` : path);
}

export async function listBookmarks(): Promise<Bookmark[]> {
  return (await getJson<ListAnswer<Bookmark>>('/api/store/bookmarks')).data;
}

export function setBookmarked(
  lessonId: string,
  bookmarked: boolean,
  course: { slug: string | null; title: string },
): Promise<Learning.BookmarkState> {
  const path = `/api/store/bookmarks/${enc(lessonId)}`;
  return bookmarked ? putJson(path, { course }) : deleteJson(path);
}

export async function listComments(lessonId: string): Promise<LessonComment[]> {
  return (await getJson<ListAnswer<LessonComment>>(`/api/store/lessons/${enc(lessonId)}/comments`)).data;
}

/** A new comment, or with `parentId` a reply to a top-level comment (one level of replies). */
export function postComment(lessonId: string, text: string, parentId?: string): Promise<LessonComment> {
  return postJson(`/api/store/lessons/${enc(lessonId)}/comments`, parentId ? { text, parentId } : { text });
}

export function editComment(commentId: string, text: string): Promise<LessonComment> {
  return patchJson(`/api/store/comments/${enc(commentId)}`, { text });
}

export function deleteComment(commentId: string): Promise<void> {
  return deleteJson(`/api/store/comments/${enc(commentId)}`);
}
