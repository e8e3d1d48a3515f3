import { Box, Divider, Stack, Typography } from '@mui/material';
import {
  Datagrid,
  DateField,
  FunctionField,
  Labeled,
  ReferenceField,
  ReferenceManyField,
  Show,
  TextField,
  useCreatePath,
  useGetIdentity,
  usePermissions,
  useRecordContext,
  type RaRecord,
} from 'react-admin';
import { TierField } from '../content-resource-resources/TierField';
import { canRead } from '../permissions';
import { RichTextField } from '../rich-text';
import { hasBody, isContainer, typeLabel } from './choices';
import { StateField } from './StateField';
import { ContentOutline } from './tree/ContentOutline';
import type { ContentResource } from './types';

type User = { id: string; name: string | null; email: string };

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Box component="section" sx={{ width: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function Empty({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary" sx={{ py: 1 }}>
      {children}
    </Typography>
  );
}

function ContentTitle() {
  const record = useRecordContext<ContentResource>();
  return <span>{record ? `${typeLabel(record.type)}: ${record.fields?.title || 'Untitled'}` : ''}</span>;
}

function Details() {
  const record = useRecordContext<ContentResource>();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const createPath = useCreatePath();
  if (!record) return null;
  return (
    <Stack spacing={3} sx={{ p: 2 }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: 2 }}>
        <Labeled label="resources.content-resources.fields.fields.title">
          <TextField source="fields.title" />
        </Labeled>
        <Labeled label="resources.content-resources.fields.type">
          <FunctionField<ContentResource> render={(r) => typeLabel(r.type)} />
        </Labeled>
        <Labeled label="resources.content-resources.fields.fields.slug">
          <TextField source="fields.slug" emptyText="—" />
        </Labeled>
        <Labeled label="resources.content-resources.fields.fields.state">
          <StateField />
        </Labeled>
        <Labeled label="resources.content-resources.fields.fields.visibility">
          <TextField source="fields.visibility" emptyText="—" sx={{ textTransform: 'capitalize' }} />
        </Labeled>
        <Labeled label="resources.content-resources.fields.createdById">
          {canRead(permissions, 'users') ? (
            <ReferenceField source="createdById" reference="users" link="show" emptyText="—">
              <FunctionField<User> render={(u) => u.name || u.email} />
            </ReferenceField>
          ) : (
            <FunctionField<ContentResource>
              render={(r) => (r.createdById && r.createdById === identity?.id ? 'You' : (r.createdById ?? '—'))}
            />
          )}
        </Labeled>
        <Labeled label="resources.content-resources.fields.createdAt">
          <DateField source="createdAt" showTime />
        </Labeled>
        <Labeled label="resources.content-resources.fields.updatedAt">
          <DateField source="updatedAt" showTime />
        </Labeled>
        <Labeled label="resources.content-resources.fields.id">
          <TextField source="id" />
        </Labeled>
      </Box>
      <Labeled label="resources.content-resources.fields.fields.description">
        <TextField source="fields.description" emptyText="—" sx={{ whiteSpace: 'pre-wrap' }} />
      </Labeled>
      {(hasBody(record.type) || record.fields?.body) && (
        <>
          <Divider />
          <Section title="Body">
            <RichTextField source="fields.body" emptyText="No body yet." />
          </Section>
        </>
      )}
      {isContainer(record.type) && (
        <ContentOutline rootId={String(record.id)} hideWhenEmpty={record.type === 'lesson'} />
      )}
      <Divider />
      <Section title="Part of">
        <ReferenceManyField
          reference="content-resource-resources"
          target="resourceId"
          sort={{ field: 'position', order: 'ASC' }}
        >
          <Datagrid
            bulkActionButtons={false}
            rowClick={(_id, _resource, link: RaRecord) =>
              createPath({ resource: 'content-resources', id: link.resourceOfId as string, type: 'show' })
            }
            empty={<Empty>Not inside any other content.</Empty>}
          >
            <ReferenceField source="resourceOfId" reference="content-resources" link="show" label="Parent" />
            <TextField source="position" label="Position" />
            <TierField label="Tier" />
          </Datagrid>
        </ReferenceManyField>
      </Section>
      {canRead(permissions, 'product-content-resources') && (
        <Section title="Granted by products">
          <ReferenceManyField
            reference="product-content-resources"
            target="resourceId"
            sort={{ field: 'position', order: 'ASC' }}
          >
            <Datagrid
              bulkActionButtons={false}
              rowClick={false}
              empty={
                <Empty>No product grants this content directly (it may be inside content a product grants).</Empty>
              }
            >
              {canRead(permissions, 'products') ? (
                <ReferenceField source="productId" reference="products" link="show" label="Product" />
              ) : (
                <TextField source="productId" label="Product" />
              )}
              <TextField source="position" label="Position" />
            </Datagrid>
          </ReferenceManyField>
        </Section>
      )}
    </Stack>
  );
}

export function ContentResourceShow() {
  return (
    <Show title={<ContentTitle />}>
      <Details />
    </Show>
  );
}
