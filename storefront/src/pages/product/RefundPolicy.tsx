import { Paragraphs } from './Paragraphs';

/** The product's refund policy, or the platform's when it has none of its own. */
export function RefundPolicy({ text }: { text: string }) {
  return (
    <section className="sales-section refund-policy" aria-labelledby="refund-heading">
      <h2 id="refund-heading">Refund policy</h2>
      <Paragraphs text={text} />
    </section>
  );
}
