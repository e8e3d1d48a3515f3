import { useState, type KeyboardEvent } from 'react';
import { Box, Button, CircularProgress, Stack, TextField } from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useMutation } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../../dataProvider';
import { typeLabel, typeNoun } from '../choices';
import type { ResourceType, TreeNode } from '../types';
import { errorMessage } from './errors';

/** What can be made in place inside each container: its usual child first, and lessons straight in. */
export const NEW_CHILD_TYPES: Record<string, ResourceType[]> = {
  course: ['module', 'lesson'],
  module: ['section', 'lesson'],
  section: ['lesson'],
};

interface InlineAddProps {
  parent: TreeNode;
  disabled?: boolean;
  /** After the content was made and linked (reload the outline); `added` is the new node, with its slug. */
  onAdded: (added: TreeNode) => Promise<unknown> | void;
}

/**
 * Building the outline without leaving it: "Add module", "Add lesson"… opens a title field in place; Enter makes
 * the content (a draft, its slug from the title) at the end of `parent` and keeps the field open for the next one;
 * Escape closes it.
 */
export function InlineAdd({ parent, disabled, onAdded }: InlineAddProps) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const [type, setType] = useState<ResourceType | null>(null);
  const [title, setTitle] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (input: { type: ResourceType; title: string }) =>
      dataProvider.addContentChild(parent.id, input).then(({ data }) => data),
    onSuccess: async (added) => {
      setTitle('');
      await onAdded(added);
    },
    onError: (failure) => setProblem(errorMessage(failure, translate('console.content.outline.newFailed'))),
  });
  const types = NEW_CHILD_TYPES[parent.type] ?? [];
  if (types.length === 0) return null;
  const parentTitle = parent.title || translate('console.common.untitled');

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      setType(null);
      setProblem(null);
      return;
    }
    if (event.key !== 'Enter' || !type || add.isPending) return;
    event.preventDefault();
    const trimmed = title.trim();
    if (!trimmed) return setProblem(translate('console.content.outline.newTitleNeeded'));
    setProblem(null);
    add.mutate({ type, title: trimmed });
  };

  return (
    <Box sx={{ py: 0.5, pl: 1 }}>
      {type ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'flex-start' }}>
          <TextField
            size="small"
            autoFocus
            fullWidth
            label={translate('console.content.outline.newTitle', { type: typeLabel(translate, type) })}
            value={title}
            onChange={(event) => {
              setTitle(event.target.value);
              setProblem(null);
            }}
            onKeyDown={onKeyDown}
            onBlur={() => {
              if (!title.trim() && !add.isPending) setType(null);
            }}
            error={Boolean(problem)}
            helperText={problem ?? translate('console.content.outline.newHelp', { parent: parentTitle })}
            slotProps={{ htmlInput: { maxLength: 200, 'aria-busy': add.isPending } }}
            sx={{ maxWidth: 560 }}
          />
          {add.isPending ? (
            <CircularProgress size={20} sx={{ mt: 1 }} aria-label={translate('console.content.outline.adding')} />
          ) : null}
        </Stack>
      ) : (
        <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
          {types.map((t) => (
            <Button
              key={t}
              size="small"
              startIcon={<AddIcon />}
              disabled={disabled}
              onClick={() => setType(t)}
              aria-label={translate('console.content.outline.newLabel', {
                type: typeNoun(translate, t),
                parent: parentTitle,
              })}
            >
              {translate('console.content.outline.newButton', { type: typeNoun(translate, t) })}
            </Button>
          ))}
        </Stack>
      )}
    </Box>
  );
}
