import Router from '@koa/router';
import type { Context } from 'koa';
import { userOf } from '../../identity/http/caller';
import { readUploadedFile } from '../../http/multipart';
import { IdParam } from '../../http/params';
import type { Policies } from '../../identity/http/policy';
import type { ImageAdmin, ImageWriteContext } from './image-admin';
import { MAX_IMAGE_BYTES } from '../../media/images';

function writeContext(ctx: Context): ImageWriteContext {
  const user = userOf(ctx);
  return { actor: { id: user.id, email: user.email, roles: user.roles }, requestId: ctx.state.requestId ?? null };
}

/**
 * The console's picture uploads: a product's image and a person's avatar and the school's logo, each one file in the multipart field
 * `file` (JPEG, PNG, WebP or AVIF by its bytes, at most 10 MB), answered with the updated record; DELETE takes the
 * picture off. Refusals: 413 too large, 415 not one of the four types, 422 damaged or too many pixels.
 */
export function imageAdminRoutes({ allow, imageAdmin }: { allow: Policies; imageAdmin: ImageAdmin }) {
  const router = new Router();

  router.put('/products/:id/image', allow.roles('support'), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const bytes = await readUploadedFile(ctx, 'file', MAX_IMAGE_BYTES);
    ctx.body = await imageAdmin.setProductImage(id, bytes, writeContext(ctx));
  });
  router.delete('/products/:id/image', allow.roles('support'), async (ctx) => {
    ctx.body = await imageAdmin.removeProductImage(IdParam.parse(ctx.params).id, writeContext(ctx));
  });

  router.put('/users/:id/avatar', allow.roles('support'), async (ctx) => {
    const { id } = IdParam.parse(ctx.params);
    const bytes = await readUploadedFile(ctx, 'file', MAX_IMAGE_BYTES);
    ctx.body = await imageAdmin.setUserAvatar(id, bytes, writeContext(ctx));
  });
  router.delete('/users/:id/avatar', allow.roles('support'), async (ctx) => {
    ctx.body = await imageAdmin.removeUserAvatar(IdParam.parse(ctx.params).id, writeContext(ctx));
  });

  router.put('/school/logo', allow.roles('admin'), async (ctx) => {
    const bytes = await readUploadedFile(ctx, 'file', MAX_IMAGE_BYTES);
    ctx.body = await imageAdmin.setSchoolLogo(bytes, writeContext(ctx));
  });
  router.delete('/school/logo', allow.roles('admin'), async (ctx) => {
    ctx.body = await imageAdmin.removeSchoolLogo(writeContext(ctx));
  });

  return router;
}
