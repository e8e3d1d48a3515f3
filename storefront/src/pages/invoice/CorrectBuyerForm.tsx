import { useId, useState, type FormEvent } from 'react';
import { FieldAlert } from '../../ActionFeedback';
import { isApiError } from '../../api/client';
import { correctInvoiceBuyer, type CorrectedInvoice, type InvoiceDocument } from '../../api/invoices';
import { countryName } from '../../format';
import { useAction } from '../../useAction';

type Field = 'name' | 'company' | 'address' | 'vatId';
const LABELS: Record<Field, string> = {
  name: 'Name',
  company: 'Company',
  address: 'Address',
  vatId: 'VAT ID',
};

/**
 * The payer corrects the billing details an invoice names (a company, its address, a VAT ID): a corrected invoice is
 * issued under a new number and this one stays as it was. The tax charged does not change: the form says so first.
 */
export function CorrectBuyerForm({
  invoice,
  corrected,
}: {
  invoice: InvoiceDocument;
  corrected: (answer: CorrectedInvoice) => void;
}) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<Record<Field, string>>({
    name: invoice.buyer.name,
    company: invoice.buyer.company,
    address: invoice.buyer.address,
    vatId: invoice.buyer.vatId,
  });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const { busy, error, run } = useAction((caught) => {
    const errors = isApiError(caught) ? (caught.body.errors ?? {}) : {};
    setFieldErrors(errors as Partial<Record<Field, string>>);
    return Object.keys(errors).length ? 'Please check the fields marked below.' : (caught as Error).message;
  });

  if (!open) {
    return (
      <p className="actions">
        <button type="button" className="button-quiet" onClick={() => setOpen(true)}>
          Correct billing details
        </button>
      </p>
    );
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    setFieldErrors({});
    await run(async () => {
      const answer = await correctInvoiceBuyer(invoice.id, {
        name: values.name.trim() || undefined,
        company: values.company,
        address: values.address,
        vatId: values.vatId,
      });
      setOpen(false);
      corrected(answer);
    });
  }

  const input = (field: Field, props: { autoComplete: string; multiline?: boolean }) => {
    const fieldId = `${id}-${field}`;
    const fieldError = fieldErrors[field];
    const shared = {
      id: fieldId,
      value: values[field],
      autoComplete: props.autoComplete,
      'aria-invalid': fieldError ? true : undefined,
      'aria-describedby': fieldError ? `${fieldId}-error` : undefined,
    };
    return (
      <div className="field">
        <label htmlFor={fieldId}>{LABELS[field]}</label>
        {props.multiline ? (
          <textarea {...shared} rows={3} onChange={(event) => setValues({ ...values, [field]: event.target.value })} />
        ) : (
          <input {...shared} type="text" onChange={(event) => setValues({ ...values, [field]: event.target.value })} />
        )}
        <FieldAlert id={`${fieldId}-error`} error={fieldError ? `${LABELS[field]} ${fieldError}.` : null} />
      </div>
    );
  };

  return (
    <form className="invoice-correct" onSubmit={save} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Correct billing details</h2>
      <p id={`${id}-hint`} className="hint">
        A corrected invoice is issued under a new number; this one stays as it was issued. The tax charged does not
        change: a VAT ID added after paying does not refund VAT (contact support if it should).
        {invoice.buyer.country && ` The billing country stays ${countryName(invoice.buyer.country)}.`}
      </p>
      {input('name', { autoComplete: 'name' })}
      {input('company', { autoComplete: 'organization' })}
      {input('address', { autoComplete: 'street-address', multiline: true })}
      {input('vatId', { autoComplete: 'off' })}
      <FieldAlert id={`${id}-error`} error={error} />
      <div className="actions">
        <button type="submit" aria-disabled={busy || undefined}>
          {busy ? 'Issuing…' : 'Issue a corrected invoice'}
        </button>
        <button type="button" className="button-quiet" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
