import { useState } from 'react';
import { IconButton } from '@mui/material';
import LinkOffIcon from '@mui/icons-material/LinkOff';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useDataProvider, useNotify, useTranslate } from 'react-admin';
import { typeNoun } from '../choices';
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
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const names = { child: node.title, parent: parent.title };
  const remove = useMutation({
    mutationFn: (linkId: string) => dataProvider.delete('content-resource-resources', { id: linkId }),
    onSuccess: async () => {
      notify('console.content.outline.removed', { type: 'success', messageArgs: names });
      await onRemoved();
    },
    onError: (error) => {
      notify(errorMessage(error, translate('console.content.outline.removeFailed')), { type: 'error' });
    },
    onSettled: () => setOpen(false),
  });
  const link = node.link;
  if (!link) return null;
  const label = translate('console.content.outline.removeLabel', names);

  return (
    <>
      <IconButton
        size="small"
        color="error"
        aria-label={label}
        title={label}
        disabled={disabled || remove.isPending}
        onClick={() => setOpen(true)}
      >
        <LinkOffIcon fontSize="small" />
      </IconButton>
      <Confirm
        isOpen={open}
        loading={remove.isPending}
        title="console.content.outline.removeTitle"
        titleTranslateOptions={names}
        content="console.content.outline.removeContent"
        contentTranslateOptions={{
          child: typeNoun(translate, node.type),
          parent: typeNoun(translate, parent.type),
        }}
        confirm="console.content.outline.remove"
        onConfirm={() => remove.mutate(link.id)}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
