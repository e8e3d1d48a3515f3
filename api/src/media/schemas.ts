import { z } from 'zod';

// ─── Answers ───────────────────────────────────────────────────────────────────────────────────────────────────────
// How the storefront's answers carry an uploaded picture. Built by imageFields/avatarFields (api/src/media/images.ts).

/**
 * A product's picture, served resized from /media/images/<key>?w=<width>: `src` at a width that suits a card or
 * a page column, `srcSet` every width the original allows (for `<img srcset sizes>`), the original's `width` and
 * `height` (the aspect ratio, so the page reserves the space before the bytes arrive), and the text that describes
 * it for people who cannot see it ('' when staff gave none: a decorative picture).
 */
export interface ImageFields {
  src: string;
  srcSet: string;
  width: number;
  height: number;
  alt: string;
}

/** A person's picture (an instructor on a sales page): small widths only. */
export interface AvatarFields {
  src: string;
  srcSet: string;
}

// ─── Requests ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** The widths a picture is served at: a fixed set, so every replica and cache stores the same few variants. */
export const IMAGE_WIDTHS = [160, 320, 640, 960, 1280, 1920] as const;
export type ImageWidth = (typeof IMAGE_WIDTHS)[number];

/**
 * An image's key: a hash of its bytes (so a new picture is a new address, and an address is served forever the
 * same), its size in pixels (so an answer can describe it without reading it) and its type.
 */
export const IMAGE_KEY = /^([0-9a-f]{32})-([1-9][0-9]{0,4})x([1-9][0-9]{0,4})\.(jpg|png|webp|avif)$/;

/** GET /media/images/:key?w=… */
export const ImageRequest = z.object({
  key: z.string().regex(IMAGE_KEY, 'is not an image address'),
  w: z.coerce.number().refine((w): w is ImageWidth => (IMAGE_WIDTHS as readonly number[]).includes(w), {
    message: `must be one of ${IMAGE_WIDTHS.join(', ')}`,
  }),
});
