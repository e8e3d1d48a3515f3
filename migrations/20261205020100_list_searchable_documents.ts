import type { Knex } from 'knex';

/**
 * Search reads its documents alone (docs/domain.md §24): each keeps its slug and whether learners may find it at all
 * (`listed`: an active product; a course or lesson published and public), and its title folded for trigrams once
 * (`title_key`, through the immutable unaccent wrapper), so a search that matches every lesson reads no content row
 * and unaccents no title per row. Both GIN indexes cover only listed documents.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    ALTER TABLE search_documents
      ADD COLUMN slug text,
      ADD COLUMN listed boolean NOT NULL DEFAULT false,
      ADD COLUMN title_key text GENERATED ALWAYS AS (search_unaccent(lower(title))) STORED;

    UPDATE search_documents d
       SET slug = r.fields->>'slug',
           listed = r.deleted_at IS NULL AND r.fields->>'state' = 'published'
                    AND coalesce(r.fields->>'visibility', 'public') = 'public'
      FROM content_resources r WHERE r.id = d.content_id;
    UPDATE search_documents d SET slug = p.slug, listed = p.status = 'active'
      FROM products p WHERE p.id = d.product_id;

    DROP INDEX search_documents_document;
    DROP INDEX search_documents_title_trigrams;
    CREATE INDEX search_documents_document ON search_documents USING gin (document) WHERE listed;
    CREATE INDEX search_documents_title_trigrams ON search_documents USING gin (title_key gin_trgm_ops) WHERE listed;

    CREATE OR REPLACE FUNCTION search_documents_keep_content() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.type IN ('course', 'lesson') AND NEW.deleted_at IS NULL THEN
        INSERT INTO search_documents (id, kind, content_id, title, document, slug, listed)
        VALUES (NEW.id, NEW.type, NEW.id, coalesce(NEW.fields->>'title', ''),
                search_document(NEW.fields->>'title', NEW.fields->>'description', NEW.fields->>'body'),
                NEW.fields->>'slug',
                NEW.fields->>'state' = 'published' AND coalesce(NEW.fields->>'visibility', 'public') = 'public')
        ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, title = excluded.title, document = excluded.document,
                                       slug = excluded.slug, listed = excluded.listed;
      ELSE
        DELETE FROM search_documents WHERE id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;

    CREATE OR REPLACE FUNCTION search_documents_keep_product() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_documents (id, kind, product_id, title, document, slug, listed)
      VALUES (NEW.id, 'product', NEW.id, NEW.name, search_document(NEW.name, NEW.description, NULL), NEW.slug,
              NEW.status = 'active')
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, document = excluded.document, slug = excluded.slug,
                                     listed = excluded.listed;
      RETURN NULL;
    END $$;
    DROP TRIGGER search_documents_changed_product ON products;
    CREATE TRIGGER search_documents_changed_product AFTER UPDATE OF name, description, slug, status ON products
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description
                         OR OLD.slug IS DISTINCT FROM NEW.slug OR OLD.status IS DISTINCT FROM NEW.status)
      EXECUTE FUNCTION search_documents_keep_product();
  `);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`
    DROP TRIGGER search_documents_changed_product ON products;
    CREATE TRIGGER search_documents_changed_product AFTER UPDATE OF name, description ON products
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description)
      EXECUTE FUNCTION search_documents_keep_product();
    CREATE OR REPLACE FUNCTION search_documents_keep_product() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_documents (id, kind, product_id, title, document)
      VALUES (NEW.id, 'product', NEW.id, NEW.name, search_document(NEW.name, NEW.description, NULL))
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, document = excluded.document;
      RETURN NULL;
    END $$;
    CREATE OR REPLACE FUNCTION search_documents_keep_content() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.type IN ('course', 'lesson') AND NEW.deleted_at IS NULL THEN
        INSERT INTO search_documents (id, kind, content_id, title, document)
        VALUES (NEW.id, NEW.type, NEW.id, coalesce(NEW.fields->>'title', ''),
                search_document(NEW.fields->>'title', NEW.fields->>'description', NEW.fields->>'body'))
        ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, title = excluded.title, document = excluded.document;
      ELSE
        DELETE FROM search_documents WHERE id = NEW.id;
      END IF;
      RETURN NULL;
    END $$;
    DROP INDEX search_documents_document;
    DROP INDEX search_documents_title_trigrams;
    ALTER TABLE search_documents DROP COLUMN title_key, DROP COLUMN listed, DROP COLUMN slug;
    CREATE INDEX search_documents_document ON search_documents USING gin (document);
    CREATE INDEX search_documents_title_trigrams ON search_documents
      USING gin (search_unaccent(lower(title)) gin_trgm_ops);
  `);
}
