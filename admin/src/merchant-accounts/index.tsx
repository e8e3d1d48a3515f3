import AccountBalanceIcon from '@mui/icons-material/AccountBalance';
import { Labeled, TextField } from 'react-admin';
import { MerchantStatusEdit } from '../common/MerchantRecord';
import { MerchantAccountList } from './MerchantAccountList';
import { MerchantAccountShow } from './MerchantAccountShow';

function MerchantAccountEdit() {
  return (
    <MerchantStatusEdit showAccount={false}>
      <Labeled>
        <TextField source="label" />
      </Labeled>
    </MerchantStatusEdit>
  );
}

export default {
  list: MerchantAccountList,
  show: MerchantAccountShow,
  edit: MerchantAccountEdit,
  icon: AccountBalanceIcon,
  recordRepresentation: (account: { label: string }) => account.label,
};
