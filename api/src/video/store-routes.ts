import Router from '@koa/router';
import type { Config } from '../config';
import { authOf, userOf } from '../identity/http/caller';
import { buyerCountry } from '../http/buyer-location';
import type { Policies } from '../identity/http/policy';
import { LessonIdParam } from '../learning/schemas';
import type { PlaybackService } from './playback';
import type { VideoMedia } from './playback-media';
import { parseRange } from './playback-media';
import { MediaPath, PositionBody } from './playback.schemas';

/** PUT /api/store/lessons/:lessonId/position: the learner's place in a lesson's video (sessions and devices). */
export function videoStoreRoutes({
  allow,
  config,
  playback,
}: {
  allow: Policies;
  config: Config;
  playback: PlaybackService;
}) {
  const router = new Router();
  router.put('/lessons/:lessonId/position', allow.signedIn({ bearer: true }), async (ctx) => {
    const { lessonId } = LessonIdParam.parse(ctx.params);
    const { positionSeconds, course } = PositionBody.parse(ctx.request.body ?? {});
    ctx.body = await playback.savePosition(userOf(ctx), lessonId, positionSeconds, buyerCountry(ctx, config), course);
  });
  return router;
}

/**
 * GET /media/videos/<token>/<file>: a signed video link's playlists, segments, poster and captions, with byte
 * ranges. Public as a route: the token says who may use it, and the service checks them on every request.
 */
export function videoMediaRoutes({ allow, config, media }: { allow: Policies; config: Config; media: VideoMedia }) {
  const router = new Router();
  router.get('/videos/:token/*file', allow.public({ bearer: true }), async (ctx) => {
    const file = ctx.params.file;
    const { token, file: name } = MediaPath.parse({
      token: ctx.params.token,
      file: Array.isArray(file) ? file.join('/') : file,
    });
    const answer = await media.serve(
      token,
      name,
      { userId: authOf(ctx)?.user.id ?? null, country: buyerCountry(ctx, config) },
      parseRange(ctx.get('range') || undefined),
    );
    ctx.set('Cache-Control', `private, max-age=${answer.maxAgeSeconds}`);
    ctx.set('Accept-Ranges', 'bytes');
    ctx.type = answer.contentType;
    if (answer.range) {
      ctx.status = 206;
      ctx.set('Content-Range', `bytes ${answer.range.start}-${answer.range.end}/${answer.size}`);
      ctx.compress = false; // a compressed part would not be the bytes the range names
    } else {
      ctx.status = 200;
    }
    ctx.body = answer.body;
    ctx.length = answer.range ? answer.range.end - answer.range.start + 1 : answer.size;
  });
  return router;
}
