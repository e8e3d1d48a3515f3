import { AutocompleteInput, Create, ReferenceInput, SimpleForm, required, type RaRecord } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { ContentReferenceInput, LinkEdit, PositionInput, contentRef } from '../content-resources/shared';
import { productRef } from './ProductRefField';

const toolbar = (
  <SaveAndDeleteToolbar
    label="resources.products.grants.remove"
    confirmTitle="resources.products.grants.removeTitle"
    confirmContent="resources.products.grants.removeContent"
  />
);

/** Only the position may change; product and content are fixed once granted (remove and grant again). */
export function ProductContentEdit() {
  return (
    <LinkEdit
      transform={(data: RaRecord) => ({ position: Number(data.position ?? 0) })}
      toolbar={toolbar}
      ends={[productRef('productId'), contentRef('resourceId')]}
    >
      <PositionInput helperText="resources.products.grants.positionHelp" />
    </LinkEdit>
  );
}

export function ProductContentCreate() {
  return (
    <Create
      redirect="show"
      transform={(data: RaRecord) => ({
        productId: data.productId,
        resourceId: data.resourceId,
        position: Number(data.position ?? 0),
      })}
    >
      <SimpleForm defaultValues={{ position: 0 }}>
        <ReferenceInput source="productId" reference="products">
          <AutocompleteInput
            label="resources.product-content-resources.fields.productId"
            filterToQuery={(q: string) => ({ q })}
            validate={required()}
            sx={{ minWidth: 280 }}
          />
        </ReferenceInput>
        <ContentReferenceInput
          source="resourceId"
          label="resources.product-content-resources.fields.resourceId"
          validate={required()}
          helperText="resources.products.grants.contentHelp"
        />
        <PositionInput />
      </SimpleForm>
    </Create>
  );
}
