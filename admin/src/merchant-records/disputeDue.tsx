import { Box, Chip } from '@mui/material';
import type { SxProps } from '@mui/material/styles';
import { DateField, FunctionField, useTranslate } from 'react-admin';
import type { MerchantDisputeRecord } from '@contract/payments/schemas';
import type { Wire } from '@contract/shared/wire';

export type MerchantDispute = Wire<MerchantDisputeRecord>;

/** Evidence due within this long is "due soon" (the API's dispute figures count the same three days). */
const DUE_SOON_MS = 3 * 86_400_000;

/** Where an open dispute's evidence deadline stands: passed, close, or neither (closed disputes have none to meet). */
export function dueState(dispute: Pick<MerchantDispute, 'status' | 'evidenceDueBy'>, now = Date.now()) {
  if (dispute.status !== 'open' || !dispute.evidenceDueBy) return null;
  const due = Date.parse(dispute.evidenceDueBy);
  if (due < now) return 'overdue' as const;
  return due - now < DUE_SOON_MS ? ('soon' as const) : null;
}

/** An overdue dispute's row is tinted red, one due soon amber, with a bar of the same colour at its start. */
export const disputeRowSx = (record: MerchantDispute): SxProps => {
  const state = dueState(record);
  if (!state) return {};
  const [tint, bar] =
    state === 'overdue' ? ['rgba(211, 47, 47, 0.08)', 'error.main'] : ['rgba(237, 108, 2, 0.08)', 'warning.main'];
  return { bgcolor: tint, '& td:first-of-type': { boxShadow: 'inset 4px 0 0 0', color: bar } };
};

/** The evidence due date, with "Overdue" or "Due soon" beside it while the dispute is open. */
function EvidenceDue({ record }: { record: MerchantDispute }) {
  const translate = useTranslate();
  const state = dueState(record);
  if (!record.evidenceDueBy) return <>{translate('resources.merchant-disputes.due.none')}</>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
      <DateField record={record} source="evidenceDueBy" showTime />
      {state ? (
        <Chip
          size="small"
          color={state === 'overdue' ? 'error' : 'warning'}
          label={translate(`resources.merchant-disputes.due.${state}`)}
        />
      ) : null}
    </Box>
  );
}

export const evidenceDue = () => (
  <FunctionField<MerchantDispute>
    key="evidenceDueBy"
    source="evidenceDueBy"
    sortBy="evidenceDueBy"
    label="resources.merchant-disputes.fields.evidenceDueBy"
    render={(record) => <EvidenceDue record={record} />}
  />
);
