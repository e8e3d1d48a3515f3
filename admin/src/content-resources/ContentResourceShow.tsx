import { Box, Divider, Stack, Typography } from '@mui/material';
import {
  DateField,
  EditButton,
  FunctionField,
  Labeled,
  ReferenceField,
  Show,
  TextField,
  TopToolbar,
  useCreatePath,
  useGetIdentity,
  usePermissions,
  useRecordContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { RelatedRows } from '../common/Rows';
import { TierField } from '../content-resource-resources/TierField';
import { ProductRefField } from '../product-content-resources/ProductRefField';
import { canRead } from '../permissions';
import { RichTextField } from '../rich-text';
import { hasBody, isContainer, typeLabel } from './choices';
import { TypeField } from './TypeField';
import { StateField } from './StateField';
import { ContentOutline } from './tree/ContentOutline';
import { LessonKindShow } from './lesson-kinds';
import { useMayEditContent } from './authorship';
import type { UserName } from '../users/types';
import type { ContentResource } from './types';

const BY_POSITION = { field: 'position', order: 'ASC' } as const;

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  const translate = useTranslate();
  return (
    <Box component="section" sx={{ width: '100%' }}>
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        {translate(title)}
      </Typography>
      {children}
    </Box>
  );
}

function ContentTitle() {
  const record = useRecordContext<ContentResource>();
  const translate = useTranslate();
  if (!record) return <span />;
  const title = record.fields?.title || translate('console.common.untitled');
  return <span>{translate('console.content.showTitle', { type: typeLabel(translate, record.type), title })}</span>;
}

function Details() {
  const record = useRecordContext<ContentResource>();
  const { permissions } = usePermissions();
  const { identity } = useGetIdentity();
  const createPath = useCreatePath();
  const translate = useTranslate();
  const mayEdit = useMayEditContent(record);
  if (!record) return null;
  return (
    <Stack spacing={3} sx={{ p: 2 }}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, minmax(0, 1fr))' }, gap: 2 }}>
        <Labeled label="resources.content-resources.fields.fields.title">
          <TextField source="fields.title" />
        </Labeled>
        <Labeled label="resources.content-resources.fields.type">
          <TypeField />
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
              <FunctionField<UserName> render={(u) => u.name || u.email} />
            </ReferenceField>
          ) : (
            <FunctionField<ContentResource>
              render={(r) =>
                r.createdById && r.createdById === identity?.id
                  ? translate('console.common.you')
                  : (r.createdById ?? '—')
              }
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
          <Section title="resources.content-resources.fields.fields.body">
            {record.bodyWithheld ? (
              <Typography variant="body2" color="text.secondary">
                {translate('console.content.bodyWithheld')}
              </Typography>
            ) : (
              <RichTextField source="fields.body" emptyText="console.content.noBody" />
            )}
          </Section>
        </>
      )}
      {record.type === 'lesson' && <LessonKindShow />}
      {isContainer(record.type) && (
        <ContentOutline rootId={String(record.id)} hideWhenEmpty={record.type === 'lesson'} mayEdit={mayEdit} />
      )}
      <Divider />
      <Section title="console.content.partOf">
        <RelatedRows
          reference="content-resource-resources"
          target="resourceId"
          sort={BY_POSITION}
          rowClick={(_id, _resource, link: RaRecord) =>
            createPath({ resource: 'content-resources', id: link.resourceOfId as string, type: 'show' })
          }
          empty="console.content.noParent"
        >
          <ReferenceField
            source="resourceOfId"
            reference="content-resources"
            link="show"
            label="resources.content-resource-resources.fields.resourceOfId"
          />
          <TextField source="position" label="resources.content-resource-resources.fields.position" />
          <TierField label="resources.content-resource-resources.fields.metadata.tier" />
        </RelatedRows>
      </Section>
      {canRead(permissions, 'product-content-resources') && (
        <Section title="console.content.grantedBy">
          <RelatedRows
            reference="product-content-resources"
            target="resourceId"
            sort={BY_POSITION}
            rowClick={false}
            empty="console.content.noGrant"
          >
            <ProductRefField source="productId" label="resources.product-content-resources.fields.productId" />
            <TextField source="position" label="resources.product-content-resources.fields.position" />
          </RelatedRows>
        </Section>
      )}
    </Stack>
  );
}

/** Edit only for those who may change it: a contributor sees no Edit on another author's content. */
function ContentShowActions() {
  const record = useRecordContext<ContentResource>();
  const mayEdit = useMayEditContent(record);
  const translate = useTranslate();
  return (
    <TopToolbar>
      {mayEdit ? (
        <EditButton />
      ) : (
        record && (
          <Typography variant="body2" color="text.secondary" sx={{ alignSelf: 'center' }}>
            {translate('console.content.notYours')}
          </Typography>
        )
      )}
    </TopToolbar>
  );
}

export function ContentResourceShow() {
  return (
    <Show title={<ContentTitle />} actions={<ContentShowActions />}>
      <Details />
    </Show>
  );
}
