import CardGiftcardOutlinedIcon from '@mui/icons-material/CardGiftcardOutlined';
import {
  AutocompleteInput,
  CreateButton,
  Datagrid,
  DateField,
  List,
  NumberField,
  ReferenceInput,
  usePermissions,
} from 'react-admin';
import { canRead } from '../permissions';
import {
  ContentRefField,
  ContentReferenceInput,
  EmptyState,
  NoMatch,
  LearningListActions,
} from '../content-resources/shared';
import { ProductRefField } from './ProductRefField';

function productFilters(mayReadProducts: boolean) {
  return [
    ...(mayReadProducts
      ? [
          <ReferenceInput key="productId" source="productId" reference="products" alwaysOn>
            <AutocompleteInput label="Product" filterToQuery={(q: string) => ({ q })} sx={{ minWidth: 240 }} />
          </ReferenceInput>,
        ]
      : []),
    <ContentReferenceInput key="resourceId" source="resourceId" label="Content" alwaysOn />,
  ];
}

/** Which products grant which content: a purchase of the product opens the content and everything inside it. */
export function ProductContentList() {
  const { permissions } = usePermissions();
  return (
    <List
      actions={<LearningListActions />}
      filters={productFilters(canRead(permissions, 'products'))}
      sort={{ field: 'position', order: 'ASC' }}
      empty={
        <EmptyState
          icon={CardGiftcardOutlinedIcon}
          title="No product grants content yet"
          action={<CreateButton label="Grant content" />}
        >
          Add a course to a product so that buying the product opens the course.
        </EmptyState>
      }
    >
      <Datagrid rowClick="show" bulkActionButtons={false} empty={<NoMatch>No grant matches these filters.</NoMatch>}>
        <ProductRefField source="productId" />
        <ContentRefField source="resourceId" />
        <NumberField source="position" />
        <DateField source="createdAt" showTime />
      </Datagrid>
    </List>
  );
}
