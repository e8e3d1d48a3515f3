import type { Brand } from '../mail/layout';
import type { School } from './schemas';

/** The school as its emails carry it: the logo at an absolute address under PUBLIC_URL, which a mail client fetches. */
export function emailBrandOf(school: School, publicUrl: string): Brand {
  return {
    name: school.name,
    supportEmail: school.supportEmail,
    address: school.address,
    accentColor: school.accentColor,
    logo: school.logo && {
      url: new URL(school.logo.src, publicUrl).toString(),
      width: school.logo.width,
      height: school.logo.height,
    },
  };
}
