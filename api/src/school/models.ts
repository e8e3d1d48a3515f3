import { table } from '../db/base-model';

/** The school's settings: one row (id 1), see settings.ts. */
export class SchoolSettingsRow extends table('schoolSettings') {
  declare id: number;
  declare name: string;
  declare legalName: string;
  declare address: string;
  declare supportEmail: string | null;
  declare logoKey: string | null;
  declare accentColor: string;
  declare termsHtml: string;
  declare privacyHtml: string;
  declare updatedAt: Date;
}
