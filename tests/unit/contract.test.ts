import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Price, Product } from '../../api/src/catalog/models';
import type { FaqItem, PriceRecord, ProductRecord } from '../../api/src/catalog/schemas';
import type { Coupon, Purchase, PurchaseUserTransfer } from '../../api/src/commerce/models';
import type { BulkPurchaseRecord, CouponRecord, PurchaseRecord, TransferRecord } from '../../api/src/commerce/schemas';
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
 * The app's program with one contract file served rewritten. Files are parsed once per app and shared between
 * programs (the declaration files of React and MUI are most of the work), and only the app files that name the
 * renamed field are type-checked: the whole app's typecheck is `npm run typecheck`'s job.
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
  let served: { target: string; rewrite: (text: string) => string } | undefined;
  const host: ts.CompilerHost = {
    ...base,
    getSourceFile(fileName, languageVersion, onError, shouldCreate) {
      if (served && path.resolve(fileName) === served.target) {
        return ts.createSourceFile(fileName, served.rewrite(base.readFile(fileName)!), languageVersion, true);
      }
      let file = parsed.get(fileName);
      if (!file) {
        file = base.getSourceFile(fileName, languageVersion, onError, shouldCreate);
        if (file) parsed.set(fileName, file);
      }
      return file;
    },
  };
  let previous: ts.Program | undefined;

  /** The errors, as "file: message", in the app's own files (src/) that name `field`, with `file` rewritten. */
  return function errorsWhen(file: string, field: string, rewrite: (text: string) => string): string[] {
    served = { target: path.join(root, file), rewrite };
    const program = ts.createProgram({
      rootNames: config.fileNames,
      options: config.options,
      host,
      oldProgram: previous,
    });
    previous = program;
    const appDir = path.join(root, app, 'src') + path.sep;
    return program
      .getSourceFiles()
      .filter((source) => path.resolve(source.fileName).startsWith(appDir) && source.text.includes(field))
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
      const errorsWhen = appCompiler('storefront');
      // As it is, the files that read the fields compile.
      expect(errorsWhen('api/src/commerce/schemas.ts', 'teamTiers', (text) => text)).toEqual([]);

      // The quote carries the team tiers the product page lists (the storefront has no copy of them).
      const tiers = errorsWhen('api/src/commerce/schemas.ts', 'teamTiers', rename('teamTiers', 'tiers'));
      expect(tiers).toEqual(
        expect.arrayContaining([expect.stringMatching(/^storefront\/src\/pages\/product\/.*teamTiers/)]),
      );

      const seatsLeft = errorsWhen('api/src/catalog/schemas.ts', 'seatsLeft', rename('seatsLeft', 'seatsRemaining'));
      expect(seatsLeft).toEqual(expect.arrayContaining([expect.stringMatching(/^storefront\/src\/.*seatsLeft/)]));
    },
    COMPILE_TIMEOUT_MS,
  );

  it(
    'console: a renamed answer field fails the app files that read it',
    () => {
      const errorsWhen = appCompiler('admin');
      expect(errorsWhen('api/src/commerce/schemas.ts', 'seatsTotal', (text) => text)).toEqual([]);

      const seats = errorsWhen('api/src/commerce/schemas.ts', 'seatsTotal', rename('seatsTotal', 'seatCount'));
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
    BulkPurchaseRecord
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
