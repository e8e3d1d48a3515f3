import type { Knex } from 'knex';

/**
 * Search over products, courses and lessons (docs/domain.md §24), in PostgreSQL alone. Each searchable row has a
 * document: its title weighted A, its summary B, its body's text C, in an English configuration that drops accents
 * before stemming ("café" finds "cafe"). Triggers keep the documents as content and products change, so nothing
 * else writes them. Titles also get a trigram index (through an immutable unaccent wrapper, as an index needs) for
 * typos: "typscript" finds "TypeScript". What a reader may see of each is decided when searching, not here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`
    CREATE EXTENSION IF NOT EXISTS unaccent;
    CREATE EXTENSION IF NOT EXISTS pg_trgm;

    -- unaccent(text) is only STABLE (its dictionary is looked up by name); naming the dictionary makes it immutable.
    CREATE FUNCTION search_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
      AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;

    CREATE TEXT SEARCH CONFIGURATION search_english (COPY = pg_catalog.english);
    ALTER TEXT SEARCH CONFIGURATION search_english
      ALTER MAPPING FOR hword, hword_part, word WITH public.unaccent, english_stem;

    -- A rich-text body as words: tags become spaces, the entities the sanitiser writes become their characters.
    CREATE FUNCTION search_plain_text(html text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $$ SELECT replace(replace(replace(replace(replace(replace(
                     regexp_replace(coalesce(html, ''), '<[^>]*>', ' ', 'g'),
                     '&nbsp;', ' '), '&lt;', '<'), '&gt;', '>'), '&quot;', '"'), '&#39;', ''''), '&amp;', '&') $$;

    CREATE FUNCTION search_document(title text, summary text, body text) RETURNS tsvector LANGUAGE sql IMMUTABLE
      PARALLEL SAFE
      AS $$ SELECT setweight(to_tsvector('search_english'::regconfig, coalesce(title, '')), 'A')
                || setweight(to_tsvector('search_english'::regconfig, coalesce(summary, '')), 'B')
                || setweight(to_tsvector('search_english'::regconfig, search_plain_text(body)), 'C') $$;

    CREATE TABLE search_documents (
      id uuid PRIMARY KEY,
      kind text NOT NULL CONSTRAINT search_documents_kind_known CHECK (kind IN ('product', 'course', 'lesson')),
      content_id uuid REFERENCES content_resources (id) ON DELETE CASCADE,
      product_id uuid REFERENCES products (id) ON DELETE CASCADE,
      title text NOT NULL,
      document tsvector NOT NULL,
      CONSTRAINT search_documents_one_source CHECK ((content_id IS NULL) <> (product_id IS NULL))
    );
    CREATE INDEX search_documents_document ON search_documents USING gin (document);
    CREATE INDEX search_documents_title_trigrams ON search_documents
      USING gin (search_unaccent(lower(title)) gin_trgm_ops);
    CREATE INDEX search_documents_content_id ON search_documents (content_id);
    CREATE INDEX search_documents_product_id ON search_documents (product_id);

    CREATE FUNCTION search_documents_keep_content() RETURNS trigger LANGUAGE plpgsql AS $$
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
    CREATE TRIGGER search_documents_new_content AFTER INSERT ON content_resources
      FOR EACH ROW EXECUTE FUNCTION search_documents_keep_content();
    CREATE TRIGGER search_documents_changed_content AFTER UPDATE OF type, fields, deleted_at ON content_resources
      FOR EACH ROW WHEN (OLD.type IS DISTINCT FROM NEW.type OR OLD.fields IS DISTINCT FROM NEW.fields
                         OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
      EXECUTE FUNCTION search_documents_keep_content();

    CREATE FUNCTION search_documents_keep_product() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_documents (id, kind, product_id, title, document)
      VALUES (NEW.id, 'product', NEW.id, NEW.name, search_document(NEW.name, NEW.description, NULL))
      ON CONFLICT (id) DO UPDATE SET title = excluded.title, document = excluded.document;
      RETURN NULL;
    END $$;
    CREATE TRIGGER search_documents_new_product AFTER INSERT ON products
      FOR EACH ROW EXECUTE FUNCTION search_documents_keep_product();
    CREATE TRIGGER search_documents_changed_product AFTER UPDATE OF name, description ON products
      FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.description IS DISTINCT FROM NEW.description)
      EXECUTE FUNCTION search_documents_keep_product();

    INSERT INTO search_documents (id, kind, content_id, title, document)
    SELECT id, type, id, coalesce(fields->>'title', ''),
           search_document(fields->>'title', fields->>'description', fields->>'body')
      FROM content_resources WHERE type IN ('course', 'lesson') AND deleted_at IS NULL;
    INSERT INTO search_documents (id, kind, product_id, title, document)
    SELECT id, 'product', id, name, search_document(name, description, NULL) FROM products;
  `);
}

export async function down(knex: Knex): Promise<void> {
  // The extensions stay: other features may use them.
  await knex.raw(`
    DROP TRIGGER search_documents_new_product ON products;
    DROP TRIGGER search_documents_changed_product ON products;
    DROP TRIGGER search_documents_new_content ON content_resources;
    DROP TRIGGER search_documents_changed_content ON content_resources;
    DROP FUNCTION search_documents_keep_product();
    DROP FUNCTION search_documents_keep_content();
    DROP TABLE search_documents;
    DROP FUNCTION search_document(text, text, text);
    DROP FUNCTION search_plain_text(text);
    DROP TEXT SEARCH CONFIGURATION search_english;
    DROP FUNCTION search_unaccent(text);
  `);
}
