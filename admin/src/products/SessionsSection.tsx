import { Box } from '@mui/material';
import { DeleteButton, EditButton, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { CreateRelatedButton } from '../common/CreateRelatedButton';
import { Rows, RelatedRows } from '../common/Rows';
import { section } from '../common/Section';
import { canWrite } from '../permissions';
import { sessionColumns } from '../workshop-sessions/SessionList';
import type { Product } from './choices';

/** A session's row under its workshop, with Edit and Delete for those who may write sessions. */
function SessionRows() {
  const { permissions } = usePermissions();
  const writable = canWrite(permissions, 'workshop-sessions');
  return (
    <Rows empty="resources.workshop-sessions.noneForProduct">
      {sessionColumns(false)}
      {writable ? <EditButton /> : null}
      {writable ? (
        <DeleteButton
          mutationMode="pessimistic"
          redirect={false}
          confirmTitle="resources.workshop-sessions.deleteTitle"
          confirmContent="resources.workshop-sessions.deleteContent"
        />
      ) : null}
    </Rows>
  );
}

/** The product's Sessions tab: a live workshop's schedule, added, edited and deleted here. */
export function SessionsSection(_props: { label?: false }) {
  const product = useRecordContext<Product>();
  const translate = useTranslate();
  if (!product) return null;
  if (product.productType !== 'live')
    return section(
      translate('resources.workshop-sessions.ofProduct'),
      null,
      null,
      translate('resources.workshop-sessions.onlyLive'),
    );
  return section(
    translate('resources.workshop-sessions.ofProduct'),
    <CreateRelatedButton
      resource="workshop-sessions"
      record={{ productId: product.id }}
      label="resources.workshop-sessions.add"
    />,
    // Seven columns are wider than a phone: the table scrolls sideways inside its box (which takes no width from its
    // content, so the page keeps the screen's), not the page.
    <Box sx={{ width: 0, minWidth: '100%', overflowX: 'auto' }}>
      <RelatedRows
        reference="workshop-sessions"
        target="productId"
        sort={{ field: 'startsAt', order: 'ASC' }}
        paginated
        rows={<SessionRows />}
      />
    </Box>,
    translate('resources.workshop-sessions.ofProductNote'),
  );
}
