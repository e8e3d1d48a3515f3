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
} from 'react-admin';
import { CHILD_TYPE, TIER_CHOICES, TYPE_CHOICES, typeLabel } from '../choices';
import type { ContentResource, TreeNode } from '../types';
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

const optionText = (r: ContentResource) => `${r.fields?.title || 'Untitled'} (${typeLabel(r.type)})`;

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
  const titleId = `add-child-${parent.id}-title`;

  const submit = async (values: AddChildValues) => {
    try {
      await dataProvider.create('content-resource-resources', {
        data: {
          resourceOfId: parent.id,
          resourceId: values.resourceId,
          position: parent.children.length,
          metadata: values.tier ? { tier: values.tier } : {},
        },
      });
      notify(`Added to “${parent.title}”.`, { type: 'success' });
      await onAdded();
      onClose();
      return undefined;
    } catch (error) {
      const errors = fieldErrors(error);
      if (errors?.resourceId && values.resourceId && !parent.children.some((c) => c.id === values.resourceId)) {
        // The API keeps removed links (soft delete) and their (parent, child) key: it refuses the same pair again.
        errors.resourceId = `${errors.resourceId}: it was placed here before and removed, and the API does not accept the same content under the same parent twice.`;
      }
      if (errors) return errors; // shown under the fields (e.g. resourceId: is already linked here)
      notify(errorMessage(error, 'The content could not be added.'), { type: 'error' });
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
        <DialogTitle id={titleId}>Add content to “{parent.title}”</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 1 }}>
            Choose existing content; it goes at the end, and you can move it afterwards. New content is created from the
            content list first.
          </DialogContentText>
          <SelectInput
            source="type"
            label="Type"
            choices={TYPE_CHOICES}
            emptyText="Any type"
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
                  label="Content"
                  optionText={optionText}
                  filterToQuery={(q: string) => ({ q })}
                  validate={required()}
                  fullWidth
                  helperText="Type to search titles and slugs."
                />
              </ReferenceInput>
            )}
          </FormDataConsumer>
          <SelectInput
            source="tier"
            label="Tier"
            choices={TIER_CHOICES}
            emptyText="Not set"
            fullWidth
            helperText="Free lessons are open to everyone."
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          <SaveButton label="Add" icon={<AddIcon />} />
        </DialogActions>
      </Form>
    </Dialog>
  );
}

/** Opens a dialog that links existing content under `parent` (POST content-resource-resources). */
export function AddChildButton({ parent, onAdded, disabled, variant = 'icon' }: AddChildProps) {
  const [open, setOpen] = useState(false);
  const label = `Add content to ${parent.title}`;
  return (
    <>
      {variant === 'text' ? (
        <Button startIcon={<AddIcon />} onClick={() => setOpen(true)} disabled={disabled} aria-label={label}>
          Add content
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
