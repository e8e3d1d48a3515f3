import type { ComponentProps, ReactElement, ReactNode } from 'react';
import {
  AutocompleteInput,
  Edit,
  FunctionField,
  Labeled,
  NumberInput,
  ReferenceField,
  ReferenceInput,
  SimpleForm,
  TextField,
  usePermissions,
  useTranslate,
  minValue,
  number,
  required,
  type AutocompleteInputProps,
  type EditProps,
} from 'react-admin';
import { RecordList } from '../common/RecordList';
import { canRead } from '../permissions';
import { typeLabel } from './choices';
import type { UserName } from '../users/types';
import type { ContentResource } from './types';

/** Helpers shared by the learning resources (links, product grants, progress, comments, bookmarks, preferences). */

const userName = (u: UserName) => u.name || u.email;

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
      <FunctionField<UserName> render={userName} />
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
  /** Without one, labelled like the field (`resources.<name>.fields.<source>`). */
  label?: string;
  alwaysOn?: boolean;
  validate?: AutocompleteInputProps['validate'];
  filter?: Record<string, unknown>;
  helperText?: string | false;
};

/** A reference picked by typing: the API searches (`q`) as you type. */
function SearchedReferenceInput({
  reference,
  optionText,
  sort,
  minWidth,
  source,
  label,
  validate,
  filter,
  helperText,
}: FilterInputProps & {
  reference: string;
  optionText: AutocompleteInputProps['optionText'];
  sort?: { field: string; order: 'ASC' | 'DESC' };
  minWidth: number;
}) {
  return (
    <ReferenceInput source={source} reference={reference} filter={filter} sort={sort}>
      <AutocompleteInput
        label={label}
        optionText={optionText}
        filterToQuery={(q: string) => ({ q })}
        validate={validate}
        helperText={helperText}
        sx={{ minWidth }}
      />
    </ReferenceInput>
  );
}

/** Picks content by searching its title or slug. */
export function ContentReferenceInput(props: FilterInputProps) {
  const contentOption = useContentOption();
  return (
    <SearchedReferenceInput
      {...props}
      reference="content-resources"
      optionText={contentOption}
      sort={{ field: 'title', order: 'ASC' }}
      minWidth={280}
    />
  );
}

/** Picks a user by searching email or name. */
export function UserReferenceInput(props: Omit<FilterInputProps, 'filter'>) {
  return <SearchedReferenceInput {...props} reference="users" optionText={userName} minWidth={240} />;
}

/** The two pickers above as list filters, labelled like the field they filter. */
export const userFilter = (source: string, alwaysOn = true) => (
  <UserReferenceInput key={source} source={source} alwaysOn={alwaysOn} />
);

export const contentFilter = (
  source: string,
  { alwaysOn = true, filter }: { alwaysOn?: boolean; filter?: object } = {},
) => (
  <ContentReferenceInput key={source} source={source} alwaysOn={alwaysOn} filter={filter as Record<string, unknown>} />
);

const validatePosition = [required(), number(), minValue(0)];

/** A link's or a grant's position among its siblings: a whole number from 0. */
export function PositionInput({ helperText }: { helperText?: string }) {
  return <NumberInput source="position" validate={validatePosition} step={1} helperText={helperText} />;
}

interface LinkEditProps {
  transform: EditProps['transform'];
  toolbar: ReactElement;
  /** The two records linked (parent and child, product and content): fixed once linked, shown for context. */
  ends: ReactElement[];
  /** What may change: the position, and more. */
  children: ReactNode;
}

/** The edit screen of a link between two records: the ends above what may change, saved when Save is pressed. */
export function LinkEdit({ transform, toolbar, ends, children }: LinkEditProps) {
  return (
    <Edit mutationMode="pessimistic" transform={transform} redirect="show">
      <SimpleForm toolbar={toolbar}>
        {ends.map((end) => (
          <Labeled key={end.key}>{end}</Labeled>
        ))}
        {children}
      </SimpleForm>
    </Edit>
  );
}

/** A list of learning records (see RecordList: filters, create, saved filters and the CSV export). */
export function LearningList(props: ComponentProps<typeof RecordList>) {
  return <RecordList {...props} />;
}
