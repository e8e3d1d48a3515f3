import type { Knex } from 'knex';

/**
 * An invoice may be written without its number and numbered as its transaction commits: a deferred constraint trigger
 * takes the next number of its kind and year from the counter row (as numbering.ts does in a statement) and writes it
 * on the row, the commit's last step. The counter row, which every numbering transaction queues on in commit order, is
 * then held only for the commit itself (its write-ahead log flush), never over a round trip to the application: a
 * fulfilment's invoice no longer caps how many fulfilments commit in a second. Numbers stay gapless and in commit order
 * (a rollback gives nothing back because nothing was taken), and no committed invoice is without one.
 *
 * Invoices are still never rewritten: the one change allowed is that numbering, once, of a row inserted without it.
 */

const NUMBERING = ['number', 'year', 'sequence'];

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`SET LOCAL lock_timeout = '5s'`);
  await knex.raw(`
    ALTER TABLE invoices ALTER COLUMN number DROP NOT NULL, ALTER COLUMN year DROP NOT NULL,
      ALTER COLUMN sequence DROP NOT NULL;
    ALTER TABLE invoices ADD CONSTRAINT invoices_numbered_whole
      CHECK ((number IS NULL) = (year IS NULL) AND (number IS NULL) = (sequence IS NULL));

    CREATE OR REPLACE FUNCTION invoices_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' AND OLD.number IS NULL AND NEW.number IS NOT NULL
        AND to_jsonb(NEW) - '{${NUMBERING.join(',')}}'::text[] = to_jsonb(OLD) - '{${NUMBERING.join(',')}}'::text[] THEN
        RETURN NEW;
      END IF;
      RAISE EXCEPTION 'invoices are never rewritten: issue a corrected invoice or a credit note'
        USING ERRCODE = 'check_violation';
    END $$;

    -- The prefixes are numbering.ts's: '' for invoices, 'CN-' for credit notes.
    CREATE FUNCTION invoices_numbered_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE taken record;
    BEGIN
      INSERT INTO invoice_counters AS c (kind, year, last)
        VALUES (NEW.kind, extract(year from now() at time zone 'UTC')::int, 1)
        ON CONFLICT (kind, year) DO UPDATE SET last = c.last + 1
        RETURNING c.year, c.last INTO taken;
      UPDATE invoices SET year = taken.year, sequence = taken.last,
          number = CASE NEW.kind WHEN 'credit-note' THEN 'CN-' ELSE '' END || taken.year::text || '-'
            || lpad(taken.last::text, greatest(6, length(taken.last::text)), '0')
        WHERE id = NEW.id;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER invoices_numbered_at_commit AFTER INSERT ON invoices
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.number IS NULL)
      EXECUTE FUNCTION invoices_numbered_at_commit();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER invoices_numbered_at_commit ON invoices;
    DROP FUNCTION invoices_numbered_at_commit();
    CREATE OR REPLACE FUNCTION invoices_never_rewritten() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'invoices are never rewritten: issue a corrected invoice or a credit note'
      USING ERRCODE = 'check_violation'; END $$;
    ALTER TABLE invoices DROP CONSTRAINT invoices_numbered_whole;
    ALTER TABLE invoices ALTER COLUMN number SET NOT NULL, ALTER COLUMN year SET NOT NULL,
      ALTER COLUMN sequence SET NOT NULL;
  `);
}
