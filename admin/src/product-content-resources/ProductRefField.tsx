import { ReferenceField, TextField, usePermissions } from 'react-admin';
import { canRead } from '../permissions';

/** A product by name, linked to its page; the raw id for roles that may not read products (contributors). */
export function ProductRefField({ source, label }: { source: string; label?: string; sortable?: boolean }) {
  const { permissions } = usePermissions();
  if (!canRead(permissions, 'products')) return <TextField source={source} label={label} />;
  return <ReferenceField source={source} reference="products" link="show" label={label} emptyText="—" />;
}

export const productRef = (source: string) => <ProductRefField key={source} source={source} />;
