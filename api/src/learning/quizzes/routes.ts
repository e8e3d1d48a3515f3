import Router from '@koa/router';
import type { Config } from '../../config';
import { buyerCountry } from '../../http/buyer-location';
import { userOf } from '../../identity/http/caller';
import type { Policies } from '../../identity/http/policy';
import { LessonIdParam } from '../schemas';
import type { QuizAttempts } from './attempts';
import { QuizAttemptBody } from './quiz.schemas';
import type { QuizResultsService } from './results';

/** A learner taking a quiz lesson (docs/domain.md §11): their next attempt's questions, and an attempt graded. */
export function quizRoutes({ allow, config, quizzes }: { allow: Policies; config: Config; quizzes: QuizAttempts }) {
  const router = new Router();

  router.get('/lessons/:lessonId/quiz', allow.signedIn(), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    ctx.set('Cache-Control', 'private, no-store');
    ctx.body = await quizzes.state(userOf(ctx), lessonId, buyerCountry(ctx, config));
  });

  router.post('/lessons/:lessonId/quiz/attempts', allow.signedIn(), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { answers, course } = QuizAttemptBody.parse(ctx.request.body ?? {});
    ctx.status = 201;
    ctx.body = await quizzes.submit(userOf(ctx), lessonId, answers, buyerCountry(ctx, config), course);
  });

  return router;
}

/** The console's figures of a quiz: support (and admins) read them, as they read learners' progress. */
export function quizResultRoutes({ allow, results }: { allow: Policies; results: QuizResultsService }) {
  const router = new Router();

  router.get('/quizzes/:lessonId/results', allow.roles('support'), async (ctx) => {
    ctx.body = { data: await results.results(LessonIdParam.parse(ctx.params).lessonId) };
  });

  router.get('/quizzes/:lessonId/results.csv', allow.roles('support'), async (ctx) => {
    const { filename, body } = await results.resultsCsv(LessonIdParam.parse(ctx.params).lessonId);
    ctx.set('Content-Disposition', `attachment; filename="${filename}"`);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = body;
  });

  return router;
}
