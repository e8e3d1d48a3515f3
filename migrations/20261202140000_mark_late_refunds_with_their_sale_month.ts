import type { Knex } from 'knex';

/**
 * A late refund belongs to the month of the sale it reverses (docs/domain.md §21): a refund, a dispute, their ledger
 * lines and the refund's credit note, dated in the open month, are marked with their charge's month when that month
 * is closed (the charge's own mark when it was itself booked late). All four read the same charge, so they agree;
 * a row dated in a closed month keeps its own month as before. A sale's lines and an invoice never read the charge.
 */

/** The closed month a charge's money belongs to, or NULL when its month is open. */
const closedMonthOfCharge = `
  CREATE FUNCTION finance_closed_month_of_charge(charge uuid, open_from timestamptz) RETURNS text
  LANGUAGE sql STABLE AS $$
    SELECT coalesce(ch.belongs_to_month, to_char(ch.created_at AT TIME ZONE 'UTC', 'YYYY-MM'))
      FROM merchant_charges ch
     WHERE ch.id = charge AND (ch.belongs_to_month IS NOT NULL OR ch.created_at < open_from)
  $$;`;

/** A row dated in a closed month is booked on the open month's first instant, marked with its own month. */
const moveIfClosed = (column: string) => `
    IF NEW.${column} < open_from THEN
      NEW.belongs_to_month := coalesce(NEW.belongs_to_month, to_char(NEW.${column} AT TIME ZONE 'UTC', 'YYYY-MM'));
      NEW.${column} := open_from;
    END IF;`;

/** Dated in the open month: marked with its charge's month when that one is closed. */
const markedByCharge = `
    NEW.belongs_to_month := coalesce(NEW.belongs_to_month, finance_closed_month_of_charge(NEW.merchant_charge_id, open_from));`;

const refunds = (byCharge: boolean) => `
  CREATE OR REPLACE FUNCTION merchant_refunds_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE open_from timestamptz;
  BEGIN
    IF TG_OP = 'UPDATE' THEN
      IF NEW.status IS DISTINCT FROM 'succeeded' OR OLD.status IS NOT DISTINCT FROM 'succeeded' THEN RETURN NEW; END IF;
      NEW.created_at := now();
      NEW.belongs_to_month := NULL;
    END IF;
    open_from := finance_open_from();
    IF open_from IS NULL THEN RETURN NEW; END IF;
    ${moveIfClosed('created_at')}${byCharge ? markedByCharge : ''}
    RETURN NEW;
  END $$;`;

const disputes = (byCharge: boolean) => `
  CREATE OR REPLACE FUNCTION merchant_disputes_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE open_from timestamptz := finance_open_from();
  BEGIN
    IF open_from IS NULL THEN RETURN NEW; END IF;
    IF TG_OP = 'INSERT' THEN${moveIfClosed('created_at')}${moveIfClosed('closed_at')}${byCharge ? markedByCharge : ''}
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.closed_at IS DISTINCT FROM OLD.closed_at THEN${moveIfClosed('closed_at')}${byCharge ? markedByCharge : ''}
    END IF;
    RETURN NEW;
  END $$;`;

// The refund's or dispute's lines; a sale's lines (fulfilment's) are left as they were.
const splitLines = (byCharge: boolean) => `
  CREATE OR REPLACE FUNCTION split_lines_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE open_from timestamptz := finance_open_from();
  BEGIN
    IF open_from IS NULL THEN RETURN NEW; END IF;
    IF TG_OP = 'INSERT' THEN${moveIfClosed('created_at')}${byCharge ? `\n    IF NEW.kind <> 'sale' THEN${markedByCharge}\n    END IF;` : ''}
    END IF;
    RETURN NEW;
  END $$;`;

// A credit note is a refund's; an invoice is its sale's, dated with it.
const invoices = (byCharge: boolean) => `
  CREATE OR REPLACE FUNCTION invoices_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE open_from timestamptz := finance_open_from();
  BEGIN
    IF open_from IS NULL THEN RETURN NEW; END IF;
    IF TG_OP = 'INSERT' THEN${moveIfClosed('supplied_at')}${moveIfClosed('issued_at')}${byCharge ? `\n    IF NEW.kind = 'credit-note' THEN${markedByCharge}\n    END IF;` : ''}
    END IF;
    RETURN NEW;
  END $$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(closedMonthOfCharge);
  for (const fn of [refunds, disputes, splitLines, invoices]) await knex.raw(fn(true));
}

export async function down(knex: Knex): Promise<void> {
  for (const fn of [refunds, disputes, splitLines, invoices]) await knex.raw(fn(false));
  await knex.raw('DROP FUNCTION finance_closed_month_of_charge(uuid, timestamptz)');
}
