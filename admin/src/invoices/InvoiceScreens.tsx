import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { Button, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { FunctionField, ReferenceField, TextField, TopToolbar, useRecordContext, useTranslate } from 'react-admin';
import { formatMoney } from '../../../api/src/shared/money';
import { ratePercent } from '../../../api/src/shared/tax-text';
import { date, money } from '../common/columns';
import { choiceFilter, searchFilter } from '../common/filters';
import { dateRangeFilters } from '../common/inputs';
import { RecordList } from '../common/RecordList';
import { RecordShow } from '../common/RecordShow';

/** An invoice or credit note as the API has it (api/src/invoices): issued once, never rewritten. */
export interface InvoiceRecord {
  id: string;
  kind: 'invoice' | 'credit-note';
  number: string;
  issuedAt: string;
  merchantChargeId: string;
  payerUserId: string;
  invoiceId: string | null;
  correctsId: string | null;
  seller: { name: string; address: string; taxId: string; country: string | null };
  buyer: { name: string; email: string; company: string; address: string; country: string | null; vatId: string };
  lines: { kind: string; description: string; quantity?: number; unitAmount?: number; amount?: number }[];
  subtotal: number;
  discount: number;
  taxable: number;
  taxName: string | null;
  taxRateBp: number | null;
  taxInclusive: boolean | null;
  taxReverseCharge: boolean;
  taxAmount: number;
  total: number;
  currency: string;
}

const KIND_CHOICES = [
  { id: 'invoice', name: 'resources.invoices.kinds.invoice' },
  { id: 'credit-note', name: 'resources.invoices.kinds.credit-note' },
];

const filters = [
  searchFilter('resources.invoices.search'),
  choiceFilter('kind', KIND_CHOICES),
  ...dateRangeFilters('issuedAt', 'Issued'),
];

/** Invoice or Credit note, in words (the purchase's Invoices tab shows it too). */
export function KindField(_props: { label?: string }) {
  const invoice = useRecordContext<InvoiceRecord>();
  const translate = useTranslate();
  return invoice ? <>{translate(`resources.invoices.kinds.${invoice.kind}`)}</> : null;
}

/** What was taxed, at what rate, inside the prices or added; a reverse charge said as one. */
function taxOf(invoice: InvoiceRecord): string {
  if (!invoice.taxName) return '—';
  if (invoice.taxReverseCharge) return `${invoice.taxName}: reverse charge`;
  return `${invoice.taxName} ${ratePercent(invoice.taxRateBp ?? 0)} ${invoice.taxInclusive ? '(included)' : '(added)'}: ${formatMoney(
    invoice.taxAmount,
    invoice.currency,
  )}`;
}

/** Invoices and credit notes, newest first: finance filters by kind, searches a number, exports the register. */
export function InvoiceList() {
  return (
    <RecordList filters={filters} icon={ReceiptLongIcon} sort={{ field: 'issuedAt', order: 'DESC' }}>
      <TextField source="number" sortable />
      <KindField label="resources.invoices.fields.kind" />
      {date('issuedAt', { sortable: true })}
      <FunctionField<InvoiceRecord>
        source="buyer"
        render={(i) => i.buyer.company || i.buyer.name || i.buyer.email}
        sortable={false}
      />
      {money('total', { sortable: true })}
      <FunctionField<InvoiceRecord> label="resources.invoices.fields.tax" render={taxOf} />
    </RecordList>
  );
}

/** The PDF as the buyer gets it, through the console's own route (a new tab). */
function PdfButton() {
  const invoice = useRecordContext<InvoiceRecord>();
  const translate = useTranslate();
  if (!invoice) return null;
  return (
    <Button
      size="small"
      startIcon={<PictureAsPdfIcon />}
      href={`/api/admin/invoices/${invoice.id}.pdf`}
      target="_blank"
      rel="noopener"
    >
      {translate('resources.invoices.pdf')}
    </Button>
  );
}

/** The lines as issued, each discount named, and the notes (a reverse charge's wording). */
function Lines(_props: { label?: string }) {
  const invoice = useRecordContext<InvoiceRecord>();
  const translate = useTranslate();
  if (!invoice) return null;
  const amounts = invoice.lines.filter((l) => l.kind !== 'note');
  return (
    <>
      <Table size="small" aria-label={translate('resources.invoices.fields.lines')} sx={{ width: 'auto' }}>
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.invoices.line.description')}</TableCell>
            <TableCell align="right">{translate('resources.invoices.line.quantity')}</TableCell>
            <TableCell align="right">{translate('resources.invoices.line.amount')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {amounts.map((line, i) => (
            <TableRow key={i}>
              <TableCell>{line.description}</TableCell>
              <TableCell align="right">{line.quantity}</TableCell>
              <TableCell align="right" sx={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatMoney(line.amount ?? 0, invoice.currency)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      {invoice.lines
        .filter((l) => l.kind === 'note')
        .map((note) => (
          <p key={note.description}>{note.description}</p>
        ))}
    </>
  );
}

function Party({ side }: { side: 'buyer' | 'seller'; label?: string }) {
  const invoice = useRecordContext<InvoiceRecord>();
  if (!invoice) return null;
  const party = invoice[side];
  const lines = [
    'company' in party ? party.company : '',
    party.name,
    party.address,
    party.country ?? '',
    'vatId' in party && party.vatId ? `VAT ID ${party.vatId}` : '',
    'taxId' in party && party.taxId ? `VAT ID ${party.taxId}` : '',
    'email' in party ? party.email : '',
  ].filter(Boolean);
  return <span style={{ whiteSpace: 'pre-line' }}>{lines.join('\n')}</span>;
}

export function InvoiceShow() {
  return (
    <RecordShow
      title={<FunctionField<InvoiceRecord> render={(i) => i.number} />}
      actions={
        <TopToolbar>
          <PdfButton />
        </TopToolbar>
      }
    >
      <TextField source="number" />
      <KindField label="resources.invoices.fields.kind" />
      {date('issuedAt')}
      <ReferenceField source="invoiceId" reference="invoices" link="show" emptyText="—" />
      <ReferenceField source="correctsId" reference="invoices" link="show" emptyText="—" />
      <ReferenceField source="payerUserId" reference="users" link="show" />
      <ReferenceField source="merchantChargeId" reference="merchant-charges" link="show" />
      <Party side="seller" label="resources.invoices.fields.seller" />
      <Party side="buyer" label="resources.invoices.fields.buyer" />
      <Lines label="resources.invoices.fields.lines" />
      {money('subtotal')}
      {money('discount')}
      {money('taxable')}
      <FunctionField<InvoiceRecord> label="resources.invoices.fields.tax" render={taxOf} />
      {money('total')}
      <TextField source="id" />
    </RecordShow>
  );
}
