import { useState } from 'react';
import { Checkbox, FormControl, FormControlLabel, FormLabel, Radio, RadioGroup } from '@mui/material';
import { useTranslate } from 'react-admin';
import { FormThenConfirmDialog } from '../common/ActionDialog';
import { formatMoney } from '../common/money';
import { useConsoleAction } from '../common/useConsoleAction';
import {
  RefundReasonSelect,
  StaffReasonField,
  staffReasonProblem,
  type StaffReasonMessages,
} from '../common/StaffReasonFields';
import type { StaffRefundReason } from '../../../api/src/shared/refund-reasons';
import type { PeriodRecord, SubscriptionRecord } from './looks';

const REASON: StaffReasonMessages = {
  tooShort: 'resources.subscriptions.reason.tooShort',
  tooLong: 'resources.subscriptions.reason.tooLong',
};

/** Ends a subscription now or at its period's end, with a reason kept in the audit log. */
export function CancelDialog({ subscription, onClose }: { subscription: SubscriptionRecord; onClose(): void }) {
  const translate = useTranslate();
  const [when, setWhen] = useState<'period-end' | 'now'>('period-end');
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const cancel = useConsoleAction(
    (dataProvider) => dataProvider.cancelSubscription(subscription.id, { when, reason: reason.trim() }),
    () => `resources.subscriptions.cancel.done.${when}`,
  );
  return (
    <FormThenConfirmDialog
      formTitle="resources.subscriptions.cancel.title"
      confirmTitle="resources.subscriptions.cancel.title"
      check={() => {
        const problem = staffReasonProblem(reason, REASON);
        setReasonError(problem);
        return !problem;
      }}
      continueColor="error"
      question={translate(`resources.subscriptions.cancel.question.${when}`)}
      busyLabel="resources.subscriptions.cancel.busy"
      confirmLabel="resources.subscriptions.cancel.confirm"
      mutation={cancel}
      failure="resources.subscriptions.cancel.failure"
      showFieldErrors={(errors) => {
        if (errors.reason) setReasonError(errors.reason);
        return Boolean(errors.reason);
      }}
      onClose={onClose}
    >
      <FormControl component="fieldset" margin="dense">
        <FormLabel component="legend">{translate('resources.subscriptions.cancel.when')}</FormLabel>
        <RadioGroup value={when} onChange={(event) => setWhen(event.target.value as 'period-end' | 'now')}>
          <FormControlLabel
            value="period-end"
            control={<Radio />}
            label={translate('resources.subscriptions.cancel.periodEnd')}
          />
          <FormControlLabel value="now" control={<Radio />} label={translate('resources.subscriptions.cancel.now')} />
        </RadioGroup>
      </FormControl>
      <StaffReasonField
        value={reason}
        onChange={(value) => {
          setReason(value);
          setReasonError(null);
        }}
        error={reasonError}
        label="resources.subscriptions.reason.label"
        helperText="resources.subscriptions.reason.help"
        required
      />
    </FormThenConfirmDialog>
  );
}

/**
 * Refunds one paid period's charge (what is left of it), with a reason; the subscription goes on unless "and end it
 * now" is ticked. A credit note is issued as for any refund.
 */
export function RefundPeriodDialog({ period, onClose }: { period: PeriodRecord; onClose(): void }) {
  const translate = useTranslate();
  const [reasonCode, setReasonCode] = useState<StaffRefundReason | ''>('');
  const [reason, setReason] = useState('');
  const [andCancel, setAndCancel] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  const left = formatMoney((period.amount ?? 0) - period.refundedAmount, period.currency ?? 'usd');
  const refund = useConsoleAction(
    (dataProvider) =>
      dataProvider.refundSubscriptionPeriod(period.id, {
        reasonCode: reasonCode as StaffRefundReason,
        reason: reason.trim() || undefined,
        cancel: andCancel,
      }),
    () => ({ message: 'resources.subscriptions.refund.done', messageArgs: { amount: left } }),
  );
  return (
    <FormThenConfirmDialog
      formTitle="resources.subscriptions.refund.title"
      confirmTitle="resources.subscriptions.refund.title"
      check={() => {
        const code = reasonCode ? null : 'resources.subscriptions.refund.chooseReason';
        const note = staffReasonProblem(reason, REASON, reasonCode === 'other');
        setCodeError(code);
        setReasonError(note);
        return !code && !note;
      }}
      question={translate(
        andCancel ? 'resources.subscriptions.refund.questionAndEnd' : 'resources.subscriptions.refund.question',
        { amount: left },
      )}
      busyLabel="resources.subscriptions.refund.busy"
      confirmLabel="resources.subscriptions.refund.confirm"
      mutation={refund}
      failure="resources.subscriptions.refund.failure"
      showFieldErrors={(errors) => {
        if (errors.reasonCode) setCodeError(errors.reasonCode);
        if (errors.reason) setReasonError(errors.reason);
        return Boolean(errors.reasonCode || errors.reason);
      }}
      onClose={onClose}
    >
      <RefundReasonSelect
        value={reasonCode}
        onChange={(code) => {
          setReasonCode(code);
          setCodeError(null);
        }}
        error={codeError}
        label="resources.subscriptions.refund.reasonCode"
        helperText={translate('resources.subscriptions.refund.left', { left })}
      />
      <StaffReasonField
        value={reason}
        onChange={(value) => {
          setReason(value);
          setReasonError(null);
        }}
        error={reasonError}
        label="resources.subscriptions.refund.note"
        helperText="resources.subscriptions.reason.help"
        required={reasonCode === 'other'}
      />
      <FormControlLabel
        control={<Checkbox checked={andCancel} onChange={(event) => setAndCancel(event.target.checked)} />}
        label={translate('resources.subscriptions.refund.andEnd')}
      />
    </FormThenConfirmDialog>
  );
}
