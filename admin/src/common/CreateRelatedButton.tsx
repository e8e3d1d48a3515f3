import { CreateButton, usePermissions } from 'react-admin';
import { canWrite } from '../permissions';

interface CreateRelatedButtonProps {
  resource: string;
  /** The new record's defaults, e.g. { productId } (the create form reads them from the location state). */
  record: Record<string, unknown>;
  label: string;
}

/** "Add price", "Add revenue split"...: a create screen prefilled with its parent, for those who may write it. */
export function CreateRelatedButton({ resource, record, label }: CreateRelatedButtonProps) {
  const { permissions } = usePermissions();
  if (!canWrite(permissions, resource)) return null;
  return <CreateButton resource={resource} state={{ record }} label={label} variant="outlined" />;
}
