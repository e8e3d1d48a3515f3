import type { MouseEvent } from 'react';
import { FunctionField, Link, useCreatePath, useRecordContext, useTranslate } from 'react-admin';
import { date, money, ref, status, text } from '../common/columns';
import { formatMoney } from '../common/money';
import { Rows } from '../common/Rows';
import { PURCHASE_STATUS_LOOKS, purchaseKind, type Purchase } from './choices';

interface PurchaseRowsProps {
  /** Leave out the column the surrounding screen already fixes (e.g. the product on a product's page). */
  hide?: ('userId' | 'productId' | 'country')[];
  /** The line shown when there are none (a translation key). */
  empty: string;
  /** Also a currency column and a link to each purchase (a person's page, where amounts of several currencies meet). */
  detailed?: boolean;
}

/** A link to the row's purchase, as words (the whole row opens it too, but a link says so and takes the keyboard). */
function OpenLink(_props: { label: string }) {
  const purchase = useRecordContext<Purchase>();
  const createPath = useCreatePath();
  const translate = useTranslate();
  if (!purchase) return null;
  return (
    <Link
      to={createPath({ resource: 'purchases', id: purchase.id, type: 'show' })}
      onClick={(event: MouseEvent) => event.stopPropagation()}
    >
      {translate('resources.purchases.open')}
    </Link>
  );
}

/** Purchases as rows, inside a List or a ReferenceManyField; a row opens the purchase. */
export function PurchaseRows({ hide = [], empty, detailed = false }: PurchaseRowsProps) {
  const columns = [
    date('createdAt'),
    ref('userId', 'users'),
    ref('productId', 'products'),
    status(PURCHASE_STATUS_LOOKS),
    money('totalAmount'),
    <FunctionField<Purchase>
      key="refundedAmount"
      source="refundedAmount"
      label="resources.purchases.fields.refundedAmount"
      // The charge's refunds, joined in: no index orders purchases by them, so the API refuses that sort.
      sortable={false}
      render={(p) => (p.refundedAmount > 0 ? formatMoney(p.refundedAmount, p.currency) : '—')}
    />,
    <FunctionField<Purchase> key="kind" label="resources.purchases.fields.kind" render={purchaseKind} />,
    text('country', { emptyText: '—' }),
    ...(detailed
      ? [
          <FunctionField<Purchase>
            key="currency"
            source="currency"
            label="resources.purchases.fields.currency"
            render={(p) => p.currency.toUpperCase()}
          />,
          <OpenLink key="open" label="resources.purchases.open" />,
        ]
      : []),
  ];
  return <Rows empty={empty}>{columns.filter((column) => !hide.includes(column.key as 'userId'))}</Rows>;
}
