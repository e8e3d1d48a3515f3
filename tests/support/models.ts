// Every model in one place, for tests that work across domains (api/src imports each from its own domain).
export { Product, Price, ProductFaq, UpgradableProduct } from '../../api/src/catalog/models';
export { WorkshopReminder, WorkshopSession } from '../../api/src/catalog/workshops/models';
export { WaitlistEntry, WaitlistProduct } from '../../api/src/catalog/waitlist/models';
export {
  Checkout,
  Coupon,
  PaymentPlan,
  Purchase,
  PurchaseUserTransfer,
  Subscription,
  SubscriptionPeriod,
  SubscriptionSeat,
  TeamSeatRevocation,
} from '../../api/src/commerce/models';
export {
  MerchantAccount,
  MerchantCharge,
  MerchantCoupon,
  MerchantCustomer,
  MerchantDispute,
  MerchantEvent,
  MerchantPrice,
  MerchantRefund,
  MerchantProduct,
  MerchantSession,
  TestProviderRefund,
  TestProviderSession,
  TestProviderSubscription,
  TestProviderSubscriptionInvoice,
  TestProviderPayout,
  TestProviderBalanceTransaction,
} from '../../api/src/payments/models';
export {
  Account,
  DeviceAccessToken,
  DeviceClient,
  DeviceVerification,
  OAuthState,
  RateLimitHit,
  Session,
  SignIn,
  User,
  UserPrefs,
  VerificationToken,
  ViewAsSession,
} from '../../api/src/identity/models';
export { OutboxEmail } from '../../api/src/mail/models';
export { SchoolSettingsRow } from '../../api/src/school/models';
export {
  Bookmark,
  Comment,
  CommentReplyEmail,
  ReleaseEmail,
  ContentResource,
  ContentResourceResource,
  LessonAttachment,
  LessonFileRemoval,
  ReleaseSweepMark,
  LessonProgress,
  QuizAttempt,
  ProductContentResource,
} from '../../api/src/learning/models';
export { ProductRevenueSplit, SplitLine } from '../../api/src/finance/models';
export { Payout, PayoutLine, PayoutRecipient, PayoutRun } from '../../api/src/finance/payouts/models';
export { MonthClose } from '../../api/src/finance/month-close/models';
export {
  ProcessorBalanceTransaction,
  ProcessorPayout,
  ReconciliationMatch,
} from '../../api/src/finance/reconciliation/models';
export { AuditLog } from '../../api/src/audit/models';
export { LessonVideo, VideoCaption, VideoPosition } from '../../api/src/video/models';
export { SigningKey } from '../../api/src/video/playback-key';
export { Certificate } from '../../api/src/certificates/models';
export { SavedFilter, StaffNote } from '../../api/src/admin/models';
export { PricingScenario } from '../../api/src/pricing-simulator/models';
export { TaxRate, TaxRegistration } from '../../api/src/tax/models';
export { BillingProfile, Invoice, InvoiceCounter } from '../../api/src/invoices/models';
