import type { ReactNode } from 'react';
import { Datagrid, DateField, FunctionField, ReferenceField, TextField } from 'react-admin';
import { NoneFound } from '../common/EmptyState';
import { MoneyField } from '../common/MoneyField';
import { StatusChipField } from '../common/StatusChipField';
import { PURCHASE_STATUS_LOOKS, purchaseKind, type Purchase } from './choices';

interface PurchaseRowsProps {
  /** Leave out the column the surrounding screen already fixes (e.g. the product on a product's page). */
  hide?: ('userId' | 'productId')[];
  empty: ReactNode;
}

/** Purchases as rows, inside a List or a ReferenceManyField; a row opens the purchase. */
export function PurchaseRows({ hide = [], empty }: PurchaseRowsProps) {
  return (
    <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoneFound>{empty}</NoneFound>}>
      <DateField source="createdAt" showTime />
      {hide.includes('userId') ? null : (
        <ReferenceField source="userId" reference="users" link="show" sortable={false} />
      )}
      {hide.includes('productId') ? null : (
        <ReferenceField source="productId" reference="products" link="show" sortable={false} />
      )}
      <StatusChipField source="status" looks={PURCHASE_STATUS_LOOKS} />
      <MoneyField source="totalAmount" />
      <FunctionField<Purchase> label="Kind" render={purchaseKind} />
      <TextField source="country" emptyText="—" sortable={false} />
    </Datagrid>
  );
}
