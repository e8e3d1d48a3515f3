import type { ComponentProps } from 'react';
import { AutocompleteInput, ReferenceInput, SearchInput, SelectInput, useTranslate } from 'react-admin';

/** The free-text filter, with a placeholder that says what it searches (a translation key). */
function SearchFilter({ placeholder, ...props }: ComponentProps<typeof SearchInput> & { placeholder: string }) {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate(placeholder)} />;
}

export const searchFilter = (placeholder: string) => (
  <SearchFilter key="q" source="q" alwaysOn placeholder={placeholder} />
);

interface ReferenceFilterOptions {
  alwaysOn?: boolean;
  /** A short list (a handful of accounts) is a select; a long one is searched as you type. */
  select?: boolean;
}

/** A filter on a reference, labelled like the field it filters (`resources.<name>.fields.<source>`). */
export const referenceFilter = (
  source: string,
  reference: string,
  { alwaysOn, select }: ReferenceFilterOptions = {},
) => (
  <ReferenceInput key={source} source={source} reference={reference} alwaysOn={alwaysOn}>
    {select ? <SelectInput /> : <AutocompleteInput />}
  </ReferenceInput>
);

/** A filter on an enum (a status, a type), labelled like the field it filters. */
export const choiceFilter = (source: string, choices: { id: string; name: string }[], alwaysOn = true) => (
  <SelectInput key={source} source={source} choices={choices} alwaysOn={alwaysOn} />
);
