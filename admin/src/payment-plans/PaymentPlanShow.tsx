import { useRecordContext, useTranslate } from 'react-admin';
import { text } from '../common/columns';
import { formatMoney } from '../common/money';
import { RecordShow } from '../common/RecordShow';
import type { PaymentPlan } from './choices';
import { paymentPlanColumns } from './PaymentPlanList';

function PaymentPlanTitle() {
  const plan = useRecordContext<PaymentPlan>();
  const translate = useTranslate();
  if (!plan) return <>{translate('resources.payment-plans.titleLoading')}</>;
  const amount = formatMoney(plan.instalmentAmount, plan.currency);
  return <>{translate('resources.payment-plans.title', { instalments: plan.instalments, amount })}</>;
}

export function PaymentPlanShow() {
  return (
    <RecordShow title={<PaymentPlanTitle />}>
      {paymentPlanColumns(true)}
      {text('id')}
    </RecordShow>
  );
}
