import { initials } from './initials';
import type { StoreProduct } from '../api/catalog';

/**
 * How wide a card is, for the browser to pick from `srcset` before layout: three cards a row in the 1040 px
 * column, two from a tablet's width, one on a phone.
 */
const CARD_SIZES = '(min-width: 1080px) 340px, (min-width: 620px) 50vw, 100vw';

/**
 * A product card's picture: served resized (the srcset's widths), its box reserved by width and height so the cards
 * do not jump as it arrives, and loaded at once only for the first row. Without one, the quiet cover with the
 * product's initials its sales page shows, so every card has the same shape.
 */
export function CardImage({ image, name, eager }: { image: StoreProduct['image']; name: string; eager: boolean }) {
  if (!image) {
    return (
      <div className="card-image card-image-placeholder" aria-hidden="true">
        <span>{initials(name)}</span>
      </div>
    );
  }
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
