import { table } from '../db/base-model';

/** An internal note staff add on a person (and maybe one of their purchases); never shown to them. */
export class StaffNote extends table('staffNotes') {
  declare id: string;
  declare userId: string;
  declare purchaseId: string | null;
  declare authorId: string | null;
  declare authorEmail: string;
  declare body: string;
  declare createdAt: Date;
}
