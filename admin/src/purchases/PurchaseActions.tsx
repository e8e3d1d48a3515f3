import { useId, useState } from 'react';
import {
  Button,
  DialogContentText,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField as MuiTextField,
} from '@mui/material';
import BlockIcon from '@mui/icons-material/Block';
import CurrencyExchangeIcon from '@mui/icons-material/CurrencyExchange';
import { TopToolbar, useGetOne, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { FormThenConfirmDialog } from '../common/ActionDialog';
import { useConsoleAction } from '../common/useConsoleAction';
import { formatMoney, moneyWords, parseMajorUnits, tooManyDecimals } from '../common/money';
import { canBan, canRefund } from '../permissions';
import type { StaffRefundReason } from '../../../api/src/shared/refund-reasons';
import {
  RefundReasonSelect,
  StaffReasonField,
  staffReasonProblem,
  type StaffReasonMessages,
} from '../common/StaffReasonFields';
import type { MerchantCharge } from '../merchant-records/payments';
import type { User } from '../users/types';
import type { Purchase } from './choices';
import { MoveButton } from './MoveButton';
import { SendReceiptButton } from './SendReceiptButton';

/** What the refund dialog reads of the purchase's charge. */
type Charge = Pick<MerchantCharge, 'id' | 'amount' | 'refundAmount' | 'currency'>;

const REASON: StaffReasonMessages = {
  tooShort: 'resources.purchases.reason.tooShort',
  tooLong: 'resources.purchases.reason.tooLong',
};

interface RefundDialogProps {
  purchase: Purchase;
  charge: Charge;
  onClose(): void;
}

/**
 * Full or partial refund with a reason, then a confirmation that names the amount and the buyer. The amount is
 * typed in dollars and sent in cents. What is left to refund is the API's rule; the dialog knows the charge and its
 * refunds, so it refuses more before asking for a confirmation, and a refund made meanwhile still comes back as
 * the API's answer (a field error on the amount).
 */
function RefundDialog({ purchase, charge, onClose }: RefundDialogProps) {
  const translate = useTranslate();
  const kindId = useId();
  const { data: buyer } = useGetOne<User>('users', { id: purchase.userId });
  const [kind, setKind] = useState<'full' | 'partial'>('full');
  const [amountText, setAmountText] = useState('');
  const [reasonCode, setReasonCode] = useState<StaffRefundReason | ''>('');
  const [reason, setReason] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [reasonError, setReasonError] = useState<string | null>(null);
  // "Other" says nothing by itself: its note is required (the API's rule too); any other reason's note is optional.
  const noteRequired = reasonCode === 'other';

  const left = charge.amount - charge.refundAmount;
  const money = (cents: number) => formatMoney(cents, charge.currency);
  const words = moneyWords(translate, charge.currency);
  const partialCents = parseMajorUnits(amountText, charge.currency);
  const amount = kind === 'full' ? left : (partialCents ?? 0);
  const buyerName = buyer?.email ?? translate('resources.purchases.refund.theBuyer');
  const refund = useConsoleAction(
    (dataProvider) =>
      dataProvider.refundPurchase(purchase.id, {
        amount: kind === 'partial' ? amount : undefined,
        reasonCode: reasonCode as StaffRefundReason,
        reason: reason.trim() || undefined,
      }),
    (result) => ({
      message: result.pending
        ? 'resources.purchases.refund.pending'
        : result.full
          ? 'resources.purchases.refund.doneInFull'
          : 'resources.purchases.refund.done',
      messageArgs: { amount: money(result.amount), buyer: buyerName },
    }),
  );

  const check = () => {
    const codeIssue = reasonCode ? null : translate('resources.purchases.refund.chooseReason');
    const reasonIssue = staffReasonProblem(reason, REASON, noteRequired);
    let amountIssue: string | null = null;
    if (kind === 'partial') {
      if (partialCents === null) {
        // 12.345 (or ¥4000.5): an amount, but finer than the currency's minor unit, refused as such, not as no amount.
        const tooFine = tooManyDecimals(amountText, charge.currency);
        amountIssue = tooFine
          ? translate(tooFine.message, tooFine.args)
          : translate('resources.purchases.refund.noAmount', words);
      } else if (partialCents <= 0) amountIssue = translate('resources.purchases.refund.nothing');
      else if (partialCents > left)
        amountIssue = translate('resources.purchases.refund.tooMuch', { left: money(left) });
    }
    setCodeError(codeIssue);
    setReasonError(reasonIssue);
    setAmountError(amountIssue);
    return !codeIssue && !reasonIssue && !amountIssue;
  };

  return (
    <FormThenConfirmDialog
      formTitle={'resources.purchases.refund.formTitle'}
      confirmTitle={'resources.purchases.refund.confirmTitle'}
      check={check}
      question={translate('resources.purchases.refund.question', { amount: money(amount), buyer: buyerName })}
      busyLabel={'resources.purchases.refund.busy'}
      confirmLabel={'resources.purchases.refund.confirm'}
      mutation={refund}
      failure={'resources.purchases.refund.failure'}
      showFieldErrors={(errors) => {
        // The amount's error belongs to the amount input, which only a partial refund shows.
        if (errors.amount && kind === 'partial') setAmountError(errors.amount);
        if (errors.reasonCode) setCodeError(errors.reasonCode);
        if (errors.reason) setReasonError(errors.reason);
        return Boolean(errors.amount && kind === 'partial') || Boolean(errors.reasonCode) || Boolean(errors.reason);
      }}
      onClose={onClose}
    >
      <FormControl component="fieldset" margin="dense">
        <FormLabel component="legend" id={kindId}>
          {translate('resources.purchases.refund.howMuch')}
        </FormLabel>
        <RadioGroup
          aria-labelledby={kindId}
          value={kind}
          onChange={(event) => setKind(event.target.value as 'full' | 'partial')}
        >
          <FormControlLabel
            value="full"
            control={<Radio />}
            label={translate('resources.purchases.refund.full', { left: money(left) })}
          />
          <FormControlLabel
            value="partial"
            control={<Radio />}
            label={translate('resources.purchases.refund.partial')}
          />
        </RadioGroup>
      </FormControl>
      {kind === 'partial' ? (
        <MuiTextField
          label={translate('resources.purchases.refund.amount', words)}
          value={amountText}
          onChange={(event) => {
            setAmountText(event.target.value);
            setAmountError(null);
          }}
          required
          fullWidth
          margin="normal"
          autoFocus
          error={Boolean(amountError)}
          helperText={
            amountError ?? translate('resources.purchases.refund.amountHelp', { left: money(left), ...words })
          }
          slotProps={{ htmlInput: { inputMode: 'decimal', autoComplete: 'off' } }}
        />
      ) : null}
      <RefundReasonSelect
        value={reasonCode}
        onChange={(code) => {
          setReasonCode(code);
          setCodeError(null);
          setReasonError(null);
        }}
        error={codeError}
        label="resources.purchases.refund.reasonCode"
        helperText={translate('resources.purchases.refund.reasonCodeHelp')}
      />
      <StaffReasonField
        value={reason}
        onChange={(value) => {
          setReason(value);
          setReasonError(null);
        }}
        error={reasonError}
        label="resources.purchases.refund.note"
        required={noteRequired}
        helperText={noteRequired ? 'resources.purchases.refund.noteRequired' : 'resources.purchases.refund.reasonHelp'}
      />
    </FormThenConfirmDialog>
  );
}

/** Refund (support and admins): shown while the purchase has a charge with something left to refund. */
export function RefundButton() {
  const purchase = useRecordContext<Purchase>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const chargeId = purchase?.merchantChargeId ?? '';
  const allowed = canRefund(permissions) && Boolean(purchase?.merchantChargeId) && purchase?.status !== 'Refunded';
  const { data: charge } = useGetOne<Charge>('merchant-charges', { id: chargeId }, { enabled: allowed });
  if (!purchase || !allowed || !charge || charge.amount - charge.refundAmount <= 0) return null;
  return (
    <>
      <Button size="small" startIcon={<CurrencyExchangeIcon />} onClick={() => setOpen(true)}>
        {translate('resources.purchases.refund.button')}
      </Button>
      {open ? <RefundDialog purchase={purchase} charge={charge} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function BanDialog({ purchase, onClose }: { purchase: Purchase; onClose(): void }) {
  const translate = useTranslate();
  const { data: buyer } = useGetOne<User>('users', { id: purchase.userId });
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const buyerName = buyer?.email ?? translate('resources.purchases.refund.theBuyer');
  const ban = useConsoleAction(
    (dataProvider) => dataProvider.banPurchase(purchase.id, reason.trim()),
    () => ({ message: 'resources.purchases.ban.done', messageArgs: { buyer: buyerName } }),
  );

  const check = () => {
    const issue = staffReasonProblem(reason, REASON);
    setReasonError(issue);
    return !issue;
  };

  return (
    <FormThenConfirmDialog
      formTitle={'resources.purchases.ban.formTitle'}
      confirmTitle={'resources.purchases.ban.confirmTitle'}
      check={check}
      continueColor="error"
      question={translate('resources.purchases.ban.question', { buyer: buyerName })}
      busyLabel={'resources.purchases.ban.busy'}
      confirmLabel={'resources.purchases.ban.confirm'}
      mutation={ban}
      failure={'resources.purchases.ban.failure'}
      showFieldErrors={(errors) => {
        if (errors.reason) setReasonError(errors.reason);
        return Boolean(errors.reason);
      }}
      onClose={onClose}
    >
      <DialogContentText>{translate('resources.purchases.ban.intro')}</DialogContentText>
      <StaffReasonField
        value={reason}
        onChange={(value) => {
          setReason(value);
          setReasonError(null);
        }}
        error={reasonError}
        label="resources.purchases.reason.label"
        helperText="resources.purchases.ban.reasonHelp"
        required
      />
    </FormThenConfirmDialog>
  );
}

/** Ban (admins only): shown unless the purchase is already banned or refunded. */
export function BanButton() {
  const purchase = useRecordContext<Purchase>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!purchase || !canBan(permissions) || purchase.status === 'Banned' || purchase.status === 'Refunded') return null;
  return (
    <>
      <Button size="small" color="error" startIcon={<BlockIcon />} onClick={() => setOpen(true)}>
        {translate('resources.purchases.ban.button')}
      </Button>
      {open ? <BanDialog purchase={purchase} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * The purchase page's actions: its changes happen only through these (move, refund, ban), never by editing fields;
 * and its receipt sent again.
 */
export function PurchaseActions() {
  return (
    <TopToolbar>
      <SendReceiptButton />
      <MoveButton />
      <RefundButton />
      <BanButton />
    </TopToolbar>
  );
}
