import type { OutboxEmailRecord } from '@contract/mail/schemas';
import type { Wire } from '@contract/shared/wire';

export type { OutboxStatus } from '@contract/mail/schemas';

export type OutboxEmail = Wire<OutboxEmailRecord>;
