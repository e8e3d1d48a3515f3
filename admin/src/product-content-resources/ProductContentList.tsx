import CardGiftcardOutlinedIcon from '@mui/icons-material/CardGiftcardOutlined';
import { AutocompleteInput, CreateButton, ReferenceInput, usePermissions } from 'react-admin';
import { date, numeric } from '../common/columns';
import { canRead } from '../permissions';
import { ContentReferenceInput, LearningList, contentRef } from '../content-resources/shared';
import { productRef } from './ProductRefField';

function productFilters(mayReadProducts: boolean) {
  return [
    ...(mayReadProducts
      ? [
          <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
            <AutocompleteInput
              label="resources.product-content-resources.fields.productId"
              filterToQuery={(q: string) => ({ q })}
              sx={{ minWidth: 240 }}
            />
          </ReferenceInput>,
        ]
      : []),
    <ContentReferenceInput
      key="resourceId"
      source="resourceId"
      label="resources.product-content-resources.fields.resourceId"
      alwaysOn
    />,
  ];
}

/** A grant's columns; its page shows them too. */
export const grantColumns = [
  productRef('productId'),
  contentRef('resourceId', { sortable: true }),
  numeric('position'),
  date('createdAt'),
];

/** Which products grant which content: a purchase of the product opens the content and everything inside it. */
export function ProductContentList() {
  const { permissions } = usePermissions();
  return (
    <LearningList
      filters={productFilters(canRead(permissions, 'products'))}
      sort={{ field: 'position', order: 'ASC' }}
      icon={CardGiftcardOutlinedIcon}
      emptyAction={<CreateButton label="resources.products.grants.create" />}
    >
      {grantColumns}
    </LearningList>
  );
}
