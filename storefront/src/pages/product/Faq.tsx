import type { StoreProductPage } from '../../api/catalog';
import { Paragraphs } from './Paragraphs';

/** Questions buyers ask, each a disclosure (<details>): the question is its button, the answer folds open. */
export function Faq({ items }: { items: StoreProductPage['faq'] }) {
  if (items.length === 0) return null;
  return (
    <section className="sales-section" aria-labelledby="faq-heading">
      <h2 id="faq-heading">Frequently asked questions</h2>
      <div className="faq-list">
        {items.map((item, i) => (
          <details key={i} className="faq-item">
            <summary>{item.question}</summary>
            <div className="faq-answer">
              <Paragraphs text={item.answer} />
            </div>
          </details>
        ))}
      </div>
    </section>
  );
}
