import { useState } from 'react';
import { Autocomplete, Button, TextField } from '@mui/material';
import CardGiftcardIcon from '@mui/icons-material/CardGiftcard';
import { useGetList, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { ConfirmActionDialog } from '../common/ActionDialog';
import { ReasonField, useReason } from '../common/ReasonField';
import { useConsoleAction } from '../common/useConsoleAction';
import { canGiveCourse } from '../permissions';
import type { User } from './types';

interface ProductChoice {
  id: string;
  name: string;
}

/** The products that can be given: active ones, found by name as staff type. */
function ProductPicker({
  value,
  onChange,
  showError,
}: {
  value: ProductChoice | null;
  onChange(product: ProductChoice | null): void;
  showError: boolean;
}) {
  const translate = useTranslate();
  const [search, setSearch] = useState('');
  const { data = [], isPending } = useGetList<ProductChoice>('products', {
    filter: { status: 'active', ...(search && { q: search }) },
    pagination: { page: 1, perPage: 25 },
    sort: { field: 'name', order: 'ASC' },
  });
  return (
    <Autocomplete
      options={data}
      value={value}
      onChange={(_event, product) => onChange(product)}
      onInputChange={(_event, text, why) => setSearch(why === 'input' ? text : '')}
      getOptionLabel={(product) => product.name}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      filterOptions={(options) => options}
      loading={isPending}
      noOptionsText={translate('resources.users.giveCourse.noProducts')}
      renderInput={(params) => (
        <TextField
          {...params}
          label={translate('resources.users.giveCourse.product')}
          required
          error={showError}
          helperText={translate(
            showError ? 'resources.users.giveCourse.productRequired' : 'resources.users.giveCourse.productHelp',
          )}
        />
      )}
      sx={{ mt: 2 }}
    />
  );
}

function GiveCourseDialog({ user, onClose }: { user: User; onClose(): void }) {
  const translate = useTranslate();
  const reason = useReason();
  const [product, setProduct] = useState<ProductChoice | null>(null);
  const [tried, setTried] = useState(false);
  const who = user.name || user.email;
  const give = useConsoleAction(
    (dataProvider) => {
      setTried(true);
      const reasonGiven = reason.check();
      if (!product) return Promise.reject(new Error(translate('resources.users.giveCourse.productRequired')));
      if (!reasonGiven) return Promise.reject(new Error(translate('resources.users.giveCourse.reasonRequired')));
      return dataProvider.giveCourse(user.id, { productId: product.id, reason: reason.trimmed });
    },
    (given) => ({
      message: 'resources.users.giveCourse.done',
      messageArgs: { product: given.productName, who, to: given.emailedTo },
    }),
  );
  return (
    <ConfirmActionDialog
      title="resources.users.giveCourse.title"
      question={translate('resources.users.giveCourse.question', { who })}
      details="resources.users.giveCourse.details"
      busyLabel="resources.users.giveCourse.busy"
      confirmLabel="resources.users.giveCourse.confirm"
      failure="resources.users.giveCourse.failure"
      mutation={give}
      onClose={onClose}
    >
      <ProductPicker value={product} onChange={setProduct} showError={tried && !product} />
      <ReasonField
        words={{
          label: 'resources.users.giveCourse.reason',
          help: 'resources.users.giveCourse.reasonHelp',
          required: 'resources.users.giveCourse.reasonRequired',
        }}
        field={reason.field}
      />
    </ConfirmActionDialog>
  );
}

/**
 * Gives the person shown a course, free, with a reason (POST /api/admin/users/:id/comps): a comp, never revenue,
 * audited and on their timeline; they are emailed a way in. Support and admins; the API refuses an owner, a blocked
 * person, and an archived, draft or sold-out product.
 */
export function GiveCourseButton() {
  const user = useRecordContext<User>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!user || !canGiveCourse(permissions)) return null;
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<CardGiftcardIcon />} onClick={() => setOpen(true)}>
        {translate('resources.users.giveCourse.button')}
      </Button>
      {open && <GiveCourseDialog user={user} onClose={() => setOpen(false)} />}
    </>
  );
}
