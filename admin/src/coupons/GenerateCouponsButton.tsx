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
  AutocompleteInput,
  Form,
  NumberInput,
  ReferenceInput,
  SaveButton,
  TextInput,
  number,
  required,
  useDataProvider,
  useNotify,
  usePermissions,
  useRefresh,
  type HttpError,
} from 'react-admin';
import { InstantInput, PercentInput } from '../common/inputs';
import { formatPercent } from '../common/money';
import { withoutEmpty } from '../common/withoutEmpty';
import type { ConsoleDataProvider } from '../dataProvider';
import { canWrite } from '../permissions';

type GeneratedCoupon = Wire<GeneratedCouponRecord>;

const upperCase = (value: string) => (value ? value.toUpperCase() : '');
const DEFAULTS = { count: 10, maxUses: 1, prefix: '' };

function GeneratedCodes({ coupons }: { coupons: GeneratedCoupon[] }) {
  const notify = useNotify();
  const codes = coupons.map((c) => c.code ?? '').join('\n');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes);
      notify(`Copied ${coupons.length} codes.`, { type: 'success' });
    } catch {
      notify('Could not copy: select the codes in the box and copy them.', { type: 'warning' });
    }
  };
  return (
    <>
      <Alert severity="success" sx={{ mb: 2 }} role="status">
        Generated {coupons.length} coupon{coupons.length === 1 ? '' : 's'}.
      </Alert>
      <MuiTextField
        label="Generated codes, one per line"
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
          Copy codes
        </Button>
      </Box>
      <Table size="small" aria-label="Generated coupons">
        <TableHead>
          <TableRow>
            <TableCell>Code</TableCell>
            <TableCell>Discount</TableCell>
            <TableCell>Max uses</TableCell>
            <TableCell>Expires</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {coupons.map((c) => (
            <TableRow key={c.id}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{c.code}</TableCell>
              <TableCell>{formatPercent(c.percentageDiscount)}</TableCell>
              <TableCell>{c.maxUses === -1 ? 'Unlimited' : c.maxUses}</TableCell>
              <TableCell>{c.expires ? new Date(c.expires).toLocaleString() : 'Never'}</TableCell>
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
      notify(error instanceof Error && error.message ? error.message : 'The coupons could not be generated.', {
        type: 'error',
      });
      return undefined;
    }
  };

  return (
    <>
      <Button size="small" startIcon={<AutoAwesomeIcon />} onClick={() => setOpen(true)}>
        Generate coupons
      </Button>
      <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="generate-coupons-title">
        <DialogTitle id="generate-coupons-title">Generate coupons</DialogTitle>
        {generated ? (
          <>
            <DialogContent>
              <GeneratedCodes coupons={generated} />
            </DialogContent>
            <DialogActions>
              <Button onClick={() => setGenerated(null)}>Generate more</Button>
              <Button variant="contained" onClick={close}>
                Done
              </Button>
            </DialogActions>
          </>
        ) : (
          <Form defaultValues={DEFAULTS} onSubmit={submit}>
            <DialogContent>
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
                <NumberInput
                  source="count"
                  label="How many"
                  step={1}
                  validate={[required(), number()]}
                  helperText="1 to 500."
                />
                <TextInput
                  source="prefix"
                  label="Code prefix"
                  parse={upperCase}
                  helperText="Optional, e.g. SPRING → SPRING-7KQ2M9XA."
                />
              </Box>
              <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
                <PercentInput source="percentageDiscount" label="Discount (%)" validate={[required(), number()]} />
                <NumberInput
                  source="maxUses"
                  label="Uses per code"
                  step={1}
                  validate={[required(), number()]}
                  helperText="−1 means unlimited."
                />
              </Box>
              <InstantInput source="expires" label="Expires" helperText="Leave empty: never expires." />
              <ReferenceInput source="restrictedToProductId" reference="products">
                <AutocompleteInput label="Only for product" helperText="Leave empty: valid for every product." />
              </ReferenceInput>
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>Cancel</Button>
              <SaveButton label="Generate" icon={<AutoAwesomeIcon />} alwaysEnable />
            </DialogActions>
          </Form>
        )}
      </Dialog>
    </>
  );
}
