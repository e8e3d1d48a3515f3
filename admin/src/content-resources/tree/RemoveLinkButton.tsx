import { useState } from 'react';
import { IconButton } from '@mui/material';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { Confirm, useDataProvider, useNotify } from 'react-admin';
import { typeLabel } from '../choices';
import type { TreeNode } from '../types';
import { errorMessage } from './errors';

interface RemoveLinkButtonProps {
  node: TreeNode;
  parent: TreeNode;
  onRemoved: () => Promise<unknown> | void;
  disabled?: boolean;
}

/** Removes `node` from `parent` (DELETE content-resource-resources/:linkId); the content itself is kept. */
export function RemoveLinkButton({ node, parent, onRemoved, disabled }: RemoveLinkButtonProps) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);
  const link = node.link;
  if (!link) return null;
  const label = `Remove ${node.title} from ${parent.title}`;

  const remove = async () => {
    setPending(true);
    try {
      await dataProvider.delete('content-resource-resources', { id: link.id });
      notify(`Removed “${node.title}” from “${parent.title}”.`, { type: 'success' });
      await onRemoved();
    } catch (error) {
      notify(errorMessage(error, 'The content could not be removed.'), { type: 'error' });
    } finally {
      setPending(false);
      setOpen(false);
    }
  };

  return (
    <>
      <IconButton
        size="small"
        color="error"
        aria-label={label}
        title={label}
        disabled={disabled || pending}
        onClick={() => setOpen(true)}
      >
        <LinkOffIcon fontSize="small" />
      </IconButton>
      <Confirm
        isOpen={open}
        loading={pending}
        title={`Remove “${node.title}” from “${parent.title}”?`}
        content={`The ${typeLabel(node.type).toLowerCase()} itself is kept (with anything inside it); it is only taken out of this ${typeLabel(parent.type).toLowerCase()}.`}
        confirm="Remove"
        onConfirm={remove}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
