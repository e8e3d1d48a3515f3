import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Price, Product } from '../../api/src/catalog/models';
import type { FaqItem, PriceRecord, ProductRecord } from '../../api/src/catalog/schemas';
import type { Coupon, Purchase, PurchaseUserTransfer } from '../../api/src/commerce/models';
import type { TeamPurchaseRecord, CouponRecord, PurchaseRecord, TransferRecord } from '../../api/src/commerce/schemas';
import type { ProductRevenueSplit } from '../../api/src/finance/models';
import type { RevenueSplitRecord } from '../../api/src/finance/schemas';
import type { GeneratedCoupon } from '../../api/src/admin/schemas/commerce';
import type { Account, User } from '../../api/src/identity/models';
import type { AccountRecord, UserRecord } from '../../api/src/identity/schemas';
import type { Comment, ContentResource, ContentResourceResource } from '../../api/src/learning/models';
import type { CommentRecord, ContentLinkRecord, ContentResourceRecord } from '../../api/src/learning/schemas';
import type { OutboxEmail } from '../../api/src/mail/models';
import type { OutboxEmailRecord } from '../../api/src/mail/schemas';

// One contract for the API's answers: the answer types live in api/src/<domain>/schemas.ts, the services are typed
// against them, and the apps take them (as Wire<…>) with `import type`. This proves the apps' side: a field renamed
// in a contract file fails the console's or the storefront's typecheck, in the app files that read it.

const root = path.resolve(import.meta.dirname, '../..');

type App = 'admin' | 'storefront';

/**
 * The app's program with contract files served rewritten. Files are parsed once per app and shared between
 * programs (the declaration files of React and MUI are most of the work). A program is rooted at the app files that
 * name the fields (and the app's declarations), and only those are type-checked: they reach every module they use,
 * and the whole app's typecheck is `npm run typecheck`'s job.
 */
function appCompiler(app: App) {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(root, app, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const base = ts.createCompilerHost(config.options, true);
  const parsed = new Map<string, ts.SourceFile>();
  let served = new Map<string, (text: string) => string>();
  const host: ts.CompilerHost = {
    ...base,
    getSourceFile(fileName, languageVersion, onError, shouldCreate) {
      const rewrite = served.get(path.resolve(fileName));
      if (rewrite) return ts.createSourceFile(fileName, rewrite(base.readFile(fileName)!), languageVersion, true);
      let file = parsed.get(fileName);
      if (!file) {
        file = base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
        if (file) parsed.set(fileName, file);
      }
      return file;
    },
  };
  const appDir = path.join(root, app, 'src') + path.sep;
  const names = (text: string, fields: string[]) => fields.some((field) => text.includes(field));
  let previous: ts.Program | undefined;

  /**
   * The errors, as "file: message", in the app's own files (src/) that name one of `fields`, with each file of
   * `rewrites` (a path from the repository's root) served rewritten.
   */
  return function errorsIn(fields: string[], rewrites: Record<string, (text: string) => string> = {}): string[] {
    served = new Map(Object.entries(rewrites).map(([file, rewrite]) => [path.join(root, file), rewrite]));
    const rootNames = config.fileNames.filter(
      (file) => file.endsWith('.d.ts') || (file.startsWith(appDir) && names(ts.sys.readFile(file)!, fields)),
    );
    const program = ts.createProgram({ rootNames, options: config.options, host, oldProgram: previous });
    previous = program;
    return program
      .getSourceFiles()
      .filter((source) => path.resolve(source.fileName).startsWith(appDir) && names(source.text, fields))
      .flatMap((source) => program.getSemanticDiagnostics(source))
      .map(
        (d) =>
          `${path.relative(root, d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 200)}`,
      );
  };
}

/** Renames `from` to `to` where it is declared as a field in the contract file (exactly once, or the test is stale). */
function rename(from: string, to: string) {
  return (text: string) => {
    const declaration = new RegExp(`^(\\s+)${from}(\\??):`, 'm');
    expect(text).toMatch(declaration);
    return text.replace(declaration, `$1${to}$2:`);
  };
}

// Parsing an app with its React and MUI declarations takes seconds, and minutes on a loaded machine.
const COMPILE_TIMEOUT_MS = 300_000;

describe('the API contract, as the apps compile against it', () => {
  it(
    'storefront: a renamed answer field fails the app files that read it',
    () => {
      const errorsIn = appCompiler('storefront');
      const fields = ['teamTiers', 'seatsLeft'];
      // As it is, the files that read the fields compile.
      expect(errorsIn(fields)).toEqual([]);

      // Both renamed in one program: each error names its own field, so neither rename can pass on the other's.
      const errors = errorsIn(fields, {
        'api/src/commerce/schemas.ts': rename('teamTiers', 'tiers'),
        'api/src/catalog/schemas.ts': rename('seatsLeft', 'seatsRemaining'),
      });
      expect(errors).toEqual(
        expect.arrayContaining([
          // The quote carries the team tiers the product page lists (the storefront has no copy of them).
          expect.stringMatching(/^storefront\/src\/pages\/product\/.*teamTiers/),
          expect.stringMatching(/^storefront\/src\/.*seatsLeft/),
        ]),
      );
    },
    COMPILE_TIMEOUT_MS,
  );

  it(
    'console: a renamed answer field fails the app files that read it',
    () => {
      const errorsIn = appCompiler('admin');
      expect(errorsIn(['seatsTotal'])).toEqual([]);

      const seats = errorsIn(['seatsTotal'], { 'api/src/commerce/schemas.ts': rename('seatsTotal', 'seatCount') });
      expect(seats).toEqual(
        expect.arrayContaining([expect.stringMatching(/^admin\/src\/bulk-purchases\/.*seatsTotal/)]),
      );
    },
    COMPILE_TIMEOUT_MS,
  );
});

// The API's side, checked by the root typecheck: the services annotate their answers with the contract's types;
// the console's records are rows of models, so each model must still fit its record.
type Fits<Row, Answer> = Row extends Answer ? true : never;
const _recordsFitTheirModels: [
  Fits<Purchase & { refundedAmount: number }, PurchaseRecord>, // what its charge refunded, joined
  Fits<
    Purchase & { bulkCouponId: string; seatsTotal: number; seatsUsed: number; inviteCode: string },
    TeamPurchaseRecord
  >,
  Fits<Coupon, GeneratedCoupon>,
  Fits<User, UserRecord>,
  Fits<Account, AccountRecord>,
  Fits<Comment, CommentRecord>,
  Fits<ContentResource, ContentResourceRecord>,
  Fits<ContentResourceResource, ContentLinkRecord>,
  Fits<OutboxEmail, OutboxEmailRecord>,
  Fits<Product & { faq: FaqItem[] }, ProductRecord>, // the questions come from product_faqs
  Fits<Price, PriceRecord>,
  Fits<Coupon, CouponRecord>,
  Fits<PurchaseUserTransfer, TransferRecord>,
  Fits<ProductRevenueSplit, RevenueSplitRecord>,
] = [true, true, true, true, true, true, true, true, true, true, true, true, true, true];
