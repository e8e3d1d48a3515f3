import type { StoreProduct } from '../api/catalog';

/**
 * How wide a card is, for the browser to pick from `srcset` before layout: three cards a row in the 1040 px
 * column, two from a tablet's width, one on a phone.
 */
const CARD_SIZES = '(min-width: 1080px) 340px, (min-width: 620px) 50vw, 100vw';

/**
 * A product card's picture, when the product has one: served resized (the srcset's widths), its box reserved by
 * width and height so the cards do not jump as it arrives, and loaded at once only for the first row.
 */
export function CardImage({ image, eager }: { image: StoreProduct['image']; eager: boolean }) {
  if (!image) return null;
  return (
    <img
      className="card-image"
      src={image.src}
      srcSet={image.srcSet}
      sizes={CARD_SIZES}
      width={image.width}
      height={image.height}
      alt={image.alt ?? ''}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
    />
  );
}
