import { AutocompleteInput, Create, ReferenceInput, SimpleForm, required, type RaRecord } from 'react-admin';
import { SaveAndDeleteToolbar } from '../common/SaveAndDeleteToolbar';
import { ContentReferenceInput, LinkEdit, PositionInput, contentRef } from '../content-resources/shared';
import { productRef } from './ProductRefField';

const toolbar = (
  <SaveAndDeleteToolbar
    label="Remove grant"
    confirmTitle="Stop granting this content?"
    confirmContent="Buyers of the product lose access to this content unless another product grants it."
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
      <PositionInput helperText="Order among the product's content." />
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
            label="Product"
            filterToQuery={(q: string) => ({ q })}
            validate={required()}
            sx={{ minWidth: 280 }}
          />
        </ReferenceInput>
        <ContentReferenceInput
          source="resourceId"
          label="Content"
          validate={required()}
          helperText="Usually a course: everything inside it comes with it."
        />
        <PositionInput />
      </SimpleForm>
    </Create>
  );
}
