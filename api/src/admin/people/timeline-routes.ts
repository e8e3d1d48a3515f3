import Router from '@koa/router';
import { actorOf } from '../../identity/http/caller';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import { NoteBody, TimelineQuery } from '../schemas/timeline';
import type { StaffNotes } from './staff-notes';
import type { TimelineService } from './timeline';

/** A person's and a purchase's timelines, and the internal notes staff add to them (docs/product.md §9.2). */
export function timelineRoutes({
  allow,
  timeline,
  notes,
}: {
  allow: Policies;
  timeline: TimelineService;
  notes: StaffNotes;
}) {
  const router = new Router();
  const staff = allow.roles('support', 'finance');

  router.get('/users/:id/timeline', staff, async (ctx) => {
    ctx.body = await timeline.ofUser(IdParam.parse(ctx.params).id, TimelineQuery.parse(ctx.query));
  });
  router.get('/purchases/:id/timeline', staff, async (ctx) => {
    ctx.body = await timeline.ofPurchase(IdParam.parse(ctx.params).id, TimelineQuery.parse(ctx.query));
  });
  router.post('/users/:id/notes', staff, async (ctx) => {
    const { body } = NoteBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await notes.onUser(IdParam.parse(ctx.params).id, body, actorOf(ctx));
  });
  router.post('/purchases/:id/notes', staff, async (ctx) => {
    const { body } = NoteBody.parse(ctx.request.body);
    ctx.status = 201;
    ctx.body = await notes.onPurchase(IdParam.parse(ctx.params).id, body, actorOf(ctx));
  });
  return router;
}
