import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Coupon, Purchase } from '../../api/src/commerce/models';
import type { BulkPurchaseRecord, PurchaseRecord } from '../../api/src/commerce/schemas';
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

function appProgram(app: 'admin' | 'storefront', serve?: { file: string; rewrite: (text: string) => string }) {
  const configPath = path.join(root, app, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options, true);
  if (serve) {
    const target = path.join(root, serve.file);
    const original = host.readFile.bind(host);
    host.readFile = (fileName) => {
      const text = original(fileName);
      return text !== undefined && path.resolve(fileName) === target ? serve.rewrite(text) : text;
    };
  }
  return ts.createProgram({ rootNames: config.fileNames, options: config.options, host });
}

/** The errors reported in the app's own files (src/), as "file: message". */
function appErrors(app: 'admin' | 'storefront', program: ts.Program): string[] {
  const appDir = path.join(root, app, 'src') + path.sep;
  return program
    .getSourceFiles()
    .filter((file) => path.resolve(file.fileName).startsWith(appDir))
    .flatMap((file) => program.getSemanticDiagnostics(file))
    .map(
      (d) =>
        `${path.relative(root, d.file!.fileName)}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 200)}`,
    );
}

/** Renames `from` to `to` where it is declared as a field in the contract file (exactly once, or the test is stale). */
function rename(from: string, to: string) {
  return (text: string) => {
    const declaration = new RegExp(`^(\\s+)${from}(\\??):`, 'm');
    expect(text).toMatch(declaration);
    return text.replace(declaration, `$1${to}$2:`);
  };
}

describe('the API contract, as the apps compile against it', () => {
  it('storefront: the contract as it is compiles; a renamed answer field fails the app files that read it', () => {
    expect(appErrors('storefront', appProgram('storefront'))).toEqual([]);

    // The quote carries the team tiers the product page lists (the storefront has no copy of them).
    const tiers = appErrors(
      'storefront',
      appProgram('storefront', { file: 'api/src/commerce/schemas.ts', rewrite: rename('teamTiers', 'tiers') }),
    );
    expect(tiers).toEqual(
      expect.arrayContaining([expect.stringMatching(/^storefront\/src\/pages\/product\/.*teamTiers/)]),
    );

    const seatsLeft = appErrors(
      'storefront',
      appProgram('storefront', { file: 'api/src/catalog/schemas.ts', rewrite: rename('seatsLeft', 'seatsRemaining') }),
    );
    expect(seatsLeft).toEqual(expect.arrayContaining([expect.stringMatching(/^storefront\/src\/.*seatsLeft/)]));
  });

  it('console: the contract as it is compiles; a renamed answer field fails the app files that read it', () => {
    expect(appErrors('admin', appProgram('admin'))).toEqual([]);

    const seats = appErrors(
      'admin',
      appProgram('admin', { file: 'api/src/commerce/schemas.ts', rewrite: rename('seatsTotal', 'seatCount') }),
    );
    expect(seats).toEqual(expect.arrayContaining([expect.stringMatching(/^admin\/src\/bulk-purchases\/.*seatsTotal/)]));
  });
});

// The API's side, checked by the root typecheck: the services annotate their answers with the contract's types;
// the console's records are rows of models, so each model must still fit its record.
type Fits<Row, Answer> = Row extends Answer ? true : never;
const _recordsFitTheirModels: [
  Fits<Purchase, PurchaseRecord>,
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
] = [true, true, true, true, true, true, true, true, true];
