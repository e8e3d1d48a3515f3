import type { ComponentType, ReactElement } from 'react';
import { Box, Typography } from '@mui/material';
import {
  AutocompleteInput,
  CreateButton,
  ExportButton,
  FilterButton,
  FunctionField,
  ReferenceField,
  ReferenceInput,
  TextField,
  TopToolbar,
  usePermissions,
  useResourceDefinition,
  type AutocompleteInputProps,
} from 'react-admin';
import { canRead } from '../permissions';
import { typeLabel } from './choices';
import type { ContentResource } from './types';

/** Helpers shared by the learning resources (links, product grants, progress, comments, bookmarks, preferences). */

type User = { id: string; name: string | null; email: string };

const userName = (u: User) => u.name || u.email;
export const contentOption = (r: ContentResource) => `${r.fields?.title || 'Untitled'} (${typeLabel(r.type)})`;

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
  return (
    <ReferenceField source={source} reference="content-resources" link="show" label={label} emptyText="—">
      <FunctionField<ContentResource> render={contentOption} />
    </ReferenceField>
  );
}

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

/** A JSON object as formatted text. */
export function JsonField({ source, label }: { source: string; label?: string }) {
  return (
    <FunctionField
      source={source}
      label={label}
      render={(record: Record<string, unknown>) => {
        const value = source
          .split('.')
          .reduce<unknown>(
            (v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
            record,
          );
        if (value === null || value === undefined || (typeof value === 'object' && !Object.keys(value).length))
          return '—';
        return (
          <Typography component="pre" variant="body2" sx={{ m: 0, fontFamily: 'monospace', whiteSpace: 'pre-wrap' }}>
            {JSON.stringify(value, null, 2)}
          </Typography>
        );
      }}
    />
  );
}

/** A list's empty state: an icon, what is missing, and why it may be empty. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
}: {
  icon: ComponentType<{ sx?: object; 'aria-hidden'?: boolean }>;
  title: string;
  children: string;
  action?: ReactElement;
}) {
  return (
    <Box sx={{ textAlign: 'center', py: 8, px: 2, width: '100%' }}>
      <Icon sx={{ fontSize: 64, color: 'text.disabled' }} aria-hidden />
      <Typography variant="h6" component="p">
        {title}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: action ? 2 : 0 }}>
        {children}
      </Typography>
      {action}
    </Box>
  );
}

/** The Datagrid's message when filters match nothing. */
export function NoMatch({ children = 'Nothing matches these filters.' }: { children?: string }) {
  return (
    <Typography sx={{ p: 2 }} color="text.secondary">
      {children}
    </Typography>
  );
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
