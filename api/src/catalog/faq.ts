import type { Knex } from 'knex';
import type { FaqItem } from './schemas';

type Conn = Knex | Knex.Transaction;

/** A product's questions and answers in order, as one JSON column `faq` of a query over `products`. */
export function faqColumn(db: Conn): Knex.Raw {
  return db.raw(`(SELECT coalesce(json_agg(json_build_object('question', f.question, 'answer', f.answer)
      ORDER BY f.position), '[]'::json) FROM product_faqs f WHERE f.product_id = products.id) AS faq`);
}

export async function faqOf(db: Conn, productId: string): Promise<FaqItem[]> {
  return db('productFaqs').where({ productId }).orderBy('position').select('question', 'answer');
}

/** Replaces a product's questions with these, in this order (in the caller's transaction). */
export async function replaceFaq(trx: Knex.Transaction, productId: string, items: FaqItem[]): Promise<void> {
  await trx('productFaqs').where({ productId }).delete();
  if (items.length === 0) return;
  await trx('productFaqs').insert(
    items.map(({ question, answer }, position) => ({ productId, position, question, answer })),
  );
}
