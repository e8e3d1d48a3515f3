import {
  AutocompleteInput,
  CreateButton,
  ExportButton,
  FilterButton,
  FunctionField,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  TextField,
  TopToolbar,
  usePermissions,
  useResourceDefinition,
  useTranslate,
  minValue,
  number,
  required,
  type AutocompleteInputProps,
} from 'react-admin';
import { NoneFound } from '../common/EmptyState';
import { canRead } from '../permissions';
import { typeLabel } from './choices';
import type { ContentResource } from './types';

/** Helpers shared by the learning resources (links, product grants, progress, comments, bookmarks, preferences). */

type User = { id: string; name: string | null; email: string };

const userName = (u: User) => u.name || u.email;

/** Content as "Title (Type)", for pickers and links. */
export function useContentOption() {
  const translate = useTranslate();
  return (r: ContentResource) =>
    translate('console.content.option', {
      title: r.fields?.title || translate('console.common.untitled'),
      type: typeLabel(translate, r.type),
    });
}

/** A user, linked to their page; the raw id for roles that may not read users. */
export function UserRefField({ source, label }: { source: string; label?: string; sortable?: boolean }) {
  const { permissions } = usePermissions();
  if (!canRead(permissions, 'users')) return <TextField source={source} label={label} emptyText="—" />;
  return (
    <ReferenceField source={source} reference="users" link="show" label={label} emptyText="—">
      <FunctionField<User> render={userName} />
    </ReferenceField>
  );
}

/** Content, linked to its page, shown as "Title (Type)". */
export function ContentRefField({ source, label }: { source: string; label?: string; sortable?: boolean }) {
  const contentOption = useContentOption();
  return (
    <ReferenceField source={source} reference="content-resources" link="show" label={label} emptyText="—">
      <FunctionField<ContentResource> render={contentOption} />
    </ReferenceField>
  );
}

interface RefOptions {
  label?: string;
  /** Off by default, as for `ref` in common/columns.tsx: the API sorts on its own columns. */
  sortable?: boolean;
}

/** The two fields above as columns or show fields (keyed by source, like the helpers of common/columns.tsx). */
export const userRef = (source: string, { sortable = false, ...o }: RefOptions = {}) => (
  <UserRefField key={source} source={source} sortable={sortable} {...o} />
);

export const contentRef = (source: string, { sortable = false, ...o }: RefOptions = {}) => (
  <ContentRefField key={source} source={source} sortable={sortable} {...o} />
);

type FilterInputProps = {
  source: string;
  label: string;
  alwaysOn?: boolean;
  validate?: AutocompleteInputProps['validate'];
  filter?: Record<string, unknown>;
  helperText?: string | false;
};

/** Picks content by searching its title or slug. */
export function ContentReferenceInput({ source, label, validate, filter, helperText }: FilterInputProps) {
  const contentOption = useContentOption();
  return (
    <ReferenceInput
      source={source}
      reference="content-resources"
      filter={filter}
      sort={{ field: 'title', order: 'ASC' }}
    >
      <AutocompleteInput
        label={label}
        optionText={contentOption}
        filterToQuery={(q: string) => ({ q })}
        validate={validate}
        helperText={helperText}
        sx={{ minWidth: 280 }}
      />
    </ReferenceInput>
  );
}

/** Picks a user by searching email or name. */
export function UserReferenceInput({ source, label, validate, helperText }: FilterInputProps) {
  return (
    <ReferenceInput source={source} reference="users">
      <AutocompleteInput
        label={label}
        optionText={userName}
        filterToQuery={(q: string) => ({ q })}
        validate={validate}
        helperText={helperText}
        sx={{ minWidth: 240 }}
      />
    </ReferenceInput>
  );
}

const validatePosition = [required(), number(), minValue(0)];

/** A link's or a grant's position among its siblings: a whole number from 0. */
export function PositionInput({ helperText }: { helperText?: string }) {
  return <NumberInput source="position" validate={validatePosition} step={1} helperText={helperText} />;
}

export { EmptyState } from '../common/EmptyState';

/** The Datagrid's message when filters match nothing (a key or text). */
export function NoMatch({ children = 'console.common.noMatch' }: { children?: string }) {
  return <NoneFound>{children}</NoneFound>;
}

/** List actions: filters, create (when allowed) and an export capped at the API's 500 rows per request. */
export function LearningListActions() {
  const { hasCreate } = useResourceDefinition();
  return (
    <TopToolbar>
      <FilterButton />
      {hasCreate && <CreateButton />}
      <ExportButton maxResults={500} />
    </TopToolbar>
  );
}
