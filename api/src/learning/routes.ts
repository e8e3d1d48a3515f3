import Router from '@koa/router';
import type { Context } from 'koa';
import { buyerCountry } from '../http/buyer-location';
import type { Config } from '../config';
import { actorOf, authOf, userOf } from '../identity/http/caller';
import { IdParam } from '../http/params';
import type { Policies } from '../identity/http/policy';
import type { BookmarkService } from './bookmarks';
import type { CommentService } from './comments';
import type { Viewer } from './access';
import type { LearningService } from './learning';
import {
  BookmarkBody,
  CommentBody,
  CourseParam,
  HideBody,
  LessonIdParam,
  LessonParams,
  ModuleParams,
  NewCommentBody,
  ProgressBody,
  Slug,
} from './schemas';

interface Deps {
  allow: Policies;
  config: Config;
  learning: LearningService;
  bookmarks: BookmarkService;
  comments: CommentService;
}

/** The learner's side of courses: outlines, lessons, progress (sessions and device tokens), bookmarks, comments. */
export function learningRoutes({ allow, config, learning, bookmarks, comments }: Deps) {
  const router = new Router();
  const viewer = (ctx: Context): Viewer => ({ user: authOf(ctx)?.user ?? null, country: buyerCountry(ctx, config) });
  const signedInViewer = (ctx: Context) => ({ user: userOf(ctx), country: buyerCountry(ctx, config) });
  const device = { bearer: true };

  router.get('/learning', allow.signedIn(device), async (ctx) => {
    ctx.body = { data: await learning.myCourses(signedInViewer(ctx)) };
  });

  router.get('/courses/:course', allow.public(device), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await learning.course(CourseParam.parse(ctx.params).course, viewer(ctx));
  });

  router.get('/courses/:course/lessons/:lesson', allow.public(device), async (ctx) => {
    const { course, lesson } = LessonParams.parse(ctx.params);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await learning.lesson(course, lesson, viewer(ctx));
  });

  router.get('/courses/:course/next', allow.signedIn(device), async (ctx) => {
    ctx.body = await learning.next(userOf(ctx), CourseParam.parse(ctx.params).course);
  });

  router.get('/courses/:course/modules/:moduleId/progress', allow.signedIn(device), async (ctx) => {
    const { course, moduleId } = ModuleParams.parse(ctx.params);
    ctx.body = await learning.moduleProgress(userOf(ctx), course, moduleId);
  });

  router.post('/courses/:course/modules/:moduleId/reset', allow.signedIn(device), async (ctx) => {
    const { course, moduleId } = ModuleParams.parse(ctx.params);
    ctx.body = await learning.resetModule(userOf(ctx), course, moduleId);
  });

  router.put('/progress/lessons/:lessonId', allow.signedIn(device), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { course } = ProgressBody.parse(ctx.request.body ?? {});
    ctx.body = await learning.markByHand(userOf(ctx), lessonId, true, buyerCountry(ctx, config), course);
  });

  router.delete('/progress/lessons/:lessonId', allow.signedIn(device), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    ctx.body = await learning.markByHand(
      userOf(ctx),
      lessonId,
      false,
      buyerCountry(ctx, config),
      typeof ctx.query.course === 'string' ? Slug.parse(ctx.query.course) : undefined,
    );
  });

  router.get('/bookmarks', allow.signedIn(), async (ctx) => {
    ctx.body = { data: await bookmarks.list(userOf(ctx).id) };
  });

  router.put('/bookmarks/:lessonId', allow.signedIn(), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { course } = BookmarkBody.parse(ctx.request.body ?? {});
    ctx.body = await bookmarks.add(userOf(ctx).id, lessonId, course ?? null);
  });

  router.delete('/bookmarks/:lessonId', allow.signedIn(), async (ctx) => {
    ctx.body = await bookmarks.remove(userOf(ctx).id, LessonIdParam.parse(ctx.params).lessonId);
  });

  router.get('/lessons/:lessonId/comments', allow.public(device), async (ctx) => {
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = { data: await comments.list(LessonIdParam.parse(ctx.params).lessonId, viewer(ctx)) };
  });

  router.post('/lessons/:lessonId/comments', allow.signedIn(), async (ctx) => {
    const { text, parentId } = NewCommentBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await comments.post(LessonIdParam.parse(ctx.params).lessonId, signedInViewer(ctx), text, parentId);
  });

  router.patch('/comments/:id', allow.signedIn(), async (ctx) => {
    const { text } = CommentBody.parse(ctx.request.body);
    ctx.body = await comments.edit(userOf(ctx).id, IdParam.parse(ctx.params).id, text);
  });

  router.delete('/comments/:id', allow.signedIn(), async (ctx) => {
    await comments.remove(userOf(ctx).id, IdParam.parse(ctx.params).id);
    ctx.status = 204;
  });

  return router;
}

/** Console moderation: support and admins hide or show any comment. */
export function commentModerationRoutes({ allow, comments }: { allow: Policies; comments: CommentService }) {
  const router = new Router();
  router.post('/comments/:id/hide', allow.roles('support'), async (ctx) => {
    const { reason } = HideBody.parse(ctx.request.body ?? {});
    ctx.body = {
      data: await comments.setHidden(
        actorOf(ctx),
        IdParam.parse(ctx.params).id,
        true,
        reason || null,
        ctx.state.requestId ?? null,
      ),
    };
  });
  router.post('/comments/:id/unhide', allow.roles('support'), async (ctx) => {
    ctx.body = {
      data: await comments.setHidden(
        actorOf(ctx),
        IdParam.parse(ctx.params).id,
        false,
        null,
        ctx.state.requestId ?? null,
      ),
    };
  });
  return router;
}
