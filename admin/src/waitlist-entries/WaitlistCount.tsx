import { Link as MuiLink, Typography } from '@mui/material';
import { Labeled, Link, useCreatePath, useGetList, usePermissions, useRecordContext, useTranslate } from 'react-admin';
import { canRead } from '../permissions';

/** On a product's page: how many people wait for it, and a link to them in the Waitlists list. */
/** `label={false}`: it labels itself (and shows nothing to those who may not read waitlists). */
export function WaitlistCount(_props: { label?: false }) {
  const product = useRecordContext<{ id: string }>();
  const { permissions } = usePermissions();
  const translate = useTranslate();
  const createPath = useCreatePath();
  const readable = canRead(permissions, 'waitlist-entries');
  const { total, isPending } = useGetList(
    'waitlist-entries',
    { filter: { productId: product?.id }, pagination: { page: 1, perPage: 1 } },
    { enabled: Boolean(product && readable) },
  );
  if (!product || !readable) return null;
  const filter = encodeURIComponent(JSON.stringify({ productId: product.id }));
  return (
    <Labeled label="resources.waitlist-entries.ofProduct">
      <Typography variant="body2" component="span" className="waitlist-count">
        {isPending
          ? '…'
          : total
            ? translate('resources.waitlist-entries.count', { smart_count: total })
            : translate('resources.waitlist-entries.countNone')}
        {total ? (
          <>
            {' · '}
            <MuiLink
              component={Link}
              to={`${createPath({ resource: 'waitlist-entries', type: 'list' })}?filter=${filter}`}
            >
              {translate('resources.waitlist-entries.showList')}
            </MuiLink>
          </>
        ) : null}
      </Typography>
    </Labeled>
  );
}
