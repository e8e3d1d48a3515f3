import type { DataProvider, RaRecord } from 'react-admin';
import type { School, SchoolInput } from '@contract/school/schemas';
import type { Wire } from '@contract/shared/wire';
import { isDroppedFile, onField, type Http } from '../media/imageUploads';

/** The console's name of the school's settings: one record (GET/PUT /api/admin/school), edited on its own page. */
export const SCHOOL = 'school';

/** The settings as the form holds them: the API's answer, with the logo's key as the picture input's value. */
export type SchoolRecord = Wire<School> & RaRecord & { logoKey: string | null };

const toRecord = (school: Wire<School>): SchoolRecord => ({ ...school, id: 1, logoKey: school.logo?.key ?? null });

/** What PUT /api/admin/school takes: every field but the logo (which has its own upload). */
function settingsOf(data: Partial<SchoolRecord>): Record<keyof SchoolInput, unknown> {
  return {
    name: data.name ?? '',
    legalName: data.legalName ?? '',
    address: data.address ?? '',
    supportEmail: data.supportEmail ?? '',
    accentColor: data.accentColor ?? '',
    termsHtml: data.termsHtml ?? '',
    privacyHtml: data.privacyHtml ?? '',
    taxCountry: data.taxCountry ?? null,
    taxId: data.taxId ?? '',
    taxEuOss: data.taxEuOss ?? false,
    taxInclusiveCurrencies: data.taxInclusiveCurrencies ?? [],
  };
}

/**
 * The REST data provider, with the school's settings as the one record of `school`: read from GET, saved by PUT,
 * then the logo chosen in the form uploaded (or removed) by the same Save. A refusal of the file (413, 415, 422) is
 * an error on the logo's input; field errors of the settings come back on their fields (react-admin reads `errors`).
 */
export function withSchool<P extends DataProvider>(provider: P, http: Http, api: string): P {
  return {
    ...provider,
    async getOne(resource, params) {
      if (resource !== SCHOOL) return provider.getOne(resource, params);
      const { json } = await http(`${api}/school`, { signal: params.signal });
      return { data: toRecord(json as Wire<School>) } as never;
    },
    async update(resource, params) {
      if (resource !== SCHOOL) return provider.update(resource, params);
      const data = params.data as Partial<SchoolRecord>;
      let { json } = await http(`${api}/school`, { method: 'PUT', body: JSON.stringify(settingsOf(data)) });
      const before = (params.previousData as SchoolRecord | undefined)?.logoKey ?? null;
      try {
        if (isDroppedFile(data.logoKey)) {
          const form = new FormData();
          form.append('file', data.logoKey.rawFile);
          ({ json } = await http(`${api}/school/logo`, { method: 'PUT', body: form }));
        } else if (data.logoKey == null && before) {
          ({ json } = await http(`${api}/school/logo`, { method: 'DELETE' }));
        }
      } catch (error) {
        throw onField(error, 'logoKey');
      }
      return { data: toRecord(json as Wire<School>) } as never;
    },
  };
}
