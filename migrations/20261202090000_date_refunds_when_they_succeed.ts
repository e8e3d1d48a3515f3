import type { Knex } from 'knex';

/**
 * A pending refund is dated when it succeeds (docs/domain.md §21): its ledger lines and credit note are written in
 * the transaction that moves it to succeeded, so the refund takes that transaction's instant too, and carries
 * `belongs_to_month` only when that instant falls in a closed month (then all three are booked on the open month's
 * first instant, marked alike). Dated by its request instead, a refund asked for in a closed month and succeeding in
 * the open one was marked for the closed month while its ledger lines and credit note were not.
 */

const datedWhenSucceeded = `
  CREATE OR REPLACE FUNCTION merchant_refunds_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE open_from timestamptz;
  BEGIN
    IF TG_OP = 'UPDATE' THEN
      IF NEW.status IS DISTINCT FROM 'succeeded' OR OLD.status IS NOT DISTINCT FROM 'succeeded' THEN RETURN NEW; END IF;
      NEW.created_at := now();
      NEW.belongs_to_month := NULL;
    END IF;
    open_from := finance_open_from();
    IF open_from IS NOT NULL AND NEW.created_at < open_from THEN
      NEW.belongs_to_month := coalesce(NEW.belongs_to_month, to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM'));
      NEW.created_at := open_from;
    END IF;
    RETURN NEW;
  END $$;`;

/** The function as migrations/20261202050000_create_month_closes.ts wrote it. */
const datedWhenAsked = `
  CREATE OR REPLACE FUNCTION merchant_refunds_in_open_month() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE open_from timestamptz := finance_open_from();
  BEGIN
    IF open_from IS NULL THEN RETURN NEW; END IF;
    IF TG_OP = 'INSERT' THEN
      IF NEW.created_at < open_from THEN
        NEW.belongs_to_month := coalesce(NEW.belongs_to_month, to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM'));
        NEW.created_at := open_from;
      END IF;
    END IF;
    IF TG_OP = 'UPDATE' AND NEW.status = 'succeeded' AND OLD.status IS DISTINCT FROM 'succeeded' THEN
      IF NEW.created_at < open_from THEN
        NEW.belongs_to_month := coalesce(NEW.belongs_to_month, to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM'));
        NEW.created_at := open_from;
      END IF;
    END IF;
    RETURN NEW;
  END $$;`;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(datedWhenSucceeded);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(datedWhenAsked);
}
