// Every model in one place, for code that works across domains (the admin layer, tests).
export { Product, Price, ProductFaq, UpgradableProduct } from '../catalog/models';
export { WorkshopReminder, WorkshopSession } from '../catalog/workshops/models';
export { WaitlistEntry, WaitlistProduct } from '../catalog/waitlist/models';
export { Checkout, Coupon, Purchase, PurchaseUserTransfer, TeamSeatRevocation } from '../commerce/models';
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
} from '../payments/models';
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
} from '../identity/models';
export { OutboxEmail } from '../mail/models';
export {
  Bookmark,
  Comment,
  ContentResource,
  ContentResourceResource,
  LessonProgress,
  ProductContentResource,
} from '../learning/models';
export { ProductRevenueSplit, SplitLine } from '../finance/models';
export { AuditLog } from '../audit/models';
export { LessonVideo, VideoCaption, VideoPosition } from '../video/models';
export { SigningKey } from '../video/playback-key';
export { Certificate } from '../certificates/models';
export { SavedFilter, StaffNote } from '../admin/models';
export { PricingScenario } from '../pricing-simulator/models';
