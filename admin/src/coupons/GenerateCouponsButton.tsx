import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
} from '@mui/material';
import AutoAwesomeIcon from '@mui/icons-material/AutoAwesome';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { useMutation } from '@tanstack/react-query';
import type {
  GenerateCouponsRequest,
  GeneratedCoupon as GeneratedCouponRecord,
} from '@contract/admin/schemas/commerce';
import type { Wire } from '@contract/shared/wire';
import {
  Form,
  NumberInput,
  SaveButton,
  TextInput,
  number,
  required,
  useDataProvider,
  useNotify,
  usePermissions,
  useRefresh,
  useTranslate,
  type HttpError,
} from 'react-admin';
import { formatPercent } from '../common/money';
import { withoutEmpty } from '../common/withoutEmpty';
import type { ConsoleDataProvider } from '../dataProvider';
import { canWrite } from '../permissions';
import { CouponTermsInputs } from './CouponForm';

type GeneratedCoupon = Wire<GeneratedCouponRecord>;

const upperCase = (value: string) => (value ? value.toUpperCase() : '');
const DEFAULTS = { count: 10, maxUses: 1, prefix: '' };

function GeneratedCodes({ coupons }: { coupons: GeneratedCoupon[] }) {
  const notify = useNotify();
  const translate = useTranslate();
  const codes = coupons.map((c) => c.code ?? '').join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes);
      notify('resources.coupons.generate.copied', { type: 'success', messageArgs: { count: coupons.length } });
    } catch {
      notify('resources.coupons.generate.copyRefused', { type: 'warning' });
    }
  };
  return (
    <>
      <Alert severity="success" sx={{ mb: 2 }} role="status">
        {translate('resources.coupons.generate.generated', { smart_count: coupons.length })}
      </Alert>
      <MuiTextField
        label={translate('resources.coupons.generate.codes')}
        value={codes}
        multiline
        minRows={3}
        maxRows={10}
        fullWidth
        slotProps={{ input: { readOnly: true } }}
        onFocus={(event) => event.target.select()}
      />
      <Box sx={{ my: 1 }}>
        <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
          {translate('resources.coupons.generate.copy')}
        </Button>
      </Box>
      <Table size="small" aria-label={translate('resources.coupons.generate.table')}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.coupons.fields.code')}</TableCell>
            <TableCell>{translate('resources.coupons.fields.percentageDiscount')}</TableCell>
            <TableCell>{translate('resources.coupons.fields.maxUses')}</TableCell>
            <TableCell>{translate('resources.coupons.fields.expires')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {coupons.map((c) => (
            <TableRow key={c.id}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{c.code}</TableCell>
              <TableCell>{formatPercent(c.percentageDiscount)}</TableCell>
              <TableCell>{c.maxUses === -1 ? translate('resources.coupons.generate.unlimited') : c.maxUses}</TableCell>
              <TableCell>
                {c.expires ? new Date(c.expires).toLocaleString() : translate('resources.coupons.never')}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/** The coupon generator (POST /api/admin/coupons/generate): N coupons with fresh codes at once. */
export function GenerateCouponsButton() {
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const refresh = useRefresh();
  const notify = useNotify();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const [generated, setGenerated] = useState<GeneratedCoupon[] | null>(null);
  const generate = useMutation({
    mutationFn: (input: GenerateCouponsRequest) => dataProvider.generateCoupons(input),
    onSuccess: ({ data: coupons }) => {
      setGenerated(coupons);
      refresh();
    },
  });
  if (!canWrite(permissions, 'coupons')) return null;

  const close = () => {
    setOpen(false);
    setGenerated(null);
  };

  const submit = async (values: Record<string, unknown>) => {
    try {
      await generate.mutateAsync(withoutEmpty(values) as unknown as GenerateCouponsRequest);
      return undefined;
    } catch (error) {
      // The API's field errors go back to the form, under their inputs.
      const errors = (error as HttpError).body?.errors as Record<string, string> | undefined;
      if (errors && Object.keys(errors).length) return errors;
      notify(error instanceof Error && error.message ? error.message : 'resources.coupons.generate.failure', {
        type: 'error',
      });
      return undefined;
    }
  };

  return (
    <>
      <Button size="small" startIcon={<AutoAwesomeIcon />} onClick={() => setOpen(true)}>
        {translate('resources.coupons.generate.button')}
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="generate-coupons-title">
        <DialogTitle id="generate-coupons-title">{translate('resources.coupons.generate.title')}</DialogTitle>
        {generated ? (
          <>
            <DialogContent>
              <GeneratedCodes coupons={generated} />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setGenerated(null)}>{translate('resources.coupons.generate.more')}</Button>
              <Button variant="contained" onClick={close}>
                {translate('resources.coupons.generate.done')}
              </Button>
            </DialogActions>
          </>
        ) : (
          <Form defaultValues={DEFAULTS} onSubmit={submit}>
            <DialogContent>
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
                <NumberInput
                  source="count"
                  label="resources.coupons.generate.count"
                  step={1}
                  validate={[required(), number()]}
                  helperText="resources.coupons.generate.countHelp"
                />
                <TextInput
                  source="prefix"
                  label="resources.coupons.generate.prefix"
                  parse={upperCase}
                  helperText="resources.coupons.generate.prefixHelp"
                />
              </Box>
              <CouponTermsInputs usesLabel="resources.coupons.generate.usesPerCode" />
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>{translate('console.common.cancel')}</Button>
              <SaveButton label="resources.coupons.generate.submit" icon={<AutoAwesomeIcon />} alwaysEnable />
            </DialogActions>
          </Form>
        )}
      </Dialog>
    </>
  );
}
