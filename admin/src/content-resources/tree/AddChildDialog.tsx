import { useState } from 'react';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  IconButton,
} from '@mui/material';
import AddIcon from '@mui/icons-material/Add';
import { useMutation } from '@tanstack/react-query';
import {
  AutocompleteInput,
  Form,
  FormDataConsumer,
  ReferenceInput,
  SaveButton,
  SelectInput,
  required,
  useDataProvider,
  useNotify,
  useTranslate,
} from 'react-admin';
import { CHILD_TYPE, TIER_CHOICES, TYPE_CHOICES } from '../choices';
import { useContentOption } from '../shared';
import type { TreeNode } from '../types';
import { errorMessage, fieldErrors } from './errors';

interface AddChildProps {
  parent: TreeNode;
  /** Called after the link was created (refetch the tree). */
  onAdded: () => Promise<unknown> | void;
  disabled?: boolean;
  /** A text button (the outline's header) rather than an icon button (a row). */
  variant?: 'text' | 'icon';
}

interface AddChildValues {
  type?: string;
  resourceId?: string;
  tier?: string;
}

function AddChildDialog({
  parent,
  onAdded,
  onClose,
}: {
  parent: TreeNode;
  onAdded: AddChildProps['onAdded'];
  onClose: () => void;
}) {
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const translate = useTranslate();
  const optionText = useContentOption();
  const titleId = `add-child-${parent.id}-title`;
  const add = useMutation({
    mutationFn: (values: AddChildValues) =>
      dataProvider.create('content-resource-resources', {
        data: {
          resourceOfId: parent.id,
          resourceId: values.resourceId,
          position: parent.children.length,
          metadata: values.tier ? { tier: values.tier } : {},
        },
      }),
    onSuccess: async () => {
      notify('console.content.outline.added', { type: 'success', messageArgs: { parent: parent.title } });
      await onAdded();
      onClose();
    },
  });

  const submit = async (values: AddChildValues) => {
    try {
      await add.mutateAsync(values);
      return undefined;
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors?.resourceId && values.resourceId && !parent.children.some((c) => c.id === values.resourceId)) {
        // The API keeps removed links (soft delete) and their (parent, child) key: it refuses the same pair again.
        errors.resourceId = translate('console.content.outline.placedBefore', { error: errors.resourceId });
      }
      if (errors) return errors; // shown under the fields (e.g. resourceId: is already linked here)
      notify(errorMessage(error, translate('console.content.outline.addFailed')), { type: 'error' });
      return undefined;
    }
  };

  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <Form<AddChildValues>
        record={{}}
        defaultValues={{ type: CHILD_TYPE[parent.type] ?? '', tier: '' }}
        onSubmit={submit}
      >
        <DialogTitle id={titleId}>
          {translate('console.content.outline.addTitle', { parent: parent.title })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>{translate('console.content.outline.addHelp')}</DialogContentText>
          <SelectInput
            source="type"
            label="resources.content-resources.fields.type"
            choices={TYPE_CHOICES}
            emptyText="console.content.anyType"
            fullWidth
            helperText={false}
          />
          <FormDataConsumer<AddChildValues>>
            {({ formData }) => (
              <ReferenceInput
                source="resourceId"
                reference="content-resources"
                filter={formData.type ? { type: formData.type } : {}}
                sort={{ field: 'title', order: 'ASC' }}
              >
                <AutocompleteInput
                  label="console.content.outline.content"
                  optionText={optionText}
                  filterToQuery={(q: string) => ({ q })}
                  validate={required()}
                  fullWidth
                  helperText="console.content.outline.searchHelp"
                />
              </ReferenceInput>
            )}
          </FormDataConsumer>
          <SelectInput
            source="tier"
            label="resources.content-resource-resources.fields.metadata.tier"
            choices={TIER_CHOICES}
            emptyText="console.content.tier.notSet"
            fullWidth
            helperText="console.content.outline.tierHelp"
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{translate('console.common.cancel')}</Button>
          <SaveButton label="console.content.outline.add" icon={<AddIcon />} />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Opens a dialog that links existing content under `parent` (POST content-resource-resources). */
export function AddChildButton({ parent, onAdded, disabled, variant = 'icon' }: AddChildProps) {
  const [open, setOpen] = useState(false);
  const translate = useTranslate();
  const label = translate('console.content.outline.addTo', { parent: parent.title });
  return (
    <>
      {variant === 'text' ? (
        <Button startIcon={<AddIcon />} onClick={() => setOpen(true)} disabled={disabled} aria-label={label}>
          {translate('console.content.outline.addContent')}
        </Button>
      ) : (
        <IconButton size="small" onClick={() => setOpen(true)} disabled={disabled} aria-label={label} title={label}>
          <AddIcon fontSize="small" />
        </IconButton>
      )}
      {open && <AddChildDialog parent={parent} onAdded={onAdded} onClose={() => setOpen(false)} />}
    </>
  );
}
